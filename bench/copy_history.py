"""Moving house: ``python -m store copy`` of a generated history from SQLite into a real PostgreSQL server
started by the benchmark, its rows per second and the copying process's peak memory.

The history is ``bench.market_page``'s year of daily top 10s with more watched keywords (``--keywords``,
default 400: about 1.46 million top-10 rows and 146,000 keyword rows), recorded into a fresh SQLite file
through ``HistoryStore.snapshots.seed``. The copy runs as the operator runs it, in a process of its own,
into an empty PostgreSQL database; its peak resident memory is the kernel's count for that process
(its ``VmHWM``, read while it runs). The baseline, measured in the same run on the same file, is
reading every row of every table with Python's own ``sqlite3`` and nothing else: the floor any copy
out of SQLite stands on; the memory's is the peak of ``python -m store upgrade`` on the same file (a
command that loads the same code and moves no row).

Targets: the copy verified (exit code 0); its peak memory ≤ 500 MiB (the issue's bound for 18 million
rows: memory must not grow with the history, which the batch size bounds).

    .venv/bin/python -m bench.copy_history [--keywords 400]
"""

from __future__ import annotations

import argparse
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from datetime import UTC, datetime
from pathlib import Path
from unittest import mock

from bench import market_page
from bench.harness import Figures
from rigs.processes import ROOT

MEMORY_TARGET_MIB = 500


def fill(url: str, keywords: int) -> int:
    """A year of ``keywords`` watched keywords' top 10s in the store at ``url``; rows written."""
    from store import HistoryStore

    with HistoryStore.open(url) as store, mock.patch.object(market_page, "KEYWORDS", keywords):
        store.watchlist.watch(market_page.ACCOUNT, "domain", market_page.SITE, origin="own")
        for k in range(keywords):
            store.watchlist.watch(market_page.ACCOUNT, "keyword", f"keyword {k:03d}", site=market_page.SITE)
        today = datetime.now(UTC).date()
        return store.snapshots.seed(
            market_page.ACCOUNT, keyword_reports=market_page._reports(today), source="job"
        )


def read_floor(path: Path) -> tuple[int, float]:
    """Every row of every table of the history read with ``sqlite3`` alone: rows, seconds."""
    from store.bulk import history_tables

    started = time.perf_counter()
    rows = 0
    with sqlite3.connect(path) as conn:
        for name in (table.name for table in history_tables()):
            cursor = conn.execute(f'SELECT * FROM "{name}"')  # noqa: S608  # the file's own table names
            while batch := cursor.fetchmany(5_000):
                rows += len(batch)
    return rows, time.perf_counter() - started


def command(*args: str) -> tuple[int, float, float, str]:
    """``python -m store <args>`` in its own process: exit code, seconds, peak memory (MiB), its stdout."""
    started = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", "store", *args],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=None,  # the progress lines show as it goes
        text=True,
    )
    assert process.stdout is not None
    peak_kib = [0]
    watcher = threading.Thread(target=_watch_peak, args=(process, peak_kib), daemon=True)
    watcher.start()
    out = process.stdout.read()
    process.wait()
    watcher.join()
    return process.returncode, time.perf_counter() - started, peak_kib[0] / 1024, out


def _watch_peak(process: subprocess.Popen[str], peak_kib: list[int]) -> None:
    """The process's own peak resident memory (``VmHWM``, its address space's high-water mark, which
    starts at the ``exec``: the forking benchmark's own memory is not counted), read until it ends."""
    status = Path(f"/proc/{process.pid}/status")
    while process.poll() is None:
        try:
            for line in status.read_text().splitlines():
                if line.startswith("VmHWM:"):
                    peak_kib[0] = max(peak_kib[0], int(line.split()[1]))
        except (OSError, ValueError):
            pass
        time.sleep(0.05)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keywords", type=int, default=400)
    args = parser.parse_args(argv)
    from rigs.postgres import running_postgres

    figures = Figures()
    with tempfile.TemporaryDirectory() as folder, running_postgres() as server:
        path = Path(folder) / "history.sqlite3"
        started = time.perf_counter()
        written = fill(f"sqlite:///{path}", args.keywords)
        print(f"recorded {written:,} rows in {time.perf_counter() - started:.1f} s", flush=True)
        rows, floor_s = read_floor(path)
        _code, _s, idle_mib, _out = command("upgrade", "--database-url", f"sqlite:///{path}")
        source, target = f"sqlite:///{path}", server.create_database("moved")
        code, copy_s, peak_mib, out = command("copy", "--database-url", source, "--to", target)
        print(out.strip(), flush=True)
        figures.show("rows in the history", rows, "rows")
        figures.show(
            "copy SQLite → PostgreSQL", copy_s, "s", baseline=floor_s, base="reading every row alone"
        )
        figures.show("copy rate", rows / copy_s, "rows/s", baseline=rows / floor_s, base="read rate")
        figures.show(
            "copy process peak memory (RSS)",
            peak_mib,
            "MiB",
            baseline=idle_mib,
            base="`upgrade` of the same file",
        )
        figures.target("the copy is verified by every table's row count", code == 0, f"exit code {code}")
        figures.target(
            f"peak memory ≤ {MEMORY_TARGET_MIB} MiB", peak_mib <= MEMORY_TARGET_MIB, f"{peak_mib:.0f} MiB"
        )
    return figures.exit_code()


if __name__ == "__main__":
    sys.exit(main())
