"""What the History and Market page benchmarks share: pointing the app at a fresh store and an
in-process sandbox, and timing warm reruns of one view with the store against the same rows served
from memory (``pages_reading``), alternately, so both meet the same machine load."""

from __future__ import annotations

import contextlib
import os
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator
from datetime import UTC, date, datetime
from pathlib import Path
from unittest import mock

from streamlit.testing.v1 import AppTest

from bench.harness import Figures
from components.core.history import store as history
from components.core.history.source import HistorySource
from rigs.frame_source import FrameSource
from rigs.processes import DEMO_KEY


def timed(run: Callable[[], object]) -> float:
    started = time.perf_counter()
    run()
    return time.perf_counter() - started


@contextlib.contextmanager
def filled_store(
    fill: Callable[[str, date], FrameSource], recorded: Callable[[FrameSource], str]
) -> Iterator[tuple[str, FrameSource]]:
    """While the block runs, the app (in this process) keeps history in a fresh SQLite store and reads an
    in-process sandbox in Live mode; ``fill`` records a year up to today in it. Yields the store's URL and
    the same rows in memory, after printing what was recorded (``recorded``) and how long that took."""
    from sandbox import SandboxServer

    with tempfile.TemporaryDirectory() as folder, SandboxServer(host="127.0.0.1", port=0) as sandbox:
        url = f"sqlite:///{Path(folder) / 'history.sqlite3'}"
        os.environ.update(
            {
                "DASHBOARD_DATABASE_URL": url,
                "VERIFIEDDR_API_BASE": sandbox.base_url,
                "VERIFIEDDR_API_KEY": DEMO_KEY,
            }
        )
        started = time.perf_counter()
        memory = fill(url, datetime.now(UTC).date())
        print(f"recorded {recorded(memory)} in {time.perf_counter() - started:.1f} s", flush=True)
        yield url, memory


@contextlib.contextmanager
def pages_reading(memory: HistorySource) -> Iterator[mock.Mock]:
    """While the block runs, the History-section pages this process runs (in AppTest) read their rows from
    ``memory`` instead of the store: ``history.page_source``, the one call they read rows through, answers
    ``memory`` (the mock it yields says whether a page asked it)."""
    with mock.patch.object(history, "page_source", side_effect=lambda conn: memory) as page_source:
        yield page_source


def compare_warm(
    figures: Figures,
    name: str,
    session: Callable[[], AppTest],
    memory: HistorySource,
    *,
    reruns: int,
    target: float,
) -> None:
    """One view opened twice (store, memory), rerun alternately; the medians and the target ratio."""
    stored = session()
    with pages_reading(memory) as page_source:
        in_memory = session()
    if not page_source.called:
        raise RuntimeError(f"{name}: the page never asked history.page_source, so it never read from memory")
    store_times, memory_times = [], []
    for _ in range(reruns):
        store_times.append(timed(stored.run))
        with pages_reading(memory):
            memory_times.append(timed(in_memory.run))
    store_s, memory_s = statistics.median(store_times), statistics.median(memory_times)
    figures.show(f"{name}, warm, store", store_s, "s", baseline=memory_s, base="in memory")
    ratio = store_s / memory_s
    figures.target(f"{name} ≤ {target} × in memory", ratio <= target, f"ratio {ratio:.2f}")
