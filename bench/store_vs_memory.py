"""What the History and Market page benchmarks share: pointing the app at a fresh store and an
in-process sandbox, and timing warm reruns of one view with the store against the same rows served
from memory, alternately, so both meet the same machine load."""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable

from streamlit.testing.v1 import AppTest

from bench.harness import DEMO_KEY, Figures
from components.core.history import store as history
from components.core.history.source import HistorySource


def timed(run: Callable[[], object]) -> float:
    started = time.perf_counter()
    run()
    return time.perf_counter() - started


def use_store_and_sandbox(database_url: str, sandbox_url: str) -> None:
    """The app (in this process) keeps history at ``database_url`` and reads the sandbox in Live mode."""
    os.environ.update(
        {
            "DASHBOARD_DATABASE_URL": database_url,
            "VERIFIEDDR_API_BASE": sandbox_url,
            "VERIFIEDDR_API_KEY": DEMO_KEY,
        }
    )


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
    with history.use_source(lambda conn: memory):
        in_memory = session()
    store_times, memory_times = [], []
    for _ in range(reruns):
        store_times.append(timed(stored.run))
        with history.use_source(lambda conn: memory):
            memory_times.append(timed(in_memory.run))
    store_s, memory_s = statistics.median(store_times), statistics.median(memory_times)
    figures.show(f"{name}, warm, store", store_s, "s", baseline=memory_s, base="in memory")
    ratio = store_s / memory_s
    figures.target(f"{name} ≤ {target} × in memory", ratio <= target, f"ratio {ratio:.2f}")
