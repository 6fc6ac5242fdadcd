"""The daily snapshot: refresh every watched subject of one account once and record the day.

First the account's own sites (GET /sites) join its watchlist as "own" (when the list cannot be read,
the job says so and goes on with the sites it already knew); then every request the watchlist needs
(each domain's lookup and Trust Map, each own site's tracked-keyword list, each watched keyword's report
for the site it is watched for) goes through ``client.bulk.BulkRunner``: a few workers sharing one
pacer that learns the per-key rate limit and pauses everyone on a 429. A refusal of one operation (a
plan without keyword research, a key refused by one endpoint) stops only that operation's requests.
Only operations that spend no quota units are used (never /dr nor /site-check).

Each answer is recorded on its own, in its own transaction, under what was asked (never under what the
answer claims to be about), so a failed lookup never costs a site its Trust Map or its keywords, and a
run killed half-way keeps what it recorded. A run asks only the reads its day does not hold yet
(``Snapshots.recorded_reads``): started again the same day (the same ``--as-of``) after a kill, it
continues where the other stopped and asks no recorded read twice; a read that failed earlier is asked
again; a subject whose every read the day holds counts as "unchanged" without a request. A Trust Map
keeps its usable rows, and the line says how many were skipped and why (a skipped row is unknown that
day, never a link lost). Whatever the service answers (any status, a timeout, a dropped connection, a
body that is not JSON or not the documented shape), each failure is a line in words on the subject it
hit; see ``services.jobs.outcomes`` for the words and the tally.

Before its first read the run says how many calls it needs. ``max_calls`` is a guard for cron: a run
that needs more reads none and raises ``TooManyCalls`` (the command exits 2, saying what to do). It
does not read the first N and leave the rest, because the same watchlist in the same order would leave
the same subjects unrecorded day after day, a quiet hole in their history, where a refused run is one
loud mail the day the watchlist outgrew its budget. A watchlist of up to ``EACH_SUBJECT_UP_TO``
subjects gets a line per subject; a larger one a progress line every tenth of its reads or 30 s
(``services.jobs.progress``) and a line only for a subject that did not go plainly (failed, partly
recorded, waiting, rows left out), so 5,000 keywords make a log a person can read.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from datetime import date
from typing import Any

from analysis.wording import skipped_rows_words
from client import ApiClient
from client.bulk import BulkRunner, ItemResult, Pacer
from client.errors import ApiError, AuthError, InvalidInputError, NotFoundError, PaymentRequiredError
from client.growth_inputs import normalise_slug
from client.growth_models import SiteRecord
from client.inputs import normalise_domain, slug_for
from client.models import TrustMap
from services.jobs.outcomes import WHAT, SnapshotReport, SubjectResult
from services.jobs.progress import RunMeter
from store.engine import StoreUnavailable
from store.history import HistoryStore
from store.rows import Unusable, subject_name
from store.watchlist import SITE_UNKNOWN, WatchItem


@dataclass(frozen=True)
class Request:
    """One read of the run: the client's method, what it is asked with, and whose it is."""

    operation: str
    asked: Any
    subject: str

    @property
    def item(self) -> str:
        return f"{self.operation}\t{self.subject}"

    @property
    def as_recorded(self) -> tuple[str, Any]:
        """How ``Snapshots.recorded_reads`` names this read once the day holds it."""
        if self.operation == "keyword_report":
            keyword, site = self.asked
            return self.operation, (subject_name(keyword), subject_name(site))
        return self.operation, subject_name(self.asked)


#: Up to this many subjects a run says a line for each; above, progress lines (see the module's words).
EACH_SUBJECT_UP_TO = 100
#: Days of top-10 DRs a run sums without a line: its own, and a few more written around it.
DAYS_SUMMED_QUIETLY = 7


class TooManyCalls(Exception):
    """The run needs more calls than ``max_calls`` allows: nothing was read."""

    def __init__(self, needed: int, max_calls: int, subjects: int) -> None:
        self.needed, self.max_calls, self.subjects = needed, max_calls, subjects
        super().__init__(
            f"This run needs {needed:,} calls for {subjects:,} subjects, more than "
            f"--max-calls {max_calls:,}: no subject was read. Raise --max-calls (one call per domain's "
            "lookup, Trust Map and, for your own sites, tracked keywords; one per watched keyword), or "
            "watch fewer subjects."
        )


def subject_label(item: WatchItem) -> str:
    """How lines name a watched subject: ``stripe.com``, ``keyword "crm" for example.com``."""
    if item.kind == "domain":
        return item.subject
    return f'keyword "{item.subject}" for {item.site or SITE_UNKNOWN}'


def _site_domain(site: SiteRecord) -> str | None:
    for candidate in (site.domain, site.url):
        if candidate:
            try:
                return normalise_domain(candidate)
            except ApiError:
                continue
    return None


def _site_slug(site: SiteRecord, domain: str) -> str:
    """The site's slug as the service gave it, or the one made from its domain when that is unusable."""
    try:
        return normalise_slug(site.slug)
    except InvalidInputError:
        return slug_for(domain)


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
        hold: bool = False,
        max_calls: int | None = None,
    ) -> None:
        self.store, self.client, self.account, self.day = store, client, account, day
        #: With ``hold``, answers are read but not recorded: ``record_held`` records them later (``watch``
        #: records a subject only once it is watched). Failures are settled at once: they write nothing.
        self.hold = hold
        self._held: list[tuple[Request, ItemResult[Any]]] = []
        self.progress = progress
        self.workers = workers
        self.pacer = pacer or Pacer.for_limit(getattr(client, "limit_name", None))
        self.report = SnapshotReport()
        self.results: dict[str, SubjectResult] = {}
        self.max_calls = max_calls
        #: The reads this run asks (after leaving out those the day already holds), once planned.
        self.calls_needed = 0
        self._meter: RunMeter | None = None
        self._done = 0
        self._total = 0

    # --- the steps ----------------------------------------------------------------------------

    def run(self) -> SnapshotReport:
        """The whole watchlist: the account's own sites first, then everything it watches. This month's
        and next month's partitions are made first (PostgreSQL), so a month's first write never waits
        for one and a long run that crosses midnight into a new month finds it there."""
        self.store.partitions.ensure_ahead(self.day)
        own_slugs = self.own_sites()
        if own_slugs is None:
            return self.report  # the key was refused: every further request would be refused too
        report = self.run_items(self.store.watchlist.entries(self.account), own_slugs, resume=True)
        self._sum_top10_drs()
        return report

    def _sum_top10_drs(self) -> None:
        """Sum the top 10s' DRs of the days written (``store.rollups.dr_days``) now, so a report or the
        Opportunities page never waits for them: the day's, or after an upgrade the whole history's,
        once. Best effort: a refused write leaves them to be summed on their first read."""
        try:
            days = self.store.dr_days.keep(self.account, None, None)
        except StoreUnavailable as exc:
            self.progress(f"Top-10 DRs not summed ahead: {exc.reason} (the first report sums them)")
            return
        if days > DAYS_SUMMED_QUIETLY:
            self.progress(f"Top-10 DRs of {days:,} days summed ahead for the reports")

    def run_items(
        self, items: Iterable[WatchItem], own_slugs: dict[str, str], *, resume: bool = False
    ) -> SnapshotReport:
        """Record ``items`` for the day (``watch add`` records one subject this way). With ``resume``,
        the reads the day already holds are not asked again."""
        requests: list[Request] = []
        keyword_requests: list[Request] = []
        for item in items:
            label = subject_label(item)
            if item.kind == "keyword" and not item.site:
                self._waiting_alone(label, "pick the site it is measured for, then it is recorded daily")
                continue
            if item.kind == "domain":
                mine = [Request("lookup", item.subject, label), Request("trust_map", item.subject, label)]
                if item.origin == "own":
                    slug = own_slugs.get(item.subject) or slug_for(item.subject)
                    mine.append(Request("tracked_keywords", slug, label))
                requests += mine
            else:
                mine = [Request("keyword_report", (item.subject, item.site), label)]
                keyword_requests += mine
            self.results[label] = SubjectResult(label, len(mine))
        self._total += len(self.results)
        if resume:
            held = self.store.snapshots.recorded_reads(self.account, self.day)
            requests, keyword_requests = self._left(requests, held), self._left(keyword_requests, held)
            self._plan(len(requests) + len(keyword_requests))
        for batch in (requests, keyword_requests):
            if batch:
                self._run_batch(batch)
        return self.report

    def _left(self, batch: list[Request], held: set[tuple[str, Any]]) -> list[Request]:
        """The reads of ``batch`` the day does not hold yet; a subject whose every read it holds is
        counted "unchanged" at once (it was recorded earlier the same day)."""
        left = []
        for request in batch:
            if request.as_recorded not in held:
                left.append(request)
                continue
            subject = self.results[request.subject]
            subject.kept_answer(WHAT[request.operation], changed=False)
            subject.pending -= 1
            if subject.pending == 0:
                self._done += 1
                self.report.count(subject)
        return left

    def _plan(self, calls: int) -> None:
        """Say what the run will ask before it asks; refuse it when it needs more than ``max_calls``."""
        self.calls_needed = calls
        subjects = sum(1 for subject in self.results.values() if subject.pending)
        if self.max_calls is not None and calls > self.max_calls:
            raise TooManyCalls(calls, self.max_calls, subjects)
        earlier = self._done
        if earlier:
            self.progress(
                f"{earlier:,} of {self._total:,} subjects were recorded earlier on {self.day.isoformat()}: "
                "not asked again"
            )
        if calls:
            within = f" (--max-calls {self.max_calls:,})" if self.max_calls is not None else ""
            self.progress(f"This run needs {calls:,} calls for {subjects:,} subjects{within}")
        if self._total > EACH_SUBJECT_UP_TO and calls:
            self._meter = RunMeter(calls, self.progress)

    def own_sites(self) -> dict[str, str] | None:
        """Add the account's own sites to its watchlist; their slugs by domain (None: the key was refused).

        When the list cannot be read, the failure is said and the run goes on with the own sites the
        watchlist already holds (their slugs made from their domains).
        """
        runner: BulkRunner[Any] = BulkRunner(lambda _item: self.client.sites(), workers=1, pacer=self.pacer)
        result = runner.run_all(["sites"])[0]
        if isinstance(result.error, AuthError):
            self._fail_alone("the API key", f"the service did not accept it ({result.error})")
            return None
        listing = result.value
        if not result.ok or listing is None:
            why = _problem(result.error, result.skipped)
            known = "the sites already known are recorded"
            self._fail_alone("your own sites", f"the list of your sites {why}; {known}")
            return {}
        slugs: dict[str, str] = {}
        for site in listing.sites:
            domain = _site_domain(site)
            if domain is None:
                continue
            slugs[domain] = _site_slug(site, domain)
            self.store.watchlist.watch(self.account, "domain", domain, origin="own")
        return slugs

    def _fetch(self, request: Request) -> Any:
        if request.operation == "keyword_report":
            keyword, site = request.asked
            return self.client.keyword_report(keyword, site)
        method: Callable[[Any], Any] = getattr(self.client, request.operation)
        return method(request.asked)

    def _run_batch(self, batch: list[Request]) -> None:
        by_item = {request.item: request for request in batch}
        runner: BulkRunner[Any] = BulkRunner(
            lambda item: self._fetch(by_item[item]),
            workers=self.workers,
            pacer=self.pacer,
            group=lambda item: by_item[item].operation,
        )
        for result in runner.run(list(by_item)):
            request = by_item[result.item]
            subject = self.results[request.subject]
            problems_before = len(subject.problems)
            if self.hold and result.ok:
                self._held.append((request, result))
            else:
                self._settle(subject, request, result)
            if self._meter is not None:
                failed = not result.ok or len(subject.problems) > problems_before
                self._meter.settled(calls=result.attempts, failed=failed)
            subject.pending -= 1
            if subject.pending == 0 and not self.hold:
                self._finish(subject)

    def record_held(self, labels: Collection[str]) -> SnapshotReport:
        """Record the answers held for the subjects ``labels`` names and count those subjects; the answers
        held for any other subject are dropped unrecorded."""
        held, self._held = self._held, []
        for request, result in held:
            if request.subject in labels:
                self._settle(self.results[request.subject], request, result)
        for label in labels:
            if label in self.results:
                self._finish(self.results[label])
        return self.report

    def _settle(self, subject: SubjectResult, request: Request, result: ItemResult[Any]) -> None:
        what = WHAT[request.operation]
        if not result.ok:
            self._failed(subject, request, result)
            return
        try:
            outcome = self.store.snapshots.record_read(
                self.account, request.operation, request.asked, result.value, self.day, "job"
            )
        except Unusable as exc:
            subject.failed(what, f"kept nothing: {exc} (nothing recorded for the day)")
            return
        except Exception as exc:  # a database error (StoreUnavailable) or a bug: said, never a traceback
            reason = getattr(exc, "reason", None) or f"an unexpected {type(exc).__name__}"
            subject.failed(what, f"was read but not saved: {reason}")
            return
        left_out = skipped_rows_words(result.value.skipped) if isinstance(result.value, TrustMap) else ""
        subject.kept_answer(what, changed=outcome == "recorded", left_out=left_out)

    def _failed(self, subject: SubjectResult, request: Request, result: ItemResult[Any]) -> None:
        what, error = WHAT[request.operation], result.error
        if isinstance(error, NotFoundError) and request.operation in ("lookup", "trust_map"):
            subject.not_found[what] = str(error)
            return
        if isinstance(error, PaymentRequiredError) and request.operation == "keyword_report":
            subject.failed(what, "failed: your plan does not include keyword research")
        else:
            subject.failed(what, _problem(error, result.skipped))

    # --- the tally ----------------------------------------------------------------------------

    def _finish(self, subject: SubjectResult) -> None:
        self._done += 1
        self.report.count(subject)
        plain = subject.outcome in ("recorded", "unchanged") and not subject.notes
        if self._total <= EACH_SUBJECT_UP_TO or not plain:
            self.progress(f"[{self._done}/{self._total}] {subject.label}: {subject.line}")

    def _fail_alone(self, label: str, reason: str) -> None:
        self.report.fail_alone(label, reason)
        self.progress(f"{label}: failed ({reason})")

    def _waiting_alone(self, label: str, reason: str) -> None:
        """A subject not asked at all: waiting for something only a person can give."""
        self.report.waiting.append(f"{label}: {reason}")
        self.progress(f"{label}: waiting ({reason})")
