"""``python -m store opportunities`` against every fault the sandbox injects, on each operation it calls
(keyword suggestions, tracked keywords, keyword reports), on SQLite: never an exception, every failed
read named in words (a source as a line, a keyword on its row), exit 1 exactly when something failed,
nothing the other operations answered lost, and a keyword whose top 10 could not be read kept without
a score, never scored as a zero.

One test per case (``[keyword_report-timeout]``); the module's cases run side by side once, each
against a sandbox and a database of its own (a fault is the sandbox's state), so the faults' waits pass
together. How the command handles a fault does not depend on the database (it reads the history and
writes nothing), so SQLite alone runs them.
"""

from __future__ import annotations

import functools
import io
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import pandas as pd
import pytest

from analysis.market import DEFAULT_CTR
from client import ApiClient, bulk
from client.bulk import MAX_RATE, Pacer
from client.settings import key_fingerprint
from sandbox import DEMO_KEY, SandboxConfig, SandboxServer
from sandbox.faults import NAMED_FAULTS, STATUS_FAULTS
from services.jobs import opportunities
from store import HistoryStore

ACCOUNT = key_fingerprint(DEMO_KEY)
SITE = "northwind-coffee.com"
WATCHED = "cold brew coffee"
OPERATIONS = ("keyword_suggestions", "tracked_keywords", "keyword_report")
FAULTS: tuple[int | str, ...] = (*STATUS_FAULTS, *NAMED_FAULTS)
#: The faults after which the faulted operation has nothing to give (a 429 passes after two answers).
UNREADABLE = {*STATUS_FAULTS, "402-gate", "timeout", "nonjson", "badtypes", "drop"} - {429}
#: Few keyword reports per run: the faults' waits stay short, and the rest are left by the limit.
MAX_CALLS = 3
#: The source lines of a failed listing read.
SOURCE_WORDS = {"keyword_suggestions": "keyword suggestions", "tracked_keywords": "tracked keywords"}


@dataclass
class Run:
    """One run of the command with one fault: its lines, its list and its exit code."""

    operation: str
    fault: int | str
    new_database: Callable[[], str]
    say: list[str] = field(default_factory=list)
    out: str = ""
    code: int | None = None
    error: str = ""
    suggested: set[str] = field(default_factory=set)
    tracked: set[str] = field(default_factory=set)

    def run(self) -> Run:
        try:
            self._run()
        except Exception as exc:  # what the command let through: the test names it
            self.error = f"{type(exc).__name__}: {exc}"
        return self

    def _run(self) -> None:
        with (
            SandboxServer(SandboxConfig(), host="127.0.0.1", port=0) as sandbox,
            HistoryStore.open(self.new_database()) as store,
        ):
            with ApiClient(sandbox.base_url, DEMO_KEY, timeout=30.0, max_retries=0) as client:
                self._seed(store, client)
            times = 2 if self.fault == 429 else None
            sandbox.state.add_fault(self.operation, self.fault, key=DEMO_KEY, retry_after=0, times=times)
            timeout_s = 8.0 if self.fault == "timeout" else 30.0
            out = io.StringIO()
            with ApiClient(sandbox.base_url, DEMO_KEY, timeout=timeout_s, max_retries=0) as client:
                self.code = opportunities.run(
                    store,
                    client,
                    ACCOUNT,
                    SITE,
                    ctr=DEFAULT_CTR,
                    target=3,
                    max_calls=MAX_CALLS,
                    as_csv=True,
                    out=out,
                    say=self.say.append,
                    pacer=Pacer(MAX_RATE),
                )
            self.out = out.getvalue()

    def _seed(self, store: HistoryStore, client: ApiClient) -> None:
        """As after a daily snapshot (the watched keyword's top 10 recorded), and what the service lists
        when nothing is faulted."""
        day = datetime.now(UTC).date()
        store.watchlist.watch(ACCOUNT, "domain", SITE, origin="own")
        store.watchlist.watch(ACCOUNT, "keyword", WATCHED, site=SITE)
        store.snapshots.record_read(ACCOUNT, "lookup", SITE, client.lookup(SITE), day, "job")
        report = client.keyword_report(WATCHED, SITE)
        store.snapshots.record_read(ACCOUNT, "keyword_report", (WATCHED, SITE), report, day, "job")
        self.suggested = {s.keyword for s in client.keyword_suggestions(SITE).suggestions}
        self.tracked = {k.keyword for k in client.tracked_keywords("northwind-coffee-com").keywords}

    def problems(self) -> list[str]:
        """What is wrong with this run, in words (none: it behaved)."""
        if self.error:
            return [f"raised {self.error}"]
        found = []
        failures = [line for line in self.say if line.startswith("failed: ")]
        if self.code not in (0, 1) or (self.code == 1) != bool(failures):
            found.append(f"exit {self.code} with failures {failures}")
        listed = pd.read_csv(io.StringIO(self.out), keep_default_na=False, na_values=[""])
        rows = listed.set_index("keyword")
        keywords = set(rows.index)
        expected = {WATCHED}
        expected |= self.suggested if self.operation != "keyword_suggestions" else set()
        expected |= self.tracked if self.operation != "tracked_keywords" else set()
        if not expected <= keywords:
            found.append(f"lost {sorted(expected - keywords)}")
        if WATCHED in keywords and rows.loc[WATCHED, "top10_from"] != "recorded top 10":
            found.append("the watched keyword's recorded top 10 was not used")
        reasons = rows["problem"].astype(object).fillna("")
        no_top10, unread = rows["median_dr"].isna(), reasons != ""
        if rows.loc[no_top10, "score"].notna().any() or (reasons[no_top10] == "").any():
            found.append("a keyword without a top 10 was scored, or left without its reason")
        if rows.loc[unread, ["median_dr", "min_dr", "score"]].notna().any().any():
            found.append("a keyword whose top 10 was not read has numbers (a zero?) for it")
        if self.fault in UNREADABLE:
            found += self._named(failures)
        elif self.fault == 429 and self.code != 0:
            found.append(f"a 429 that passes should end in exit 0, not {self.code}: {failures}")
        return found

    def _named(self, failures: list[str]) -> list[str]:
        """Each failed read named: the source, or every keyword report asked for."""
        if self.code != 1:
            return [f"a {self.fault} on {self.operation} should end in exit 1"]
        if self.operation in SOURCE_WORDS:
            words = SOURCE_WORDS[self.operation]
            named = any(line.startswith(f"failed: {words} could not be read (") for line in failures)
            return [] if named else [f"{words} not named as failed"]
        report_failures = [line for line in failures if "top 10 not read (" in line or "not asked" in line]
        return [] if len(report_failures) == MAX_CALLS else [f"{MAX_CALLS} reports not named: {failures}"]


@pytest.fixture(scope="module")
def database_kind() -> str:
    return "sqlite"


@pytest.fixture(scope="module")
def runs(request: pytest.FixtureRequest, migrated_copies: Callable[[], str]) -> dict[Any, Run]:
    """Every case this session selected, side by side, each on a database of its own (a copy of one
    migrated once: migrations are not run side by side)."""
    selected = [
        (item.callspec.params["operation"], item.callspec.params["fault"])
        for item in request.session.items
        if isinstance(item, pytest.Function) and item.module is request.module
    ]
    with pytest.MonkeyPatch.context() as monkeypatch:
        # Retries after a 503 or a dropped connection come at once: the same retries, none of the waiting.
        monkeypatch.setattr(bulk, "backoff_s", lambda _attempt: 0.0)
        cases = [Run(op, fault, migrated_copies) for op, fault in selected]
        cases.sort(key=lambda case: case.fault != "timeout")
        with ThreadPoolExecutor(max_workers=24) as pool:
            done = list(pool.map(functools.partial(Run.run), cases))
    return {(case.operation, case.fault): case for case in done}


@pytest.mark.parametrize(
    ("operation", "fault"),
    [pytest.param(op, fault, id=f"{op}-{fault}") for op in OPERATIONS for fault in FAULTS],
)
def test_the_command_names_every_failure_and_loses_nothing(
    runs: dict[Any, Run], operation: str, fault: int | str
) -> None:
    case = runs[(operation, fault)]
    assert not case.problems(), f"{operation} × {fault}: {case.problems()}\n  {case.say}"
