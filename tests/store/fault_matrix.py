"""The daily job against every fault the sandbox injects, on each operation it calls, on SQLite (and the
faults that are stored differently on PostgreSQL; one database and one sandbox per case): the real
service will answer what the sandbox never does.

Whatever one operation answers (any status, a timeout, a dropped connection, a body that is not JSON or
not the documented shape, nulls, hostile text), the job ends with its tally line and exit 0 or 1, never
an exception; every failure is a named line in words; and everything the other operations answered is
recorded. What the faulted operation answered is recorded only when it is true: never a keyword "not
ranking" or a Trust Map that was not read.

One test per case, its id naming the operation and the fault (``[lookup-timeout]``): on SQLite all
seventy-five, on PostgreSQL the faults whose answers reach the database differently
(``STORED_DIFFERENTLY``). A module's selected cases run side by side, a few dozen at a time, once before
its first test (``run_selected``); each test then says what went wrong in its own case. Each job runs
against a sandbox of its own (a fault is the sandbox's state), so the faults' own waits (a Retry-After,
a timeout) pass together instead of one after another. The SQLite and PostgreSQL halves are two test
modules (each names its database kind), so the suite's two workers run them at once.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import date
from typing import Any

import pytest

from client import bulk
from client.bulk import MAX_RATE, Pacer
from client.settings import key_fingerprint
from sandbox import DEMO_KEY, SandboxConfig, SandboxServer
from sandbox import data as sandbox_data
from sandbox.accounts import ACCOUNTS
from sandbox.faults import NAMED_FAULTS, STATUS_FAULTS
from sandbox.keyword_data import serp_on
from services.cli import Lines, record_snapshot
from services.jobs import snapshot
from store import HistoryStore

ACCOUNT = key_fingerprint(DEMO_KEY)
DAY = date(2025, 1, 6)
OWN_SITES = ACCOUNTS[DEMO_KEY].sites
RIVAL = "semrush.com"
KEYWORD = "cold brew coffee"
#: The one of the demo's own sites in the keyword's top 10: a false "not ranking" would show.
KEYWORD_SITE = next(site for site in OWN_SITES if site in {row.domain for row in serp_on(KEYWORD)})
#: The watched domains whose sandbox Trust Map is ready (a cold one answers 503 on any day).
WARM_MAPS = {domain for domain in (*OWN_SITES, RIVAL) if not sandbox_data.is_map_cold(domain)}
#: Every operation the job calls, named as the sandbox's faults name them.
JOB_OPERATIONS = ("sites", "lookup", "trust_map", "tracked_keywords", "keyword_report")
FAULTS: tuple[int | str, ...] = (*STATUS_FAULTS, *NAMED_FAULTS)
TALLY = re.compile(r"^recorded \d+, unchanged \d+, failed \d+$")
#: The faults after which the faulted operation has nothing true to keep.
#: (A 429 passes after two answers here: then the operation is read and kept.)
UNREADABLE = {*STATUS_FAULTS, "402-gate", "timeout", "nonjson", "badtypes", "drop"} - {429}
#: What every other operation records when one is faulted.
EVERYTHING = {
    "lookup": {*OWN_SITES, RIVAL},
    "trust_map": WARM_MAPS,
    "tracked_keywords": {site.replace(".", "-") for site in OWN_SITES},
    "keyword_report": {KEYWORD_SITE},
}


@dataclass
class Case:
    """One run of the job with one fault: its database, its lines and its exit code."""

    operation: str
    fault: int | str
    new_database: Callable[[], str]
    url: str = ""
    say: list[str] = field(default_factory=list)
    out: list[str] = field(default_factory=list)
    code: int | None = None

    def run(self) -> Case:
        self.url = self.new_database()
        with HistoryStore.open(self.url) as store:
            for site in OWN_SITES:  # as after an earlier run: known even when the site list fails
                store.watchlist.watch(ACCOUNT, "domain", site, origin="own")
            store.watchlist.watch(ACCOUNT, "domain", RIVAL)
            store.watchlist.watch(ACCOUNT, "keyword", KEYWORD, site=KEYWORD_SITE)
        with SandboxServer(SandboxConfig(), host="127.0.0.1", port=0) as sandbox:
            # A 429 is the key's limit and passes: twice here (retried and paced), where every other
            # fault stays. Retry-After as short as the sandbox allows (it says at least 1 s).
            times = 2 if self.fault == 429 else None
            sandbox.state.add_fault(self.operation, self.fault, key=DEMO_KEY, retry_after=0, times=times)
            # The "timeout" fault holds its answer for a minute; any sane timeout gives up long before,
            # and the other operations' answers must still fit in it on a busy machine, where 25 cases'
            # servers share one process with another test worker beside it (10 s and 20 s were missed).
            timeout_s = 25.0 if self.fault == "timeout" else 50.0
            with HistoryStore.open(self.url) as store:
                self.code = record_snapshot(
                    store,
                    sandbox.base_url,
                    DEMO_KEY,
                    DAY,
                    timeout_s=timeout_s,
                    lines=Lines(self.say.append, self.out.append),
                )
        return self

    def problems(self) -> list[str]:
        """What is wrong with this run, in words (none: it behaved)."""
        found = []
        failures = [line for line in self.say if line.startswith("failed: ")]
        if self.code not in (0, 1) or (self.code == 1) != bool(failures):
            found.append(f"exit {self.code} with failures {failures}")
        if not self.out or not TALLY.match(self.out[-1]):
            found.append(f"last line {self.out[-1:]}")
        found += [f"unnamed: {line}" for line in failures if not re.match(r"failed: [^:]+: \S", line)]
        with HistoryStore.open(self.url) as store:
            day = _recorded(store)
        refused_key = self.operation == "sites" and self.fault == 401  # nothing can be read at all
        for other, expected in EVERYTHING.items():
            if other != self.operation and not refused_key and not expected <= day[other]:
                found.append(f"{other} kept {sorted(day[other])}, not all of {sorted(expected)}")
        if refused_key and (any(day.values()) or not any("did not accept it" in line for line in self.say)):
            found.append("a refused key should record nothing and say so")
        garbled = self.fault == "hostile" and self.operation in ("trust_map", "keyword_report")
        if (self.fault in UNREADABLE or garbled) and day.get(self.operation):
            found.append(f"{self.operation} recorded {sorted(day[self.operation])} from a {self.fault}")
        return found


def _recorded(store: HistoryStore) -> dict[str, set[str]]:
    """What the day holds: the domains with a lookup, with a Trust Map, the own sites with tracked
    keywords (by slug) and the site the watched keyword was recorded for."""
    domains = [*OWN_SITES, RIVAL]
    keywords = store.queries.keyword_history(ACCOUNT, None)
    return {
        "lookup": set(store.queries.domain_history(ACCOUNT, domains)["domain"]),
        "trust_map": {d for d in domains if store.queries.trust_map_days(ACCOUNT, d)},
        "tracked_keywords": {site for site in keywords["site"] if "." not in site},
        "keyword_report": set(keywords.loc[keywords["keyword"] == KEYWORD, "site"]) & {KEYWORD_SITE},
    }


#: How many cases run at once: enough for every wait to overlap, few enough for a 2-core machine.
AT_ONCE = 25


#: The faults whose answers reach the database differently (none kept, a retried one kept, nulls,
#: hostile text): run on PostgreSQL too. How the job handles each fault does not depend on the
#: database, so SQLite, the default, runs them all.
STORED_DIFFERENTLY: tuple[int | str, ...] = (500, 429, "nulls", "hostile")


#: One case of the matrix: the operation faulted and its fault.
CaseId = tuple[str, int | str]


def cases(faults: tuple[int | str, ...]) -> list[Any]:
    """Every operation × each of ``faults``, as parameters ``operation`` and ``fault`` whose test id
    names both (``lookup-timeout``)."""
    return [
        pytest.param(operation, fault, id=f"{operation}-{fault}")
        for operation in JOB_OPERATIONS
        for fault in faults
    ]


class FastPacer(Pacer):
    """The job's pacer, started as fast as a sandbox allows (and nothing learned kept for later)."""

    @classmethod
    def for_limit(cls, limit: str | None, **_kwargs: Any) -> Pacer:
        return Pacer(MAX_RATE)


def run_selected(request: pytest.FixtureRequest, new_database: Callable[[], str]) -> dict[CaseId, Case]:
    """Run the job once for each case of the requesting module that this session selected, side by
    side; each run by its (operation, fault)."""
    selected: list[CaseId] = [
        (item.callspec.params["operation"], item.callspec.params["fault"])
        for item in request.session.items
        if isinstance(item, pytest.Function) and item.module is request.module and hasattr(item, "callspec")
    ]
    with pytest.MonkeyPatch.context() as monkeypatch:
        # The job's pacer starts as fast as a sandbox allows, and its retries after a 503 or a dropped
        # connection come at once: the same retries, none of the waiting.
        monkeypatch.setattr(snapshot, "Pacer", FastPacer)
        monkeypatch.setattr(bulk, "backoff_s", lambda _attempt: 0.0)
        runs = [Case(operation, fault, new_database) for operation, fault in selected]
        # The held answers first: their timeouts, one after another within a case, are the longest runs.
        runs.sort(key=lambda case: case.fault != "timeout")
        with ThreadPoolExecutor(max_workers=AT_ONCE) as pool:
            done = list(pool.map(Case.run, runs))
    return {(case.operation, case.fault): case for case in done}


def assert_behaved(case: Case) -> None:
    """Fail naming what went wrong in this case's run, with what the job said."""
    found = case.problems()
    assert not found, f"{case.operation} × {case.fault}: {found}\n  {case.say}"
