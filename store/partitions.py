"""Monthly partitions of the top-10 and keyword rows on PostgreSQL: the one home of "make sure these
months have a partition".

On PostgreSQL, ``serp_results`` and ``keyword_snapshots`` are partitioned by month on ``day`` (revision
0014), so a period's read opens only its months' partitions. A row can only be written into a month that
has its partition, and there is deliberately no DEFAULT partition: a row parked there would stop that
month's partition from ever being made (PostgreSQL refuses a new partition whose range the default
already holds rows of). So every write path into these tables makes its months first: the recording
(``store.recording``), the bulk writes of ``copy`` and ``import`` (``store.bulk``), the daily job ahead
of time (this month and the next, ``ensure_ahead``), the benchmarks and tests that insert directly. A
write that still finds no partition fails with PostgreSQL's "no partition of relation … found for row",
which the store reports in plain words, never into a catch-all month.

``MonthlyPartitions.ensure`` is idempotent and safe when processes race: it makes only the months it has
not seen yet in this process (one query of the catalogue the first time, then nothing), under an
advisory lock, each with ``CREATE TABLE IF NOT EXISTS … PARTITION OF``, and a duplicate made by a
process that does not take the lock is taken as made. On SQLite it does nothing: the tables stay one.
Making a partition locks its table for a moment (PostgreSQL takes an exclusive lock on the parent), once
a month per table.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from datetime import date

from sqlalchemy import Connection, Engine, text
from sqlalchemy.exc import DBAPIError

from store.engine import Connected

#: The tables partitioned by month on ``day`` (on PostgreSQL).
PARTITIONED_TABLES = ("serp_results", "keyword_snapshots")
#: An arbitrary constant: the key of the advisory lock held while partitions are made.
PARTITION_LOCK_KEY = 7_140_114
#: PostgreSQL's codes for "that relation already exists" (a racing process made it first).
_DUPLICATE_CODES = {"42P07", "23505"}


def month_of(day: date) -> date:
    """The first day of ``day``'s month: the month's name in this module."""
    return day.replace(day=1)


def next_month(month: date) -> date:
    """The first day of the month after ``month``'s."""
    return date(month.year + month.month // 12, month.month % 12 + 1, 1)


def partition_name(table: str, month: date) -> str:
    """``serp_results_2026_11``: a partition's name says its table and its month."""
    return f"{table}_{month:%Y_%m}"


def partition_ddl(table: str, month: date, parent: str | None = None) -> str:
    """The statement making ``table``'s partition of ``month`` when it is missing (``parent``: the
    partitioned table's name when it is not ``table`` yet, as in the migration before its rename)."""
    start = month_of(month)
    return (
        f'CREATE TABLE IF NOT EXISTS "{partition_name(table, start)}" PARTITION OF "{parent or table}" '
        f"FOR VALUES FROM ('{start.isoformat()}') TO ('{next_month(start).isoformat()}')"
    )


def existing_partitions(conn: Connection, tables: Iterable[str] = PARTITIONED_TABLES) -> set[str]:
    """The names of the partitions ``tables`` have on this PostgreSQL database."""
    query = text(
        "SELECT child.relname FROM pg_inherits "
        "JOIN pg_class child ON child.oid = pg_inherits.inhrelid "
        "JOIN pg_class parent ON parent.oid = pg_inherits.inhparent "
        "WHERE parent.relname = ANY(:tables) AND parent.relnamespace = to_regnamespace(current_schema())::oid"
    )
    return set(conn.execute(query, {"tables": list(tables)}).scalars())


def _create(conn: Connection, table: str, month: date) -> bool:
    """Make one partition; False when another process had just made it."""
    try:
        with conn.begin_nested():
            conn.exec_driver_sql(partition_ddl(table, month))
    except DBAPIError as exc:
        if getattr(exc.orig, "sqlstate", None) in _DUPLICATE_CODES:
            return False
        raise
    return True


class MonthlyPartitions(Connected):
    """The months ``serp_results`` and ``keyword_snapshots`` have a partition for
    (``HistoryStore.partitions``; given to the repositories that write those tables)."""

    def __init__(self, engine: Engine, writer: Engine, url: str) -> None:
        super().__init__(engine, writer, url)
        self._partitioned = engine.dialect.name == "postgresql"
        #: (table, month) known to have a partition in this database; only ever grows.
        self._known: set[tuple[str, date]] = set()
        self._known_lock = threading.Lock()

    def ensure(self, days: Iterable[date]) -> list[str]:
        """Make the partitions the months of ``days`` lack, in both tables; the names made (none on
        SQLite, and none for months already made or seen by this process)."""
        if not self._partitioned:
            return []
        wanted = {(table, month_of(day)) for day in set(days) for table in PARTITIONED_TABLES}
        with self._known_lock:
            wanted -= self._known
        if not wanted:
            return []
        made: list[str] = []
        with self._writing() as conn:
            conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": PARTITION_LOCK_KEY})
            there = existing_partitions(conn)
            for table, month in sorted(wanted):
                if partition_name(table, month) not in there and _create(conn, table, month):
                    made.append(partition_name(table, month))
        with self._known_lock:
            self._known |= wanted
        return made

    def ensure_ahead(self, today: date) -> list[str]:
        """This month's and next month's partitions (the daily job, ahead of the first write of a month)."""
        month = month_of(today)
        return self.ensure([month, next_month(month)])

    def months(self) -> dict[str, list[date]]:
        """Each partitioned table's months with a partition, oldest first ({} on SQLite)."""
        if not self._partitioned:
            return {}
        with self._reading() as conn:
            names = existing_partitions(conn)
        found: dict[str, list[date]] = {table: [] for table in PARTITIONED_TABLES}
        for name in names:
            table, year, month = name.rsplit("_", 2)
            if table in found and year.isdigit() and month.isdigit():
                found[table].append(date(int(year), int(month), 1))
        return {table: sorted(months) for table, months in found.items()}
