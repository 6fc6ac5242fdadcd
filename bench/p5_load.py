"""P5: concurrent browsing sessions on one app process versus two behind nginx sharing Redis.

Each simulated marketer is one Streamlit session over the WebSocket (rigs/streamlit_session.py: no
browser, so the two cores go to the servers). Through nginx it first GETs the page for its route cookie,
as a browser does, then browses: Domain overview → Trust Map → Keyword suggestions → Tracked keywords →
back to the overview, where it types the next domain, and round again, pausing about a second on each
page. Domains rotate over a handful, so sessions overlap on the same data (what the caches are for).

A page run is timed from the rerun request to the run's ``script_finished``; it is an error when it
shows an exception, ends otherwise than successfully or takes longer than 30 s. First a ramp on one
replica (5, 10, 20, 40 sessions) picks the largest count whose page-run p95 stays under 2 s with no
error; then, each on a fresh deployment (new processes, empty Redis, the sandbox's counter reset), that
many sessions browse one replica and then two replicas, both behind the shipped nginx config with
Redis. The sandbox (50 ms latency) counts every API request: calls per distinct (method, path, query)
must be 1.00 in each. Each replica has served one unrelated page before the load starts (imports done).

    .venv/bin/python -m bench.p5_load            # the full run (about 5 minutes)
    .venv/bin/python -m bench.p5_load --quick    # fewer, shorter steps, for development
    .venv/bin/python -m bench.p5_load --sessions 20   # no ramp: this many sessions
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from websockets.exceptions import WebSocketException

from bench.harness import Figures
from rigs.deployment import Front, nginx_front, redis_server, started_replicas
from rigs.processes import SandboxProcess, sandbox_process
from rigs.streamlit_session import PageRun, StreamlitSession, route_cookie
from sandbox.data import KNOWN_SITES, is_listed, is_map_cold

LATENCY_MS = 50
#: A marketer reads each page for about this long (0.5–1.5 ×) before the next click.
THINK_S = 1.0
RUN_TIMEOUT_S = 30.0
P95_BOUND_S = 2.0
RAMP = (5, 10, 20, 40)
STEP_S = 20.0
MEASURE_S = 60.0
#: Sessions start spread over this long, as people arrive, not all in the same millisecond.
ARRIVAL_S = 2.0
#: Six listed sites with a warm Trust Map: every session meets the others' data.
DOMAINS = tuple(d for d in sorted(KNOWN_SITES) if is_listed(d) and not is_map_cold(d))[:6]
WARM_UP_DOMAIN = next(d for d in sorted(KNOWN_SITES) if d not in DOMAINS and is_listed(d))
#: One round: (label, URL path, whether the domain is typed into the overview's Domain field first).
ROUND = (
    ("trust-map", "trust-map", False),
    ("keyword-suggestions", "keyword-suggestions", False),
    ("tracked-keywords", "tracked-keywords", False),
    ("overview", "", False),  # back to the overview: it shows the last domain until a new one is typed
    ("overview-typed", "", True),
)


@dataclass
class Load:
    """What one load step measured."""

    sessions: int
    seconds: float = 0.0
    client_cpu_s: float = 0.0
    runs: list[tuple[str, PageRun]] = field(default_factory=list)
    failed_opens: int = 0
    sessions_with_errors: set[int] = field(default_factory=set)

    def record(self, session: int, label: str, run: PageRun) -> None:
        run.elements.clear()  # thousands of runs: keep their times, not what they drew
        self.runs.append((label, run))
        if not run.ok:
            self.sessions_with_errors.add(session)

    @property
    def errors(self) -> int:
        return self.failed_opens + sum(not run.ok for _, run in self.runs)

    @property
    def held(self) -> int:
        return self.sessions - len(self.sessions_with_errors)

    def percentile(self, share: float, label: str | None = None) -> float:
        times = sorted(run.seconds for name, run in self.runs if label in (None, name))
        if not times:
            return float("nan")
        return times[min(len(times) - 1, round(share * (len(times) - 1)))]

    @property
    def runs_per_s(self) -> float:
        return len(self.runs) / self.seconds if self.seconds else 0.0


async def _marketer(index: int, base_url: str, deadline: float, load: Load) -> None:
    """One person browsing until ``deadline``: pages of one domain, then the next domain."""
    pause = random.Random(index)
    await asyncio.sleep(index * ARRIVAL_S / load.sessions)
    domains = DOMAINS[index % len(DOMAINS) :] + DOMAINS[: index % len(DOMAINS)]
    try:
        cookie = await asyncio.to_thread(route_cookie, base_url, "", f"domain={domains[0]}")
        session = await StreamlitSession.open(base_url, cookie=cookie)
    except (OSError, TimeoutError, WebSocketException):
        load.failed_opens += 1
        load.sessions_with_errors.add(index)
        return
    async with session:
        load.record(index, "overview", await session.run("", f"domain={domains[0]}", timeout_s=RUN_TIMEOUT_S))
        turn = 0
        while time.monotonic() < deadline and index not in load.sessions_with_errors:
            domain = domains[turn // len(ROUND) % len(domains)]
            label, page, typed = ROUND[turn % len(ROUND)]
            turn += 1
            if typed:  # the overview's field now takes the next domain
                domain = domains[turn // len(ROUND) % len(domains)]
            await asyncio.sleep(THINK_S * pause.uniform(0.5, 1.5))
            run = await session.run(
                page,
                f"domain={domain}",
                typed={"domain": domain} if typed else None,
                timeout_s=RUN_TIMEOUT_S,
            )
            load.record(index, label, run)


def run_load(base_url: str, sessions: int, seconds: float) -> Load:
    """``sessions`` marketers on ``base_url`` for ``seconds`` (runs under way at the end finish)."""
    load = Load(sessions)

    async def everyone() -> None:
        deadline = time.monotonic() + seconds
        await asyncio.gather(*(_marketer(i, base_url, deadline, load) for i in range(sessions)))

    started, cpu = time.monotonic(), time.process_time()
    asyncio.run(everyone())
    load.seconds, load.client_cpu_s = time.monotonic() - started, time.process_time() - cpu
    return load


def warm_up(url: str) -> None:
    """One page run on a fresh process, so the load does not time Python importing the app."""

    async def once() -> None:
        async with await StreamlitSession.open(url) as session:
            await session.run("", f"domain={WARM_UP_DOMAIN}", timeout_s=120)

    asyncio.run(once())


@contextlib.contextmanager
def deployment(sandbox: SandboxProcess, replicas: int) -> Iterator[Front]:
    """``replicas`` fresh app processes on an empty Redis behind the shipped nginx config.
    The sandbox's counter starts at zero when the block starts (after each process's warm-up)."""
    with tempfile.TemporaryDirectory(prefix="bench-p5-") as name:
        folder = Path(name)
        history = f"sqlite:///{folder / 'history.sqlite3'}"
        with redis_server(folder / "redis", shipped=True) as redis:
            env = {"DASHBOARD_REDIS_URL": redis.url}
            with started_replicas(sandbox.base_url, history, folder, replicas, env=env) as started:
                for replica in started:
                    warm_up(replica.url)
                redis.client().flushall()
                with nginx_front(folder / "nginx", [replica.port for replica in started]) as front:
                    sandbox.reset()
                    yield front


def calls_per_distinct(sandbox: SandboxProcess, name: str) -> tuple[int, int]:
    """The sandbox's counter since its reset: (calls, distinct requests); repeats are listed."""
    counts = sandbox.counts()
    for (method, path, query), count in sorted(counts.items()):
        if count > 1:
            print(f"  {name}: asked {count} times: {method} {path}{'?' + query if query else ''}")
    return sum(counts.values()), len(counts)


def spread(front: Front) -> str:
    """How many sessions (WebSockets, logged by nginx when they close) each app process held."""
    time.sleep(1)  # nginx writes a WebSocket's log line once both ends have closed
    streams = Counter(r.served_by for r in front.routes() if r.path.startswith("/_stcore/stream"))
    return ", ".join(f"{upstream}: {count}" for upstream, count in sorted(streams.items())) or "none logged"


def ramp(sandbox: SandboxProcess, steps: tuple[int, ...], step_s: float) -> int:
    """The largest session count of ``steps`` whose p95 stays under the bound with no error."""
    chosen = steps[0]
    with deployment(sandbox, 1) as front:
        for sessions in steps:
            load = run_load(front.url, sessions, step_s)
            p95, errors = load.percentile(0.95), load.errors
            print(
                f"ramp, one replica, {sessions} sessions: p50 {load.percentile(0.5):.3f} s, p95 {p95:.3f} s, "
                f"{errors} errors, {load.runs_per_s:.1f} page runs/s",
                flush=True,
            )
            if p95 > P95_BOUND_S or errors:
                break
            chosen = sessions
    return chosen


def report(figures: Figures, name: str, load: Load, one: Load | None) -> None:
    """One deployment's figures; ratios against the one-replica run when given."""

    def show(figure: str, value: float, unit: str, baseline: float | None) -> None:
        figures.show(f"p5_{name}_{figure}", value, unit, baseline=baseline, base="one replica")

    show("page_run_p50", load.percentile(0.5), "s", one.percentile(0.5) if one else None)
    show("page_run_p95", load.percentile(0.95), "s", one.percentile(0.95) if one else None)
    show("page_runs_per_s", load.runs_per_s, "runs/s", one.runs_per_s if one else None)
    show("errors", load.errors, "errors", None)
    show("sessions_held", load.held, f"of {load.sessions} sessions", None)
    show("client_cpu_share", load.client_cpu_s / load.seconds, "of one core (the load generator)", None)
    for label, *_ in ROUND:
        print(
            f"  {name} {label}: p50 {load.percentile(0.5, label):.3f} s, "
            f"p95 {load.percentile(0.95, label):.3f} s",
            flush=True,
        )
    outcomes = Counter(run.outcome for _, run in load.runs if not run.ok)
    if outcomes or load.failed_opens:
        print(f"  {name} errors: {dict(outcomes)}, sessions not opened: {load.failed_opens}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="short steps, a small ramp (development)")
    parser.add_argument("--sessions", type=int, help="no ramp: this many sessions")
    options = parser.parse_args()
    steps, step_s, measure_s = ((4, 8), 8.0, 15.0) if options.quick else (RAMP, STEP_S, MEASURE_S)
    figures = Figures()
    with sandbox_process(latency_ms=LATENCY_MS) as sandbox:
        sessions = options.sessions or ramp(sandbox, steps, step_s)
        figures.show("p5_sessions", sessions, f"sessions (p95 bound {P95_BOUND_S} s on one replica)")
        measured: dict[str, tuple[Load, int, int]] = {}
        for name, replicas in (("one_replica", 1), ("two_replicas", 2)):
            with deployment(sandbox, replicas) as front:
                load = run_load(front.url, sessions, measure_s)
                measured[name] = (load, *calls_per_distinct(sandbox, name))
                print(f"  {name}: sessions per app process {spread(front)}", flush=True)
        one, two = measured["one_replica"][0], measured["two_replicas"][0]
        report(figures, "one_replica", one, None)
        report(figures, "two_replicas", two, one)
        for name, (_, calls, distinct) in measured.items():
            ratio = calls / distinct
            figures.show(f"p5_{name}_calls_per_distinct_request", ratio, "calls", baseline=1.0, base="ideal")
        calls = sum(c for _, c, _ in measured.values())
        distinct = sum(d for _, _, d in measured.values())
        figures.show("p5_calls_per_distinct_request", calls / distinct, "calls", baseline=1.0, base="ideal")
        figures.target("P5 errors = 0", one.errors + two.errors == 0, f"{one.errors} + {two.errors}")
        detail = f"{calls} calls, {distinct} distinct"
        figures.target("P5 API calls per distinct request = 1.00", calls == distinct, detail)
        figures.target(
            f"P5 one replica p95 ≤ {P95_BOUND_S} s at {sessions} sessions",
            one.percentile(0.95) <= P95_BOUND_S,
            f"{one.percentile(0.95):.3f} s",
        )
        figures.target(
            "P5 two replicas no slower than one (p50 and p95)",
            two.percentile(0.5) <= one.percentile(0.5) and two.percentile(0.95) <= one.percentile(0.95),
            f"p50 {two.percentile(0.5):.3f} s vs {one.percentile(0.5):.3f} s, "
            f"p95 {two.percentile(0.95):.3f} s vs {one.percentile(0.95):.3f} s",
        )
    return figures.exit_code()


if __name__ == "__main__":
    sys.exit(main())
