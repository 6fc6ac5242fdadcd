"""The daily snapshot: refresh every watched subject of one account once and record the day.

First the account's own sites (GET /sites) join its watchlist as "own"; then every request the
watchlist needs (each domain's lookup and Trust Map, each own site's tracked-keyword list, each
watched keyword's report) goes through ``client.bulk.BulkRunner``: a few workers sharing one pacer
that learns the per-key rate limit and pauses everyone on a 429, instead of each request sleeping
through its own Retry-After. Only operations that spend no quota units are used (never /dr nor
/site-check). Answers are recorded as they arrive, each in its own transaction, so a run killed
half-way keeps what it recorded and the next run completes the day; recording is idempotent per
(account, subject, day), so a second run the same day reports "unchanged".
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from client import ApiClient
from client.bulk import BulkRunner, ItemResult, Pacer
from client.errors import ApiError, AuthError, PaymentRequiredError
from client.growth_models import SiteRecord
from client.inputs import normalise_domain, slug_for
from store.engine import StoreUnavailable
from store.history import HistoryStore
from store.recording import RecordOutcome
from store.watchlist import own_sites

#: The words a progress line and a failure use for each request.
WHAT = {
    "lookup": "lookup",
    "trust_map": "Trust Map",
    "tracked": "tracked keywords",
    "keyword": "keyword report",
}


def _asked_order(what: str) -> tuple[int, str]:
    """Where a request's words stand in ``WHAT`` (the order the job asks them in)."""
    order = list(WHAT.values())
    return (order.index(what) if what in order else len(order), what)


@dataclass
class SubjectResult:
    """What became of one watched subject: every request recorded, unchanged, or the reasons it failed."""

    label: str
    pending: int
    recorded: bool = False
    #: What went wrong, by message: the requests that met it ("lookup", "Trust Map", …).
    problems: dict[str, list[str]] = field(default_factory=dict)

    def failed(self, what: str, message: str) -> None:
        self.problems.setdefault(message, []).append(what)

    @property
    def reasons(self) -> str:
        """Each distinct problem once: "lookup and Trust Map failed: <the service's words>", the requests
        always in the order they are asked (their threads finish in any order)."""
        return "; ".join(
            f"{' and '.join(sorted(whats, key=_asked_order))} {message}"
            for message, whats in self.problems.items()
        )

    @property
    def outcome(self) -> str:
        if self.problems:
            return "failed"
        return "recorded" if self.recorded else "unchanged"


@dataclass
class SnapshotReport:
    recorded: int = 0
    unchanged: int = 0
    failed: int = 0
    failures: list[str] = field(default_factory=list)

    @property
    def summary(self) -> str:
        return f"recorded {self.recorded}, unchanged {self.unchanged}, failed {self.failed}"

    @property
    def ok(self) -> bool:
        return self.failed == 0


def _site_domain(site: SiteRecord) -> str | None:
    for candidate in (site.domain, site.url):
        if candidate:
            try:
                return normalise_domain(candidate)
            except ApiError:
                continue
    return None


def _problem(err: ApiError | None, skipped: bool) -> str:
    """The end of "<what> failed: …" for a request's error."""
    message = str(err) if err is not None else "the run stopped before it was asked"
    if skipped:
        return f"not asked: the run stopped ({message})"
    return f"failed: {message}"


class SnapshotJob:
    """One run for one account and day. ``client`` must not retry 429s itself (``max_retries=0``)."""

    def __init__(
        self,
        store: HistoryStore,
        client: ApiClient,
        account: str,
        day: date,
        *,
        progress: Callable[[str], None] = lambda _line: None,
        workers: int = 8,
        pacer: Pacer | None = None,
    ) -> None:
        self.store, self.client, self.account, self.day = store, client, account, day
        self.progress = progress
        self.workers = workers
        self.pacer = pacer or Pacer()
        self.report = SnapshotReport()
        self._done = 0
        self._total = 0

    # --- the steps ----------------------------------------------------------------------------

    def run(self) -> SnapshotReport:
        own_slugs = self._own_sites()
        if own_slugs is None:
            return self.report  # the key was refused: every further request would be refused too
        watched = self.store.watchlist(self.account)
        own_domains = own_sites(watched)
        asking_domain = own_domains[0] if own_domains else None
        subjects: dict[str, SubjectResult] = {}
        requests: dict[str, tuple[str, str, Any]] = {}  # item → (operation, subject label, argument)
        keyword_requests: dict[str, tuple[str, str, Any]] = {}
        for item in watched:
            if item.kind == "domain":
                ops: list[tuple[str, Any]] = [("lookup", item.subject), ("trust_map", item.subject)]
                if item.origin == "own":
                    ops.append(("tracked", own_slugs.get(item.subject) or slug_for(item.subject)))
                subjects[item.subject] = SubjectResult(item.subject, len(ops))
                for operation, argument in ops:
                    requests[f"{operation}\t{item.subject}"] = (operation, item.subject, argument)
            else:
                label = f'keyword "{item.subject}"'
                subjects[label] = SubjectResult(label, 1)
                keyword_requests[f"keyword\t{item.subject}"] = (
                    "keyword",
                    label,
                    (item.subject, asking_domain),
                )
        self._total = len(subjects)
        for batch in (requests, keyword_requests):
            if batch:
                self._run_batch(batch, subjects)
        return self.report

    def _own_sites(self) -> dict[str, str] | None:
        """Add the account's own sites to its watchlist; their slugs by domain (None: the key was refused)."""
        runner: BulkRunner[Any] = BulkRunner(lambda _item: self.client.sites(), workers=1, pacer=self.pacer)
        result = runner.run_all(["sites"])[0]
        if isinstance(result.error, AuthError):
            self._fail_alone("the API key", f"the service did not accept it ({result.error})")
            return None
        if not result.ok:
            self._fail_alone(
                "your own sites", _problem("the list of your sites", result.error, result.skipped)
            )
            return {}
        slugs: dict[str, str] = {}
        for site in result.value.sites:
            domain = _site_domain(site)
            if domain is None:
                continue
            slugs[domain] = site.slug
            self.store.watch(self.account, "domain", domain, origin="own")
        return slugs

    def _fetch(self, operation: str, argument: Any) -> Any:
        if operation == "lookup":
            return self.client.lookup(argument)
        if operation == "trust_map":
            return self.client.trust_map(argument)
        if operation == "tracked":
            return self.client.tracked_keywords(argument)
        keyword, domain = argument
        return self.client.keyword_report(keyword, domain)

    def _record(self, operation: str, value: Any) -> RecordOutcome:
        if operation == "lookup":
            return self.store.record_lookup(self.account, value, self.day, "job")
        if operation == "trust_map":
            return self.store.record_trust_map(self.account, value, self.day, "job")
        if operation == "tracked":
            return self.store.record_tracked(self.account, value, self.day, "job")
        return self.store.record_keyword_report(self.account, value, self.day, "job")

    def _run_batch(self, batch: dict[str, tuple[str, str, Any]], subjects: dict[str, SubjectResult]) -> None:
        def fetch(item: str) -> Any:
            operation, _label, argument = batch[item]
            return self._fetch(operation, argument)

        runner: BulkRunner[Any] = BulkRunner(fetch, workers=self.workers, pacer=self.pacer)
        for result in runner.run(list(batch)):
            operation, label, _argument = batch[result.item]
            subject = subjects[label]
            self._settle(subject, operation, result)
            subject.pending -= 1
            if subject.pending == 0:
                self._finish(subject)

    def _settle(self, subject: SubjectResult, operation: str, result: ItemResult[Any]) -> None:
        what = WHAT[operation]
        if not result.ok:
            if isinstance(result.error, PaymentRequiredError) and operation == "keyword":
                subject.failed(what, "failed: your plan does not include keyword research")
            else:
                subject.failed(what, _problem(result.error, result.skipped))
            return
        try:
            outcome = self._record(operation, result.value)
        except StoreUnavailable as exc:
            subject.failed(what, f"was read but not saved: {exc.reason}")
            return
        subject.recorded = subject.recorded or outcome == "recorded"

    # --- the tally ----------------------------------------------------------------------------

    def _finish(self, subject: SubjectResult) -> None:
        self._done += 1
        outcome = subject.outcome
        if outcome == "failed":
            self.report.failed += 1
            reasons = subject.reasons
            self.report.failures.append(f"{subject.label}: {reasons}")
            line = f"{subject.label}: failed ({reasons})"
        else:
            setattr(self.report, outcome, getattr(self.report, outcome) + 1)
            line = f"{subject.label}: {outcome}"
        self.progress(f"[{self._done}/{self._total}] {line}")

    def _fail_alone(self, label: str, reason: str) -> None:
        self.report.failed += 1
        self.report.failures.append(f"{label}: {reason}")
        self.progress(f"{label}: failed ({reason})")
