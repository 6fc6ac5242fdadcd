"""History page's Keyword positions tab at agency size: its first view of 365 days at 200 tracked keywords
against the same view at more keywords, on a real PostgreSQL (or SQLite) the benchmark starts and fills.

For each size a fresh database gets a year of daily positions of ``N`` keywords tracked for your site
(positions from ``bench.market_page``'s generator: your site climbing in and out of the top 10), written
in bulk (plain inserts, marking their days written as the job's writes do), up to yesterday. Then
the benchmark lives the real day: the tab is opened once on yesterday's history (the keyword months it
keeps are tallied then), today's positions are recorded as the daily job records them, and the app's
answers are dropped. The app in this process (AppTest, Live mode, in-process sandbox) opens the tab on
365 days once on a small warm-up database (imports, the sandbox's first answers), then once per size:
the first view after the job (every read cold: each size is its own database, so its own query cache),
then a warm rerun.

Target: the first view at the largest size ≤ 1.5 × the first view at 200 keywords, in the same run.

    .venv/bin/python -m bench.history_keywords_scale --database postgresql --keywords 200 5000
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from datetime import UTC, date, datetime, timedelta
from typing import Any

from streamlit.testing.v1 import AppTest

from bench.harness import Figures
from bench.market_page import ACCOUNT, SITE, top10_of_day
from bench.market_scale import databases
from rigs.processes import DEMO_KEY, ROOT

DAYS = 365
BATCH = 20_000
TARGET = 1.5
SITE_SLUG = SITE.replace(".", "-")  # the demo key's first site, whose tracked keywords the tab opens on
WARM_UP = (5, 30)  # keywords, days of the warm-up database


def fill(url: str, keywords: int, days: int, today: date) -> int:
    """``days`` of ``keywords`` tracked for your site into the store at ``url``; the rows written."""
    from sqlalchemy import insert

    from store import HistoryStore
    from store.models import KeywordSnapshotRow
    from store.rollups.tables import bump_keyword_days

    table, now, written = KeywordSnapshotRow.__table__, datetime.now(UTC), 0
    with HistoryStore.open(url) as store:
        store.watchlist.watch(ACCOUNT, "domain", SITE, origin="own")
        # The rows go in directly, not through the store: their months' partitions first (PostgreSQL).
        store.partitions.ensure(today - timedelta(days=back) for back in range(days))
        rows: list[dict[str, Any]] = []
        for k in range(keywords):
            for back in range(days):
                day, n = today - timedelta(days=back), DAYS - back
                mine = next((p for p, domain, _dr in top10_of_day(k, n) if domain == SITE), None)
                place = mine if mine is not None else (None if (k + n) % 3 else 11 + (k + n) % 40)
                rows.append(
                    {
                        "account": ACCOUNT,
                        "site": SITE_SLUG,
                        "keyword": f"keyword {k:04d}",
                        "day": day,
                        "position": place,
                        "previous_position": None,
                        "median_dr": 50.0 + k % 7,
                        "min_dr": 20.0,
                        "user_dr": 45,
                        "gap": 5.0 + k % 7,
                        "tier": "advanced",
                        "impressions": 10 * k,
                        "search_volume": 100 + (k * 37) % 5000,
                        "source": "job",
                        "recorded_at": now,
                    }
                )
            if len(rows) >= BATCH or k == keywords - 1:
                with store.engine.begin() as conn:
                    conn.execute(insert(table), rows)
                    bump_keyword_days(conn, ACCOUNT, {row["day"] for row in rows})  # as the job's writes do
                written += len(rows)
                rows.clear()
    return written


def live_the_day(url: str, keywords: int, today: date) -> None:
    """Yesterday's tab opened once, today's positions recorded as the daily job records them, the app's
    answers dropped: the morning of a year of use (what the page keeps in the database, it kept then)."""
    from bench.market_scale import drop_cached_answers
    from bench.top10_fill import tracked_of_day
    from store import HistoryStore

    yesterday, _warm = first_view(url)
    started = time.perf_counter()
    with HistoryStore.open(url) as store:
        today_rows = tracked_of_day(keywords, DAYS + 1)
        store.snapshots.record_read(ACCOUNT, "tracked_keywords", SITE_SLUG, today_rows, today, "job")
    recorded = time.perf_counter() - started
    drop_cached_answers(url)
    print(
        f"{keywords} keywords: yesterday's tab opened in {yesterday:.1f} s; today's positions recorded "
        f"as the job does in {recorded:.1f} s",
        flush=True,
    )


def first_view(url: str) -> tuple[float, float]:
    """Seconds of the tab's first view of 365 days on the store at ``url``, and of a warm rerun."""
    os.environ["DASHBOARD_DATABASE_URL"] = url
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=900)
    at.query_params["history_tab"] = "Keyword positions"
    at.query_params["history_kw_period"] = "365 days"
    at.switch_page("views/history.py")
    started = time.perf_counter()
    at.run()
    first = time.perf_counter() - started
    if at.exception:
        raise RuntimeError(f"the History page raised: {[e.value for e in at.exception]}")
    if not any(str(metric.label) == "Keywords" for metric in at.metric):
        raise RuntimeError("the Keyword positions tab showed no keywords")
    started = time.perf_counter()
    at.run()
    return first, time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", choices=("postgresql", "sqlite"), default="postgresql")
    parser.add_argument("--keywords", type=int, nargs="+", default=[200, 1000])
    args = parser.parse_args(argv)

    from sandbox import SandboxServer

    figures = Figures()
    today = datetime.now(UTC).date()
    firsts: dict[int, float] = {}
    with databases(args.database) as new_database, SandboxServer(host="127.0.0.1", port=0) as sandbox:
        os.environ.update(VERIFIEDDR_API_BASE=sandbox.base_url, VERIFIEDDR_API_KEY=DEMO_KEY)
        warm_up = new_database("warmup")
        fill(warm_up, *WARM_UP, today)
        first_view(warm_up)
        for keywords in args.keywords:
            url = new_database(f"history{keywords}")
            started = time.perf_counter()
            rows = fill(url, keywords, DAYS, today - timedelta(days=1))
            print(
                f"{keywords} keywords: {rows:,} keyword rows written in {time.perf_counter() - started:.0f} s"
            )
            live_the_day(url, keywords, today)
            first, warm = first_view(url)
            firsts[keywords] = first
            base = f"{min(firsts)} keywords"
            figures.show(
                f"{args.database}, {keywords} keywords, first view",
                first,
                "s",
                baseline=firsts[min(firsts)],
                base=base,
            )
            figures.show(f"{args.database}, {keywords} keywords, warm rerun", warm, "s")
    if len(firsts) > 1:
        largest, smallest = max(firsts), min(firsts)
        ratio = firsts[largest] / firsts[smallest]
        figures.target(
            f"first view at {largest} keywords ≤ {TARGET} × at {smallest}",
            ratio <= TARGET,
            f"ratio {ratio:.2f}",
        )
    return figures.exit_code()


if __name__ == "__main__":
    sys.exit(main())
