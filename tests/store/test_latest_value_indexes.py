"""Each keyword's latest search volume and impressions (``store.latest_values``, the market's weights,
walked when they are not kept yet) on SQLite and PostgreSQL: the right value when most rows carry none,
read from revision 0016's partial indexes, which hold only the rows that carry one. Before them the walk
stepped over every row without a value: at 5,000 keywords most of a year's rows, on PostgreSQL in every
month's partition.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date, timedelta
from typing import Any

from sqlalchemy import Connection, Engine, event, text

from store import HistoryStore
from store.rollups.tables import bump_keyword_days
from tests.store import samples

FIRST = date(2025, 1, 1)
DAYS = 60
KEYWORD_INSERT = (
    "INSERT INTO keyword_snapshots"
    " (account, site, keyword, day, position, search_volume, impressions, source, recorded_at)"
    " VALUES (:account, :site, :keyword, :day, 3, :volume, :impressions, 'job', '2025-04-01 08:00:00+00')"
)


def _rows() -> list[dict[str, Any]]:
    """Three keywords' daily rows, watched (no volume) and tracked; the tracked rows carry a volume only
    every tenth day (rising: the latest is the greatest) and "help desk"'s an impression on day 7."""
    rows = []
    for keyword in ("crm software", "help desk", "email marketing"):
        for n in range(DAYS):
            for site, carries in (("example.com", False), ("example-com", n % 10 == 3)):
                rows.append(
                    {
                        "account": samples.ACCOUNT,
                        "site": site,
                        "keyword": keyword,
                        "day": FIRST + timedelta(days=n),
                        "volume": 1000 + n if carries else None,
                        "impressions": 40 if carries and n == 3 and keyword == "help desk" else None,
                    }
                )
    return rows


@contextmanager
def _plans_of_reads(engine: Engine) -> Iterator[list[str]]:
    """The plan of every read of the keyword rows sent while the context runs, each made in its read's
    own transaction, with sequential scans ruled out on PostgreSQL (a table this small would be read
    whole, whatever indexes it has)."""
    plans: list[str] = []

    def explain(conn: Connection, cursor: Any, statement: str, parameters: Any, *_: Any) -> None:
        if "keyword_snapshots" not in statement or not statement.lstrip().upper().startswith("WITH"):
            return
        if conn.dialect.name == "postgresql":
            with cursor.connection.cursor() as planner:
                planner.execute("SET LOCAL enable_seqscan = off")
                planner.execute("EXPLAIN " + statement, parameters)
                plans.append("\n".join(row[0] for row in planner.fetchall()))
        else:
            planner = cursor.connection.cursor()
            planner.execute("EXPLAIN QUERY PLAN " + statement, parameters)
            plans.append("\n".join(str(row[-1]) for row in planner.fetchall()))

    event.listen(engine, "after_cursor_execute", explain)
    try:
        yield plans
    finally:
        event.remove(engine, "after_cursor_execute", explain)


def test_each_keywords_latest_volume_is_read_from_the_rows_that_carry_one(store_url: str) -> None:
    with HistoryStore.open(store_url) as store:
        store.partitions.ensure([FIRST, date(2025, 2, 1), date(2025, 3, 1)])
        with store.engine.begin() as conn:
            conn.execute(text(KEYWORD_INSERT), _rows())
            bump_keyword_days(
                conn, samples.ACCOUNT, {row["day"] for row in _rows()}
            )  # as the store's writes do
            if conn.dialect.name == "postgresql":
                conn.exec_driver_sql("ANALYZE keyword_snapshots")
        with _plans_of_reads(store.engine) as plans:
            latest = store.latest_values.read(samples.ACCOUNT, ("search_volume", "impressions"), None)
        # The latest day with a volume is day 53 (the rows of days 54 to 59 carry none).
        assert latest["search_volume"] == {
            "crm software": 1053.0,
            "help desk": 1053.0,
            "email marketing": 1053.0,
        }
        assert latest["impressions"] == {"help desk": 40.0}
        later = store.latest_values.read(samples.ACCOUNT, ("search_volume",), FIRST + timedelta(days=54))
        assert later == {"search_volume": {}}

    assert len(plans) == 1  # one walk of the keywords for both; the second read, of what it kept
    if store_url.startswith("sqlite"):
        assert "ix_keyword_snapshots_volume_days" in plans[0]
        assert "ix_keyword_snapshots_impression_days" in plans[0]
    else:  # Rows without a value are not in the index read, so none is read and filtered out.
        for column in ("search_volume", "impressions"):
            assert "Index" in plans[0] and f"{column} IS NOT NULL" not in plans[0], plans[0]
