"""Market page at agency size: its first view of 365 days at 200 keywords against the same view at more
keywords, on a real PostgreSQL (or SQLite) the benchmark starts and fills, with where the time goes.

For each size a fresh database gets a year of daily top 10s of ``N`` keywords watched for your site
(``bench.market_page``'s generator: some 400 domains that come and go, your site climbing in and out,
about one DR in 17 unresolved, a known search volume per keyword), written in bulk (plain inserts; the
daily job's upserts would take longer to fill and are not what is measured). The app in this process
(AppTest, Live mode, in-process sandbox) opens the Market page on 365 days once on a small warm-up
database (imports, the sandbox's first answers), then once per size: the first view (every read cold:
each size is its own database, so its own query cache), then a warm rerun. ``--profile`` prints where
each first view's time went (pyinstrument).

Target: the first view at the largest size ≤ 1.5 × the first view at 200 keywords, in the same run.

    .venv/bin/python -m bench.market_scale --database postgresql --keywords 200 1000 [--profile]
    .venv/bin/python -m bench.market_scale --database sqlite --keywords 200
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

from pyinstrument import Profiler
from streamlit.testing.v1 import AppTest

from bench.harness import Figures
from bench.market_page import ACCOUNT, SITE, top10_of_day
from bench.profile_page import _profiling_scripts
from rigs.processes import DEMO_KEY, ROOT

DAYS = 365
TARGET = 1.5
BATCH = 20_000
WARM_UP = (5, 30)  # keywords, days of the warm-up database


def fill(url: str, keywords: int, days: int, today: date) -> int:
    """A year of ``keywords`` watched for ``SITE`` into the store at ``url``; the top-10 rows written."""
    from sqlalchemy import insert

    from store import HistoryStore
    from store.models import KeywordSnapshotRow, SerpResultRow

    serps_table, keywords_table = SerpResultRow.__table__, KeywordSnapshotRow.__table__
    now = datetime.now(UTC)
    written = 0
    with HistoryStore.open(url) as store:
        store.watchlist.watch(ACCOUNT, "domain", SITE, origin="own")
        for competitor in ("rival-001.com", "rival-002.com"):
            store.watchlist.watch(ACCOUNT, "domain", competitor)
        for k in range(keywords):
            store.watchlist.watch(ACCOUNT, "keyword", f"keyword {k:04d}", site=SITE)
            if k % 4 == 0:
                store.groups.set_keyword_tags(ACCOUNT, f"keyword {k:04d}", ["pricing"])
        # The rows go in directly, not through the store: their months' partitions first (PostgreSQL).
        store.partitions.ensure(today - timedelta(days=back) for back in range(days))
        serp_rows: list[dict[str, Any]] = []
        keyword_rows: list[dict[str, Any]] = []

        def flush() -> None:
            with store.engine.begin() as conn:
                if serp_rows:
                    conn.execute(insert(serps_table), serp_rows)
                if keyword_rows:
                    conn.execute(insert(keywords_table), keyword_rows)
            serp_rows.clear()
            keyword_rows.clear()

        for k in range(keywords):
            keyword = f"keyword {k:04d}"
            for back in range(days):
                day, n = today - timedelta(days=back), DAYS - back
                stamp = {"account": ACCOUNT, "site": SITE, "keyword": keyword, "day": day}
                results = top10_of_day(k, n)
                mine = next((p for p, d, _dr in results if d == SITE), None)
                keyword_rows.append(
                    stamp
                    | {
                        "position": mine,
                        "previous_position": None,
                        "median_dr": 50.0,
                        "min_dr": 20.0,
                        "user_dr": 45,
                        "gap": 5.0,
                        "tier": "advanced",
                        "impressions": None,
                        "search_volume": 100 + (k * 37) % 5000,
                        "source": "job",
                        "recorded_at": now,
                    }
                )
                serp_rows.extend(
                    stamp | {"position": p, "domain": d, "dr": dr, "source": "job", "recorded_at": now}
                    for p, d, dr in results
                )
                written += len(results)
            if len(serp_rows) >= BATCH:
                flush()
        flush()
    return written


@contextlib.contextmanager
def databases(kind: str) -> Iterator[Callable[[str], str]]:
    """A maker of fresh empty databases by name (their URLs), on a PostgreSQL server started for the run
    or as SQLite files in a temporary folder."""
    with tempfile.TemporaryDirectory() as folder:
        if kind == "sqlite":
            yield lambda name: f"sqlite:///{Path(folder) / f'{name}.sqlite3'}"
            return
        from rigs.postgres import running_postgres

        with running_postgres() as server:
            yield server.create_database


def first_view(url: str, profile: bool) -> tuple[float, float, Profiler | None]:
    """Seconds of the Market page's first view of 365 days on the store at ``url``, of a warm rerun, and
    the first view's profile when asked."""
    os.environ["DASHBOARD_DATABASE_URL"] = url
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=900)
    at.query_params["market_period"] = "365 days"
    at.switch_page("views/market.py")
    profiler = Profiler(interval=0.001) if profile else None
    with _profiling_scripts(profiler) if profiler else contextlib.nullcontext():
        started = time.perf_counter()
        at.run()
        first = time.perf_counter() - started
    if at.exception:
        raise RuntimeError(f"the Market page raised: {[e.value for e in at.exception]}")
    started = time.perf_counter()
    at.run()
    return first, time.perf_counter() - started, profiler


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", choices=("postgresql", "sqlite"), default="postgresql")
    parser.add_argument("--keywords", type=int, nargs="+", default=[200, 1000])
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--tree", type=int, default=70, help="lines of each profile to print")
    args = parser.parse_args(argv)

    from sandbox import SandboxServer

    figures = Figures()
    today = datetime.now(UTC).date()
    firsts: dict[int, float] = {}
    with databases(args.database) as new_database, SandboxServer(host="127.0.0.1", port=0) as sandbox:
        os.environ.update(VERIFIEDDR_API_BASE=sandbox.base_url, VERIFIEDDR_API_KEY=DEMO_KEY)
        warm_up = new_database("warmup")
        fill(warm_up, *WARM_UP, today)
        first_view(warm_up, profile=False)
        for keywords in args.keywords:
            url = new_database(f"market{keywords}")
            started = time.perf_counter()
            rows = fill(url, keywords, DAYS, today)
            print(
                f"{keywords} keywords: {rows:,} top-10 rows written in {time.perf_counter() - started:.0f} s"
            )
            first, warm, profiler = first_view(url, args.profile)
            firsts[keywords] = first
            smallest = firsts[min(firsts)]
            base = f"{min(firsts)} keywords"
            figures.show(
                f"{args.database}, {keywords} keywords, first view", first, "s", baseline=smallest, base=base
            )
            figures.show(f"{args.database}, {keywords} keywords, warm rerun", warm, "s")
            if profiler is not None:
                text = profiler.output_text(unicode=True, color=False, show_all=False)
                print("\n".join(text.splitlines()[: args.tree]), flush=True)
    if len(firsts) > 1:
        largest, smallest_n = max(firsts), min(firsts)
        ratio = firsts[largest] / firsts[smallest_n]
        figures.target(
            f"first view at {largest} keywords ≤ {TARGET} × at {smallest_n}",
            ratio <= TARGET,
            f"ratio {ratio:.2f}",
        )
    return figures.exit_code()


if __name__ == "__main__":
    sys.exit(main())
