"""The agency-size benchmark's fast fill (``bench.top10_fill``: COPY on PostgreSQL, bulk inserts on
SQLite) writes exactly what the daily job would have recorded for those days: the job, recording a
filled day again, finds nothing to change; and the day after, recorded the job's way, reads back beside
them. Otherwise the Market benchmark would time the page on rows the app never writes."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bench.market_page import ACCOUNT, SITE, top10_of_day
from bench.top10_fill import SITE_SLUG, fill, keyword_name, record_day, report_of_day, tracked_of_day
from store import HistoryStore

KEYWORDS, DAYS = 3, 4


def test_a_filled_day_is_what_the_job_records_and_the_next_day_follows(store_url: str) -> None:
    today = datetime.now(UTC).date()
    yesterday = today - timedelta(days=1)
    filled = fill(store_url, KEYWORDS, DAYS, yesterday)
    assert (filled.serp_rows, filled.keyword_rows) == (KEYWORDS * DAYS * 10, 2 * KEYWORDS * DAYS)

    with HistoryStore.open(store_url) as store:
        again = [
            store.snapshots.record_read(
                ACCOUNT, "keyword_report", (keyword_name(k), SITE), report_of_day(k, DAYS), yesterday, "job"
            )
            for k in range(KEYWORDS)
        ]
        tracked = store.snapshots.record_read(
            ACCOUNT, "tracked_keywords", SITE_SLUG, tracked_of_day(KEYWORDS, DAYS), yesterday, "job"
        )
        assert again == ["unchanged"] * KEYWORDS
        assert tracked == "unchanged"

    record_day(store_url, KEYWORDS, today, DAYS + 1)
    with HistoryStore.open(store_url) as store:
        serps = store.queries.serp_history(ACCOUNT, SITE, None)
        watched = store.queries.keyword_history(ACCOUNT, SITE, None)
        positions = store.queries.keyword_history(ACCOUNT, SITE_SLUG, None)
    assert len(serps) == KEYWORDS * (DAYS + 1) * 10
    assert len(watched) == len(positions) == KEYWORDS * (DAYS + 1)
    first = serps[(serps["keyword"] == keyword_name(0)) & (serps["day"].astype(str) == str(today))]
    assert list(zip(first["position"], first["domain"], strict=True)) == [
        (p, d) for p, d, _dr in top10_of_day(0, DAYS + 1)
    ]
