"""What a site's opportunities read of its tracked keywords at the database (``store.latest``: each
keyword's latest row, its latest with a search volume and its latest with impressions) gives the same
list as every row read into memory (``opportunity_rows`` of ``keyword_history``), on SQLite and
PostgreSQL: a volume only on an older day, impressions newer than the last volume, a keyword never given
a volume, another site's and another account's rows on the same keywords, and a report looking back to
a day before the latest rows."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Any

import pandas as pd
import pytest
from sqlalchemy import insert

from analysis.opportunities import opportunity_rows
from store import HistoryStore
from store.models import KeywordSnapshotRow

ACCOUNT, STRANGER = "a" * 16, "b" * 16
SLUG, OTHER = "acme-com", "beta-com"
DAY = date(2026, 3, 30)  # the rows cross a month's end (a partition's, on PostgreSQL)


def _row(site: str, keyword: str, n: int, **values: Any) -> dict[str, Any]:
    base = dict.fromkeys(("position", "median_dr", "min_dr", "user_dr", "search_volume", "impressions"))
    return {
        **base,
        "account": ACCOUNT,
        "site": site,
        "keyword": keyword,
        "day": DAY + timedelta(days=n),
        "source": "job",
        "recorded_at": datetime.now(UTC),
        **values,
    }


def _rows() -> list[dict[str, Any]]:
    rows = []
    for n in range(5):
        drs = {"median_dr": 40.0 + n, "min_dr": 20.0 + n, "user_dr": 30 + n}
        rows += [
            # A volume on the first two days only: the list keeps that older volume.
            _row(SLUG, "cold brew", n, position=9 - n, search_volume=500 + n if n < 2 else None, **drs),
            # Impressions on every day, a volume until day 3: the volume wins (as the market's weights).
            _row(SLUG, "espresso", n, position=12, search_volume=90 if n < 3 else None, impressions=7 + n),
            # Never a volume nor impressions; not ranking on its last day.
            _row(SLUG, "grinder", n, position=None if n == 4 else 30, **drs),
            # Another site's and another account's rows on the same keyword: never taken.
            _row(OTHER, "cold brew", n, position=1, search_volume=99_999, user_dr=90),
            {**_row(SLUG, "cold brew", n, position=2, search_volume=77_777), "account": STRANGER},
        ]
    rows.append(_row(SLUG, "late keyword", 6, position=3, search_volume=10, **drs))  # after the others
    return rows


@pytest.fixture
def tracked_store(store: HistoryStore) -> HistoryStore:
    rows = _rows()
    store.partitions.ensure(row["day"] for row in rows)  # rows inserted directly: their months first
    with store.engine.begin() as conn:
        conn.execute(insert(KeywordSnapshotRow.__table__), rows)
    return store


@pytest.mark.parametrize("until", [None, DAY + timedelta(days=2), DAY - timedelta(days=1)])
def test_the_latest_rows_give_the_list_every_row_gives(
    tracked_store: HistoryStore, until: date | None
) -> None:
    every = tracked_store.queries.keyword_history(ACCOUNT, SLUG)
    if until is not None:
        every = every[every["day"].dt.date <= until]
    latest = tracked_store.latest.keyword_rows(ACCOUNT, SLUG, until)
    expected = opportunity_rows(every)
    pd.testing.assert_frame_equal(opportunity_rows(latest), expected)
    assert list(latest.columns) == list(every.columns)
    assert len(latest) <= 3 * len(expected)  # one to three rows a keyword, not every day
    assert len(latest) < len(every) or every.empty


def test_older_volumes_and_impressions_are_kept_and_others_rows_never(tracked_store: HistoryStore) -> None:
    found = opportunity_rows(tracked_store.latest.keyword_rows(ACCOUNT, SLUG)).set_index("keyword")
    assert sorted(found.index) == ["cold brew", "espresso", "grinder", "late keyword"]
    cold = found.loc["cold brew"]
    assert (cold["volume"], cold["volume_source"]) == (501, "search volume")  # day 1's, not another site's
    assert (cold["position"], cold["site_dr"]) == (5, 34)  # the latest day's, of this account and site
    assert (found.loc["espresso", "volume"], found.loc["espresso", "volume_source"]) == (90, "search volume")
    assert pd.isna(found.loc["grinder", "volume"]) and pd.isna(found.loc["grinder", "position"])
    looking_back = tracked_store.latest.keyword_rows(ACCOUNT, SLUG, DAY + timedelta(days=1))
    assert "late keyword" not in set(looking_back["keyword"])
    assert tracked_store.latest.keyword_rows(ACCOUNT, "nobody-com").empty
