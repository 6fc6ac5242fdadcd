"""Monthly partitions of the top-10 and keyword rows on PostgreSQL (revision 0014, ``store.partitions``).

On a real PostgreSQL server: both tables are partitioned by month after the upgrade; a period's read
opens only its months' partitions (read from EXPLAIN of the very statements the store sends); the daily
job records a day of a month that had no partition; the upgrade from 0013 keeps every row of a history
spanning three months, and the downgrade gives one table back with the same rows; a copy of a history
spanning several months from SQLite moves in; two processes making the same months at once both succeed.
And on SQLite nothing changes: the tables are the ones revision 0013 made (with 0016's partial indexes).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Connection, Engine, event, insert, inspect, text
from sqlalchemy.exc import DBAPIError

from client.settings import key_fingerprint
from sandbox import DEMO_KEY, SandboxServer
from store import HistoryStore
from store.engine import make_engine, plain_reason
from store.migrations import HEAD_REVISION, current_revision, downgrade, upgrade
from store.models import SerpResultRow
from store.partitions import PARTITIONED_TABLES, month_of, next_month, partition_name
from tests.store import samples
from tests.store.commands import run_command

#: Every test here but the SQLite one runs on PostgreSQL (``store_url`` of the store tests' conftest).
pytestmark = pytest.mark.usefixtures("postgres")
THIS_MONTH = month_of(datetime.now(UTC).date())
JAN, FEB, MAR = date(2025, 1, 1), date(2025, 2, 1), date(2025, 3, 1)
AT = "2025-04-01 08:00:00+00"


@pytest.fixture
def database_kind() -> str:
    return "postgresql"


def _partitions(engine: Engine, table: str) -> set[str]:
    query = text("SELECT inhrelid::regclass::text FROM pg_inherits WHERE inhparent = CAST(:t AS regclass)")
    with engine.connect() as conn:
        return set(conn.execute(query, {"t": table}).scalars())


def _serp_row(day: date, keyword: str, position: int) -> dict[str, Any]:
    return {
        "account": samples.ACCOUNT,
        "site": "example.com",
        "keyword": keyword,
        "day": day,
        "position": position,
        "domain": f"site{position}.com",
        "dr": 40 + position,
        "source": "job",
        "t": AT,
    }


SERP_INSERT = (
    "INSERT INTO serp_results (account, site, keyword, day, position, domain, dr, source, recorded_at) "
    "VALUES (:account, :site, :keyword, :day, :position, :domain, :dr, :source, :t)"
)
KEYWORD_INSERT = (
    "INSERT INTO keyword_snapshots (account, site, keyword, day, position, source, recorded_at) "
    "VALUES (:account, :site, :keyword, :day, :position, :source, :t)"
)
THREE_MONTHS = [
    _serp_row(day, keyword, position)
    for day in (date(2025, 1, 31), date(2025, 2, 1), date(2025, 2, 14), date(2025, 3, 31))
    for keyword in ("crm software", "help desk")
    for position in (1, 2, 3)
]


def test_after_the_upgrade_both_tables_are_partitioned_by_month_with_this_month_and_the_next(
    store: HistoryStore,
) -> None:
    with store.engine.connect() as conn:
        strategies = conn.execute(
            text(
                "SELECT c.relname, p.partstrat, a.attname FROM pg_partitioned_table p "
                "JOIN pg_class c ON c.oid = p.partrelid "
                "JOIN pg_attribute a ON a.attrelid = p.partrelid AND a.attnum = p.partattrs[0]"
            )
        ).all()
        default_partitions = conn.execute(
            text("SELECT count(*) FROM pg_partitioned_table WHERE partdefid <> 0")
        )
        assert default_partitions.scalar_one() == 0, "no DEFAULT partition: a row there would block its month"
    assert sorted(strategies) == [("keyword_snapshots", "r", "day"), ("serp_results", "r", "day")]
    for table in PARTITIONED_TABLES:
        ahead = {partition_name(table, THIS_MONTH), partition_name(table, next_month(THIS_MONTH))}
        assert _partitions(store.engine, table) == ahead
    assert store.partitions.months()["serp_results"] == [THIS_MONTH, next_month(THIS_MONTH)]


@contextmanager
def _plans_of_reads(engine: Engine) -> Iterator[list[str]]:
    """The EXPLAIN of every SELECT of the top 10s sent while the context runs, made in the read's own
    transaction (the market's reads join temporary tables of their connection)."""
    plans: list[str] = []

    def explain(conn: Connection, cursor: Any, statement: str, parameters: Any, *_: Any) -> None:
        if statement.lstrip().upper().startswith(("SELECT", "WITH")) and (
            "serp_results" in statement or "keyword_snapshots" in statement
        ):
            with cursor.connection.cursor() as planner:
                planner.execute("EXPLAIN " + statement, parameters)
                plans.append("\n".join(row[0] for row in planner.fetchall()))

    event.listen(engine, "after_cursor_execute", explain)
    try:
        yield plans
    finally:
        event.remove(engine, "after_cursor_execute", explain)


def _months_in(plans: list[str], table: str) -> set[str]:
    """The partitions of ``table`` the plans scan (their names, not their indexes' names)."""
    return {name for plan in plans for name in re.findall(rf"\b{table}_\d{{4}}_\d{{2}}\b", plan)}


def test_a_periods_read_opens_only_its_months(store: HistoryStore) -> None:
    store.partitions.ensure([JAN, FEB, MAR])
    with store.engine.begin() as conn:
        conn.execute(text(SERP_INSERT), THREE_MONTHS)
        conn.execute(text(KEYWORD_INSERT), [row for row in THREE_MONTHS if row["position"] == 1])
        conn.exec_driver_sql("ANALYZE serp_results; ANALYZE keyword_snapshots")

    with _plans_of_reads(store.engine) as plans:
        february = store.queries.serp_history(
            samples.ACCOUNT, "example.com", since=FEB, until=date(2025, 2, 28)
        )
        store.market.sums(
            samples.ACCOUNT, "example.com", since=FEB, until=date(2025, 2, 28), curve=(0.3, 0.2, 0.1)
        )
    assert sorted(set(february["day"].dt.date)) == [date(2025, 2, 1), date(2025, 2, 14)]
    assert len(plans) >= 2
    assert _months_in(plans, "serp_results") == {"serp_results_2025_02"}
    # The same read over two months opens those two.
    with _plans_of_reads(store.engine) as plans:
        store.queries.serp_history(samples.ACCOUNT, "example.com", since=date(2025, 1, 20), until=FEB)
    assert _months_in(plans, "serp_results") == {"serp_results_2025_01", "serp_results_2025_02"}
    # A keyword read from a day on opens the months from that day's.
    with _plans_of_reads(store.engine) as plans:
        store.queries.keyword_history(samples.ACCOUNT, "example.com", since=MAR)
    found = _months_in(plans, "keyword_snapshots")
    assert found and not found & {"keyword_snapshots_2025_01", "keyword_snapshots_2025_02"}


def test_the_job_records_a_day_of_a_month_that_had_no_partition(
    store_url: str,
    sandbox: SandboxServer,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    account = key_fingerprint(DEMO_KEY)
    with HistoryStore.open(store_url) as store:
        store.watchlist.watch(account, "keyword", "crm software", site="example.com")
        assert partition_name("serp_results", JAN) not in _partitions(store.engine, "serp_results")
    monkeypatch.setenv("VERIFIEDDR_API_KEY", DEMO_KEY)
    monkeypatch.setenv("VERIFIEDDR_API_BASE", sandbox.base_url)
    code, out, err = run_command(capsys, "snapshot", "--database-url", store_url, "--as-of", "2025-01-06")
    assert code == 0, err
    assert "failed 0" in out
    with HistoryStore.open(store_url) as store:
        top10 = store.queries.serp_history(account, "example.com")
        assert set(top10["day"].dt.date) == {date(2025, 1, 6)} and len(top10) == 10
        keywords = store.queries.keyword_history(account, "example.com")
        assert date(2025, 1, 6) in set(keywords["day"].dt.date)
        for table in PARTITIONED_TABLES:  # its month, and the next one made ahead by the job
            assert {partition_name(table, JAN), partition_name(table, FEB)} <= _partitions(
                store.engine, table
            )


def test_the_upgrade_from_0013_keeps_every_row_of_three_months_and_the_downgrade_gives_one_table_back(
    store_url: str,
) -> None:
    engine = make_engine(store_url)
    upgrade(engine, "0013")
    with engine.begin() as conn:
        conn.execute(text(SERP_INSERT), THREE_MONTHS)
        conn.execute(text(KEYWORD_INSERT), [row for row in THREE_MONTHS if row["position"] == 1])
    before = _all_rows(engine)
    assert len(before["serp_results"]) == 24 and len(before["keyword_snapshots"]) == 8

    with HistoryStore.open(store_url) as store:
        assert _all_rows(engine) == before, "same ids, same values"
        for table in PARTITIONED_TABLES:
            months = {JAN, FEB, MAR, THIS_MONTH, next_month(THIS_MONTH)}
            assert _partitions(engine, table) == {partition_name(table, month) for month in months}
        # The ids go on from the old ones: a new row takes the next number of the same sequence.
        store.snapshots.record_keyword_report(
            samples.ACCOUNT, samples.keyword_report("new keyword"), date(2025, 3, 2), "job", "example.com"
        )
        rows = _all_rows(engine)["serp_results"]
        new_ids = [row[0] for row in rows if row[3] == "new keyword"]
        old_ids = [row[0] for row in before["serp_results"]]
        assert len(rows) == 34 and len(new_ids) == 10 and min(new_ids) == max(old_ids) + 1
    after = _all_rows(engine)

    downgrade(engine, "0013")
    assert current_revision(engine) == "0013"
    assert _all_rows(engine) == after
    with engine.connect() as conn:
        kinds = conn.execute(
            text(
                "SELECT relname, relkind FROM pg_class WHERE relname IN ('serp_results', 'keyword_snapshots')"
            )
        ).all()
        assert sorted(kinds) == [("keyword_snapshots", "r"), ("serp_results", "r")]
        left = conn.execute(text("SELECT count(*) FROM pg_class WHERE relname ~ '^serp_results_2'"))
        assert left.scalar_one() == 0
        indexes = set(
            conn.execute(text("SELECT indexname FROM pg_indexes WHERE tablename = 'serp_results'")).scalars()
        )
    assert indexes == {
        "pk_serp_results",
        "uq_serp_results_account_site_keyword_day_position",
        "ix_serp_results_account_day",
        "ix_serp_results_account_site_day",
    }
    upgrade(engine)  # and up again
    assert _all_rows(engine) == after
    engine.dispose()


def _all_rows(engine: Engine) -> dict[str, list[tuple[Any, ...]]]:
    with engine.connect() as conn:
        return {
            table: [tuple(row) for row in conn.execute(text(f"SELECT * FROM {table} ORDER BY id"))]  # noqa: S608
            for table in PARTITIONED_TABLES
        }


def test_a_copy_from_sqlite_of_several_months_moves_into_the_partitions(
    store_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source_url = f"sqlite:///{tmp_path / 'history.sqlite3'}"
    days = [date(2024, 11, 30), date(2024, 12, 1), date(2025, 1, 6), date(2025, 2, 28)]
    with HistoryStore.open(source_url) as source:
        source.snapshots.seed(
            samples.ACCOUNT,
            keyword_reports=[(day, samples.keyword_report(k), "example.com") for day in days for k in "abc"],
            source="job",
        )
        expected = source.queries.serp_history(samples.ACCOUNT)
    code, out, err = run_command(
        capsys, "copy", "--database-url", source_url, "--to", store_url, "--batch-rows", "7"
    )
    assert code == 0 and out.startswith("verified:"), err
    with HistoryStore.open(store_url) as target:
        assert target.queries.serp_history(samples.ACCOUNT).equals(expected)
        made = target.partitions.months()
    for table in PARTITIONED_TABLES:
        assert {month_of(day) for day in days} <= set(made[table])


def test_two_processes_making_the_same_months_at_once_both_succeed(store_url: str) -> None:
    stores = [HistoryStore.open(store_url) for _ in range(4)]
    start = threading.Barrier(len(stores))
    made: list[list[str]] = []
    problems: list[BaseException] = []

    def make(store: HistoryStore) -> None:
        start.wait()
        try:
            made.append(store.partitions.ensure([date(2023, month, 10) for month in range(1, 13)]))
        except BaseException as exc:
            problems.append(exc)

    threads = [threading.Thread(target=make, args=(store,)) for store in stores]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert problems == []
    assert sorted(name for names in made for name in names) == sorted(
        partition_name(table, date(2023, month, 1)) for table in PARTITIONED_TABLES for month in range(1, 13)
    ), "each partition made once, by one of them"
    assert stores[0].partitions.ensure([date(2023, 5, 5)]) == []  # known now: nothing asked of the database
    for store in stores:
        store.close()


def test_a_row_of_a_month_without_partition_is_refused_in_plain_words(store: HistoryStore) -> None:
    """A script writing rows directly into a month nobody made: refused, never parked in a catch-all."""
    with pytest.raises(DBAPIError) as caught, store.engine.begin() as conn:
        row = {name: value for name, value in _serp_row(date(2019, 5, 5), "k", 1).items() if name != "t"}
        conn.execute(insert(SerpResultRow.__table__), {**row, "recorded_at": datetime.now(UTC)})
    assert plain_reason(caught.value, store.url).startswith(
        "the day's month has no partition in the database"
    )


def test_sqlite_keeps_its_tables_as_revision_0013_made_them(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'history.sqlite3'}"
    engine = make_engine(url)
    upgrade(engine, "0013")
    tables = text(
        "SELECT name, sql FROM sqlite_master"
        " WHERE tbl_name IN ('serp_results', 'keyword_snapshots') ORDER BY name"
    )
    with engine.connect() as conn:
        at_0013 = conn.execute(tables).all()
    with HistoryStore.open(url) as store:
        assert current_revision(store.engine) == HEAD_REVISION
        assert store.partitions.ensure([JAN, FEB]) == [] and store.partitions.months() == {}
        with store.engine.connect() as conn:
            at_head = conn.execute(tables).all()
        # The same tables, keys and indexes; only revision 0016's partial indexes of the latest values added.
        assert set(at_0013) <= set(at_head)
        assert {name for name, _sql in set(at_head) - set(at_0013)} == {
            "ix_keyword_snapshots_volume_days",
            "ix_keyword_snapshots_impression_days",
        }
        assert set(inspect(store.engine).get_table_names()) >= set(PARTITIONED_TABLES)
    engine.dispose()
