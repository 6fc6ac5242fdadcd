"""The daily history job at agency size: 5,000 watched keywords read at a 20 requests/s limit, against
the floor the limit allows.

5,000 keywords watched for one of the demo key's own sites go through ``python -m store snapshot``'s
``record_snapshot`` (its runner, its pacer learning the unpublished limit, its progress lines) against a
sandbox process with 50 ms latency and a 20 requests/s per-key limit, into a fresh SQLite file. The job
asks the site list, each own site's lookup, Trust Map and tracked keywords, and each keyword's report;
the floor is what the limit allows at best: calls / 20 s. Targets: wall time ≤ 1.15 × floor; the time
outside the reads (before the first request starts and after the last answer lands: planning, the
alerts after the day, the last recordings) ≤ 10 % of the job's; nothing failed; every keyword recorded
once. The recording's own time is shown too: it runs while the next reads are in flight.

    .venv/bin/python -m bench.snapshot_job_at_size [--keywords 5000]   # about 5 minutes at 20 req/s
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import threading
import time
from datetime import date
from functools import partial
from pathlib import Path
from typing import Any

from bench.harness import Figures
from client import ApiClient
from client.settings import key_fingerprint
from rigs.processes import DEMO_KEY, sandbox_process
from sandbox.accounts import ACCOUNTS
from services.cli import Lines, record_snapshot
from store import HistoryStore
from store.recording import Snapshots

OWN_SITES = ACCOUNTS[DEMO_KEY].sites
SITE = "example.com"
LATENCY_MS = 50
RATE_LIMIT = 20
QUOTA = 1_000_000
TARGET = 1.15
OUTSIDE_TARGET = 0.10
DAY = date(2025, 1, 6)
ACCOUNT = key_fingerprint(DEMO_KEY)


class ReadClock:
    """When the first request of the run started and the last answer landed (any thread), and how long
    the recording took in all."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.first_start = float("inf")
        self.last_end = 0.0
        self.recording_s = 0.0

    def wrap_client(self) -> Any:
        send = ApiClient._send
        clock = self

        def timed(client: ApiClient, *args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            with clock.lock:
                clock.first_start = min(clock.first_start, started)
            try:
                return send(client, *args, **kwargs)
            finally:
                ended = time.perf_counter()
                with clock.lock:
                    clock.last_end = max(clock.last_end, ended)

        return timed

    def wrap_recording(self) -> Any:
        record = Snapshots.record_read
        clock = self

        def timed(snapshots: Snapshots, *args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return record(snapshots, *args, **kwargs)
            finally:
                clock.recording_s += time.perf_counter() - started

        return timed


def _say(said: list[str], line: str) -> None:
    said.append(line)
    print(line, file=sys.stderr, flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keywords", type=int, default=5000)
    keywords = [f"agency bench keyword {i}" for i in range(parser.parse_args().keywords)]
    calls = 1 + 3 * len(OWN_SITES) + len(keywords)
    floor_s = calls / RATE_LIMIT
    figures = Figures()
    clock = ReadClock()
    said: list[str] = []
    out: list[str] = []
    with tempfile.TemporaryDirectory(prefix="bench-job-size-") as folder:
        url = f"sqlite:///{Path(folder) / 'history.sqlite3'}"
        with HistoryStore.open(url) as store:
            store.watchlist.watch_many(ACCOUNT, [("keyword", keyword, SITE) for keyword in keywords])
        with sandbox_process(latency_ms=LATENCY_MS, rate_limit=RATE_LIMIT, quota=QUOTA) as sandbox:
            ApiClient._send = clock.wrap_client()  # type: ignore[method-assign]
            Snapshots.record_read = clock.wrap_recording()  # type: ignore[method-assign]
            with HistoryStore.open(url) as store:
                started = time.perf_counter()
                code = record_snapshot(
                    store,
                    sandbox.base_url,
                    DEMO_KEY,
                    DAY,
                    timeout_s=30,
                    lines=Lines(partial(_say, said), out.append),
                )
                wall = time.perf_counter() - started
                history = store.queries.keyword_history(ACCOUNT, SITE)
            served = sandbox.counts()
    recorded = history.groupby("keyword").size()
    asked = [n for (_m, path, _q), n in served.items() if path.endswith("/keywords") and n]
    outside = wall - (clock.last_end - clock.first_start)
    progress_lines = sum(1 for line in said if line.startswith("progress: "))
    figures.show("snapshot_size_keywords", len(keywords), "keywords")
    figures.show("snapshot_size_calls_planned", calls, "calls")
    figures.show("snapshot_size_floor", floor_s, "s")
    figures.show("snapshot_size_wall", wall, "s", baseline=floor_s, base="floor")
    figures.show("snapshot_size_outside_reads", outside, "s", baseline=wall, base="wall")
    figures.show("snapshot_size_recording", clock.recording_s, "s", baseline=wall, base="wall")
    figures.show("snapshot_size_requests_served", sum(served.values()), "requests")
    figures.show("snapshot_size_keyword_requests", sum(asked), "requests")
    figures.show("snapshot_size_most_asks_of_one_keyword", max(asked, default=0), "requests")
    figures.show("snapshot_size_progress_lines", progress_lines, "lines")
    figures.show("snapshot_size_stderr_lines", len(said), "lines")
    print(f"tally: {out[-1] if out else '(none)'}; exit {code}", flush=True)
    figures.target(f"job ≤ {TARGET} × floor", wall <= TARGET * floor_s, f"{wall:.1f} s vs {floor_s:.1f} s")
    figures.target(
        f"outside the reads ≤ {OUTSIDE_TARGET:.0%} of the job",
        outside <= OUTSIDE_TARGET * wall,
        f"{outside:.2f} s of {wall:.1f} s",
    )
    figures.target("nothing failed", code == 0, f"exit {code}")
    every_once = len(recorded) == len(keywords) and bool((recorded == 1).all())
    figures.target("every keyword recorded once", every_once, f"{len(recorded)} of {len(keywords)}")
    return figures.exit_code()


if __name__ == "__main__":
    sys.exit(main())
