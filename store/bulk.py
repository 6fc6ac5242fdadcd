"""Every table's rows in bulk, for moving a whole history between databases (``services.moving``):
counted, read in primary-key order in batches, written in batches, and the bookkeeping that lets a
move that was stopped halfway continue where it stopped.

``history_tables`` is every table of the app, in the order their foreign keys ask for (a table before
the ones that refer to it), so a batch never names a row that is not there yet. Reads stream (a
server-side cursor on PostgreSQL): a table of millions of rows is never held in memory, only a batch.

A move keeps its progress on the target, in ``history_copy_progress`` (not one of the app's tables,
not made by the migrations): one row per table with the rows written so far and the primary key of
the last one. Each batch is written in the same transaction as its progress row, so after a kill
(even in the middle of a batch, whose transaction is then rolled back) the progress names exactly the
rows that are there. The table is dropped once the move is verified.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Connection,
    DateTime,
    Engine,
    MetaData,
    String,
    Table,
    Text,
    func,
    inspect,
    select,
    text,
    tuple_,
)

from store.engine import Connected
from store.models import Base
from store.partitions import PARTITIONED_TABLES, MonthlyPartitions
from store.reports import tables as _report_tables  # noqa: F401  # their tables join Base.metadata
from store.rollups import tables as _rollup_tables  # noqa: F401  # their tables join Base.metadata

PROGRESS = Table(
    "history_copy_progress",
    MetaData(),
    Column("table_name", String(64), primary_key=True),
    Column("source", String(500), nullable=False),
    Column("copied", BigInteger, nullable=False),
    Column("last_key", Text),
    Column("finished", Boolean, nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
)


def history_tables() -> list[Table]:
    """Every table of the app's schema, each before the tables whose foreign keys refer to it; not the
    derived ones (the market's roll-ups), which the target sums again when first read."""
    return [table for table in Base.metadata.sorted_tables if not table.info.get("derived")]


def as_utc(moment: datetime) -> datetime:
    """A moment in UTC with its zone: SQLite hands back naive datetimes, and every time the app writes
    is UTC; PostgreSQL hands them back in the session's zone."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


@dataclass(frozen=True)
class TableProgress:
    """How far a move has come with one table: rows written, the last one's key, whether it is done."""

    source: str
    copied: int
    last_key: tuple[Any, ...] | None
    finished: bool


def _key_text(table: Table, row: Sequence[Any]) -> str:
    names = [column.name for column in table.columns]
    values = [row[names.index(column.name)] for column in table.primary_key.columns]
    return json.dumps([value.isoformat() if isinstance(value, date) else value for value in values])


def _key_values(table: Table, key_text: str | None) -> tuple[Any, ...] | None:
    if key_text is None:
        return None
    values = []
    for column, value in zip(table.primary_key.columns, json.loads(key_text), strict=True):
        kind = column.type.python_type
        values.append(kind.fromisoformat(value) if kind in (date, datetime) and value is not None else value)
    return tuple(values)


class BulkRows(Connected):
    """Whole tables at once: their row counts, their rows in key order in batches, batches written.
    A batch of a table partitioned by month (PostgreSQL) has its months' partitions made first
    (``partitions``), so a history of any span moves in."""

    def __init__(self, engine: Engine, writer: Engine, url: str, partitions: MonthlyPartitions) -> None:
        super().__init__(engine, writer, url)
        self._partitions = partitions

    def counts(self, tables: Sequence[Table]) -> dict[str, int]:
        """Each table's rows (a table not in the database yet counts 0)."""
        with self._reading() as conn:
            present = set(inspect(conn).get_table_names())
            return {
                table.name: conn.execute(select(func.count()).select_from(table)).scalar_one()
                if table.name in present
                else 0
                for table in tables
            }

    def holding_rows(self, tables: Sequence[Table]) -> list[str]:
        """The tables that hold at least one row (a history is there)."""
        with self._reading() as conn:
            present = set(inspect(conn).get_table_names())
            return [
                table.name
                for table in tables
                if table.name in present
                and conn.execute(select(text("1")).select_from(table).limit(1)).first() is not None
            ]

    def batches(
        self, table: Table, size: int, after: tuple[Any, ...] | None = None
    ) -> Iterator[list[tuple[Any, ...]]]:
        """The table's rows in primary-key order, ``size`` at a time, from the one after key ``after``
        (from the first when None); each a tuple in the order of ``table.columns``. Moments are UTC:
        SQLite hands them back without a zone, PostgreSQL is read in UTC (``SET LOCAL TIME ZONE``)."""
        key = list(table.primary_key.columns)
        query = select(table).order_by(*key)
        if after is not None:
            query = query.where(key[0] > after[0] if len(key) == 1 else tuple_(*key) > tuple_(*after))
        with self._reading() as conn:
            _in_utc(conn)
            streamed = conn.execution_options(stream_results=True, yield_per=size).execute(query)
            for part in streamed.partitions():
                yield list(part)

    # --- a move's progress, kept on the target ---------------------------------------------------------

    def progress(self, tables: Sequence[Table]) -> dict[str, TableProgress] | None:
        """Each table's progress of an unfinished move into this database; None when none was begun."""
        by_name = {table.name: table for table in tables}
        with self._reading() as conn:
            if not inspect(conn).has_table(PROGRESS.name):
                return None
            rows = conn.execute(select(PROGRESS)).mappings().all()
        return {
            row["table_name"]: TableProgress(
                row["source"],
                row["copied"],
                _key_values(by_name[row["table_name"]], row["last_key"]),
                bool(row["finished"]),
            )
            for row in rows
            if row["table_name"] in by_name
        }

    def begin_progress(self, tables: Sequence[Table], source: str) -> None:
        """Start keeping a move's progress here (each table at 0 rows; one begun before keeps its own)."""
        with self._writing() as conn:
            PROGRESS.create(conn, checkfirst=True)
            known = set(conn.execute(select(PROGRESS.c.table_name)).scalars())
            now = datetime.now(UTC)
            fresh = [
                {
                    "table_name": t.name,
                    "source": source,
                    "copied": 0,
                    "last_key": None,
                    "finished": False,
                    "updated_at": now,
                }
                for t in tables
                if t.name not in known
            ]
            if fresh:
                conn.execute(PROGRESS.insert(), fresh)

    def finish_table(self, table: Table) -> None:
        with self._writing() as conn:
            self._note(conn, table, finished=True)

    def end_progress(self) -> None:
        """The move is verified: its bookkeeping goes, and the database holds the app's tables only."""
        with self._writing() as conn:
            PROGRESS.drop(conn, checkfirst=True)

    def write_batch(self, table: Table, rows: Sequence[Sequence[Any]], copied: int) -> None:
        """Insert ``rows`` (tuples in the order of ``table.columns``, moments without a zone meaning UTC)
        and note, in the same transaction, that ``copied`` rows of the table are in."""
        if not rows:
            return
        if table.name in PARTITIONED_TABLES:
            day_at = [column.name for column in table.columns].index("day")
            self._partitions.ensure(_as_day(row[day_at]) for row in rows)
        with self._writing() as conn:
            if conn.dialect.name == "postgresql":
                _in_utc(conn)
                _copy_in(conn, table, rows)
            else:
                names = [column.name for column in table.columns]
                conn.execute(table.insert(), [dict(zip(names, row, strict=True)) for row in rows])
            self._note(conn, table, copied=copied, last_key=_key_text(table, rows[-1]))

    @staticmethod
    def _note(conn: Connection, table: Table, **values: Any) -> None:
        conn.execute(
            PROGRESS.update()
            .where(PROGRESS.c.table_name == table.name)
            .values(updated_at=datetime.now(UTC), **values)
        )

    def fix_sequences(self, tables: Sequence[Table]) -> list[str]:
        """On PostgreSQL, move each table's id sequence past the ids written explicitly, so the next row
        the app adds gets a new id; the tables whose sequence was set (none on SQLite, which needs none)."""
        fixed: list[str] = []
        with self._writing() as conn:
            if conn.dialect.name != "postgresql":
                return fixed
            for table in tables:
                key = list(table.primary_key.columns)
                if (
                    len(key) != 1
                    or key[0].autoincrement not in (True, "auto")
                    or key[0].type.python_type is not int
                ):
                    continue
                sequence = conn.execute(
                    text("SELECT pg_get_serial_sequence(:table, :column)"),
                    {"table": table.name, "column": key[0].name},
                ).scalar_one()
                if sequence is None:
                    continue
                highest = conn.execute(select(func.max(key[0]))).scalar_one()
                conn.execute(
                    text("SELECT setval(:sequence, :value, :called)"),
                    {"sequence": sequence, "value": highest or 1, "called": highest is not None},
                )
                fixed.append(table.name)
        return fixed

    def gather_statistics(self, tables: Sequence[Table]) -> bool:
        """On PostgreSQL, read the moved tables' statistics (``ANALYZE``) at once: without them the
        planner takes each table for a few rows, and the Market page's first read of a moved year chose
        plans that took most of a minute, until the server's own analysis came round. True when run
        (SQLite's planner needs none, as the app never gathers them there)."""
        with self._writing() as conn:
            if conn.dialect.name != "postgresql":
                return False
            quote = conn.dialect.identifier_preparer.quote
            for table in tables:
                conn.exec_driver_sql(f"ANALYZE {quote(table.name)}")  # the app's own table names
        return True


def _as_day(value: Any) -> date:
    """A row's day as a date (a file being imported may hold it as text)."""
    return value if isinstance(value, date) else date.fromisoformat(str(value)[:10])


def _in_utc(conn: Connection) -> None:
    """On PostgreSQL, this transaction reads and writes moments in UTC (a moment without a zone, as
    SQLite keeps them, is taken as UTC, as the app writes them), whatever the server's own zone."""
    if conn.dialect.name == "postgresql":
        conn.exec_driver_sql("SET LOCAL TIME ZONE 'UTC'")


def _copy_in(conn: Connection, table: Table, rows: Sequence[Sequence[Any]]) -> None:
    """PostgreSQL's COPY, several times faster than INSERTs for a batch, inside the caller's transaction."""
    quote = conn.dialect.identifier_preparer.quote
    names = [column.name for column in table.columns]
    statement = f"COPY {quote(table.name)} ({', '.join(quote(name) for name in names)}) FROM STDIN"
    cursor: Any = conn.connection.cursor()
    try:
        with cursor.copy(statement) as copy:
            for row in rows:
                copy.write_row(row)
    finally:
        cursor.close()
