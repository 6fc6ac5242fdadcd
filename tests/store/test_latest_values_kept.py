"""Each keyword's latest search volume and impressions kept (``store.latest_values``): whatever was written
since they were kept — a new day, the last day written again, an old day written again, a value taken
away — a read gives what the keyword rows say (the latest row with a value, any site's, from the
period's first day on), on SQLite and PostgreSQL; and a day written after them, or the last day written
again, is read alone, without walking every keyword again."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from typing import Any

import pandas as pd
import pytest
from sqlalchemy import delete, insert

from store import HistoryStore
from store.models import KeywordSnapshotRow
from store.rollups import latest_values as kept_values
from store.rollups.tables import bump_keyword_days
from tests.store.market_rows import ACCOUNT, DAY, OTHER, SITE, fill_market

KEYWORDS = KeywordSnapshotRow.__table__
COLUMNS = ("impressions", "search_volume")


@pytest.fixture
def kept_store(store: HistoryStore) -> HistoryStore:
    fill_market(store)
    with (
        store.engine.begin() as conn
    ):  # its rows went in directly: their days marked as every write marks them
        bump_keyword_days(conn, ACCOUNT, [DAY + timedelta(days=n) for n in range(6)])
    return store


@pytest.fixture
def walks(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Each walk of every keyword's latest values, by account."""
    walked: list[str] = []
    walk = kept_values.latest_value_rows

    def counting(conn: Any, account: str, columns: Any) -> Any:
        walked.append(account)
        return walk(conn, account, columns)

    monkeypatch.setattr(kept_values, "latest_value_rows", counting)
    yield walked


def _definition(store: HistoryStore, since: date | None) -> dict[str, dict[str, float]]:
    """By the rows: each keyword's value on its latest row that has one, the greater site's on a tie."""
    rows = store.queries.keyword_history(ACCOUNT, None, since)
    found = {}
    for column in COLUMNS:
        known = rows[rows[column].notna()].sort_values(["day", "site"], kind="stable")
        last = known.groupby("keyword").tail(1)
        found[column] = {
            str(k): float(v) for k, v in zip(last["keyword"], pd.to_numeric(last[column]), strict=True)
        }
    return found


def _check(store: HistoryStore) -> None:
    for since in (None, DAY + timedelta(days=3), DAY + timedelta(days=6), DAY + timedelta(days=30)):
        assert store.latest_values.read(ACCOUNT, COLUMNS, since) == _definition(store, since), since


def _write(
    store: HistoryStore, day: date, site: str, keyword: str, volume: float | None, impressions: float | None
) -> None:
    """One keyword row of ``day`` written as the store writes it: replaced, and its day marked changed."""
    with store.engine.begin() as conn:
        where = (KEYWORDS.c.account == ACCOUNT, KEYWORDS.c.site == site, KEYWORDS.c.keyword == keyword)
        conn.execute(delete(KEYWORDS).where(*where, KEYWORDS.c.day == day))
        row = {"account": ACCOUNT, "site": site, "keyword": keyword, "day": day, "search_volume": volume,
               "impressions": impressions, "source": "job", "recorded_at": datetime.now(UTC)}  # fmt: skip
        conn.execute(insert(KEYWORDS), [row])
        bump_keyword_days(conn, ACCOUNT, [day])


def test_kept_values_follow_every_write(kept_store: HistoryStore, walks: list[str]) -> None:
    _check(kept_store)
    assert len(walks) == 1  # kept by the first read; the others read what it kept

    new_day = DAY + timedelta(days=6)
    kept_store.partitions.ensure([new_day])
    _write(kept_store, new_day, SITE, "acme pricing", 120, None)  # a newer volume
    _write(kept_store, new_day, SITE, "widget tips", None, 3)  # no volume: the older one stays
    _write(kept_store, new_day, OTHER, "gadget deals", None, None)  # still nothing known
    _check(kept_store)
    assert len(walks) == 1  # the new day read alone
    _write(kept_store, new_day, SITE, "acme pricing", 125, 9)  # the day written again, by a later run
    _check(kept_store)
    assert len(walks) == 1  # the last day read again, alone
    _write(kept_store, new_day, SITE, "acme pricing", None, None)  # its new values taken away
    _check(kept_store)
    assert len(walks) == 2  # where the latest before it is, only a walk says

    _write(kept_store, DAY + timedelta(days=3), OTHER, "beta widgets", None, None)  # its latest volume gone
    _write(kept_store, DAY + timedelta(days=2), SITE, "widget reviews", 301, 7)  # an old day written again
    _check(kept_store)
    assert len(walks) == 3  # a day before the last changed: every keyword walked again
    assert (
        kept_store.latest_values.read(ACCOUNT, ("search_volume",), None)["search_volume"]["beta widgets"]
        == 50.0
    )
