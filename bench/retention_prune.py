"""Retention: what thinning a year of daily top 10s to one day a week before the last 90 days costs, and
what it saves the reads of a year.

A year of daily top 10s for 200 watched keywords (730,000 result rows) is written into a fresh SQLite
store; then, in one run: the dry run (its plan), the prune (rows removed per second, in transactions of
5,000 rows), a second prune (nothing to remove), and reading the year's top 10s as the Market page does
(``store.queries.serp_history``) before and after, as a ratio.

Targets: the second prune removes nothing; after the prune, reading the year takes at most half the time
it took before (about 365 days become 90 + 40 weekly ones).

    .venv/bin/python -m bench.retention_prune [--keywords 200]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

from sqlalchemy import insert

from bench.harness import Figures
from store import HistoryStore
from store.models import SerpResultRow
from store.retention import daily_from

DAYS = 365
KEEP = 90
ACCOUNT = "bench-account"
SITE = "example.com"
TODAY = date(2026, 6, 30)
AT = datetime(2026, 6, 30, tzinfo=UTC)


def _rows(keywords: int, day: date) -> Iterator[dict[str, object]]:
    for k in range(keywords):
        for position in range(1, 11):
            domain = f"rival-{(k * 13 + position * 29 + day.toordinal() // 20) % 400:03d}.com"
            yield {
                "account": ACCOUNT,
                "site": SITE,
                "keyword": f"keyword {k:03d}",
                "day": day,
                "position": position,
                "domain": domain,
                "dr": 20 + position * 5,
                "source": "bench",
                "recorded_at": AT,
            }


def _read_year(store: HistoryStore) -> float:
    started = time.perf_counter()
    store.queries.serp_history(ACCOUNT, SITE, since=TODAY - timedelta(days=DAYS - 1))
    return time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--keywords", type=int, default=200)
    args = parser.parse_args(argv)
    figures = Figures()
    with tempfile.TemporaryDirectory() as folder:
        with HistoryStore.open(f"sqlite:///{Path(folder) / 'history.sqlite3'}") as store:
            # Rows inserted directly: their months' partitions first (nothing to make on SQLite).
            store.partitions.ensure(TODAY - timedelta(back) for back in range(DAYS))
            with store.engine.begin() as conn:
                for back in range(DAYS):
                    conn.execute(
                        insert(SerpResultRow.__table__), list(_rows(args.keywords, TODAY - timedelta(back)))
                    )
            before = min(_read_year(store) for _ in range(3))
            first_daily = daily_from(TODAY, KEEP)
            started = time.perf_counter()
            plan = store.retention.prune(first_daily, dry_run=True)
            figures.show("dry run (plan)", time.perf_counter() - started, "s")
            started = time.perf_counter()
            store.retention.prune(first_daily)
            took = time.perf_counter() - started
            figures.show("prune", took, "s")
            figures.show("rows removed", plan.rows, "rows")
            figures.show("rows removed per second", plan.rows / took, "rows/s")
            started = time.perf_counter()
            again = store.retention.prune(first_daily)
            figures.show("second prune", time.perf_counter() - started, "s")
            figures.target("second prune removes nothing", again.rows == 0, f"{again.rows} rows")
            after = min(_read_year(store) for _ in range(3))
            figures.show("reading a year of top 10s after", after, "s", baseline=before, base="before")
            figures.target("a year's read at most half as long", after <= before / 2, f"{after / before:.2f}")
    return figures.exit_code()


if __name__ == "__main__":
    sys.exit(main())
