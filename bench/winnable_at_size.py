"""When winnable and the Market page's notes at agency size: what their reads hold in memory, and how
long they take, computed at the database against the same answers from every top-10 row read into pandas
(the way they were read before), in the same run on the same database.

A fresh database (PostgreSQL the benchmark starts, or an SQLite file) gets a year of daily top 10s of
``N`` keywords watched for your site (``bench.market_scale.fill``). Then, each measured alone with its
peak of Python-allocated memory (``tracemalloc``, which sees pandas' and NumPy's arrays too):
- the **DR series** When winnable fits: each keyword's median and lowest top-10 DR by day without your
  site's own result, over the whole history: ``services.market.site_top10_drs`` against
  ``top10_dr_by_keyword`` over ``serp_history`` (the baseline);
- the **keywords** with a top 10 in the last 365 days (the notes' list, When winnable's pairs):
  ``services.market.group_keywords`` against the keywords of ``serp_history`` of the period.
Both answers are checked equal before any figure is printed.

Target: each read's peak memory ≤ 0.25 × its baseline's at the largest size.

    .venv/bin/python -m bench.winnable_at_size --database postgresql --keywords 1000
    .venv/bin/python -m bench.winnable_at_size --database sqlite --keywords 200
"""

from __future__ import annotations

import argparse
import sys
import time
import tracemalloc
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import TypeVar

import pandas as pd

from bench.harness import Figures
from bench.market_page import ACCOUNT, SITE
from bench.market_scale import DAYS, databases, fill

T = TypeVar("T")
TARGET = 0.25


def measured(read: Callable[[], T]) -> tuple[T, float, float]:
    """``read()``'s answer, its seconds (read alone) and its peak of Python-allocated memory in MB (read
    again under ``tracemalloc``, which slows it)."""
    started = time.perf_counter()
    answer = read()
    seconds = time.perf_counter() - started
    del answer
    tracemalloc.start()
    try:
        answer = read()
        peak = tracemalloc.get_traced_memory()[1] / 1e6
    finally:
        tracemalloc.stop()
    return answer, seconds, peak


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", choices=("postgresql", "sqlite"), default="postgresql")
    parser.add_argument("--keywords", type=int, default=1000)
    args = parser.parse_args(argv)

    from analysis.market import ALL
    from analysis.opportunities.series import top10_dr_by_keyword
    from services.market import group_keywords, site_top10_drs
    from store import HistoryStore

    figures = Figures()
    today = datetime.now(UTC).date()
    since = today - timedelta(days=DAYS - 1)
    with databases(args.database) as new_database:
        url = new_database(f"winnable{args.keywords}")
        started = time.perf_counter()
        rows = fill(url, args.keywords, DAYS, today)
        print(
            f"{args.keywords} keywords: {rows:,} top-10 rows written in {time.perf_counter() - started:.0f} s"
        )
        with HistoryStore.open(url) as store:
            store.market.pairs(ACCOUNT, SITE, since, None)  # the connection pool and the caches warm
            in_memory, memory_s, memory_mb = measured(
                lambda: top10_dr_by_keyword(store.queries.serp_history(ACCOUNT, SITE), SITE)
            )
            at_database, database_s, database_mb = measured(
                lambda: site_top10_drs(store, ACCOUNT, SITE, excluding=SITE)
            )
            assert sorted(in_memory) == sorted(at_database)
            for keyword, series in in_memory.items():
                pd.testing.assert_frame_equal(at_database[keyword], series, check_exact=False, atol=1e-9)
            listed, list_memory_s, list_memory_mb = measured(
                lambda: sorted(set(store.queries.serp_history(ACCOUNT, SITE, since)["keyword"]))
            )
            walked, walked_s, walked_mb = measured(
                lambda: group_keywords(store, ACCOUNT, SITE, since=since, until=None, group=ALL)
            )
            assert listed == walked
    name = f"{args.database}, {args.keywords} keywords × {DAYS} days"
    figures.show(
        f"{name}, DR series at the database, peak memory",
        database_mb,
        "MB",
        baseline=memory_mb,
        base="rows in memory",
    )
    figures.show(
        f"{name}, DR series at the database, time", database_s, "s", baseline=memory_s, base="rows in memory"
    )
    figures.show(
        f"{name}, keywords down the index, peak memory",
        walked_mb,
        "MB",
        baseline=list_memory_mb,
        base="rows in memory",
    )
    figures.show(
        f"{name}, keywords down the index, time", walked_s, "s", baseline=list_memory_s, base="rows in memory"
    )
    for what, mine, base in (("DR series", database_mb, memory_mb), ("keywords", walked_mb, list_memory_mb)):
        figures.target(
            f"{what}: peak memory ≤ {TARGET} × the rows in memory",
            mine <= TARGET * base,
            f"ratio {mine / base:.3f}",
        )
    return figures.exit_code()


if __name__ == "__main__":
    sys.exit(main())
