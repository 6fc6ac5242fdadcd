"""The top-10 and keyword rows partitioned by month on PostgreSQL, so a period reads only its months.

Revision ID: 0014
Revises: 0013

On PostgreSQL, ``serp_results`` and ``keyword_snapshots`` become ``PARTITION BY RANGE (day)`` tables with
the same columns, unique keys and indexes, and one partition per month (``serp_results_2026_11``): a
month holding rows, plus the current and the next month (the daily job keeps the next one made ahead,
``store.partitions``). The primary key must hold the partition key, so it becomes (id, day); the ids
keep their sequence, so new rows go on numbering after the old ones. There is no DEFAULT partition.

How: the partitioned table is made under a staging name with its months, the rows are moved into it in
one ``INSERT … SELECT`` (PostgreSQL routes each row to its month's partition; month by month would read
the whole old table once per month, since no index starts with the day), the sequence passes to the new
table, the old table is dropped, the new one takes its name, and only then are the keys and indexes
built, on the filled partitions (faster than keeping them up to date row by row). All in the upgrade's
one transaction: a failure leaves the old table as it was. On a large history this reads and writes
every row once and builds every index again: minutes for tens of millions of rows.

On SQLite nothing changes: it has no partitions, and its tables stay one each.
"""

from __future__ import annotations

from datetime import UTC, date, datetime

from alembic import op
from sqlalchemy import Connection, text

from store.partitions import month_of, next_month, partition_ddl

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None

#: Per table: its unique key's columns and its indexes (name, columns), as revisions 0002 to 0013 made them.
KEYS: dict[str, tuple[tuple[str, ...], tuple[tuple[str, tuple[str, ...]], ...]]] = {
    "serp_results": (
        ("account", "site", "keyword", "day", "position"),
        (
            ("ix_serp_results_account_day", ("account", "day")),
            ("ix_serp_results_account_site_day", ("account", "site", "day")),
        ),
    ),
    "keyword_snapshots": (
        ("account", "site", "keyword", "day"),
        (
            ("ix_keyword_snapshots_account_day", ("account", "day")),
            ("ix_keyword_snapshots_account_keyword_day", ("account", "keyword", "day")),
        ),
    ),
}


def _columns(names: tuple[str, ...]) -> str:
    return ", ".join(f'"{name}"' for name in names)


def _keys_and_indexes(conn: Connection, table: str, primary_key: tuple[str, ...]) -> None:
    unique, indexes = KEYS[table]
    conn.exec_driver_sql(
        f'ALTER TABLE "{table}" ADD CONSTRAINT "pk_{table}" PRIMARY KEY ({_columns(primary_key)})'
    )
    conn.exec_driver_sql(
        f'ALTER TABLE "{table}" ADD CONSTRAINT "uq_{table}_{"_".join(unique)}" UNIQUE ({_columns(unique)})'
    )
    for name, columns in indexes:
        conn.exec_driver_sql(f'CREATE INDEX "{name}" ON "{table}" ({_columns(columns)})')


def _move(conn: Connection, table: str, into: str) -> None:
    """Rows of ``table`` into ``into`` (same columns, same order), its id sequence with them; then
    ``table`` is dropped and ``into`` takes its name."""
    sequence = conn.execute(
        text("SELECT pg_get_serial_sequence(:table, 'id')"), {"table": table}
    ).scalar_one()
    conn.exec_driver_sql(f'INSERT INTO "{into}" SELECT * FROM "{table}"')  # noqa: S608  # our own names
    conn.exec_driver_sql(f'ALTER SEQUENCE {sequence} OWNED BY "{into}".id')
    conn.exec_driver_sql(f'DROP TABLE "{table}"')
    conn.exec_driver_sql(f'ALTER TABLE "{into}" RENAME TO "{table}"')


def upgrade() -> None:
    conn = op.get_bind()
    if conn.dialect.name != "postgresql":
        return
    this_month = month_of(datetime.now(UTC).date())
    for table in KEYS:
        staging = f"{table}_by_month"
        conn.exec_driver_sql(
            f'CREATE TABLE "{staging}" (LIKE "{table}" INCLUDING DEFAULTS) PARTITION BY RANGE (day)'
        )
        held = conn.exec_driver_sql(
            f"SELECT DISTINCT date_trunc('month', day)::date FROM \"{table}\""  # noqa: S608  # our own names
        )
        months: set[date] = {this_month, next_month(this_month), *held.scalars()}
        for month in sorted(months):
            conn.exec_driver_sql(partition_ddl(table, month, parent=staging))
        _move(conn, table, staging)
        _keys_and_indexes(conn, table, ("id", "day"))
        conn.exec_driver_sql(f'ANALYZE "{table}"')


def downgrade() -> None:
    conn = op.get_bind()
    if conn.dialect.name != "postgresql":
        return
    for table in KEYS:
        single = f"{table}_single"
        conn.exec_driver_sql(f'CREATE TABLE "{single}" (LIKE "{table}" INCLUDING DEFAULTS)')
        _move(conn, table, single)  # dropping the partitioned table drops its partitions
        _keys_and_indexes(conn, table, ("id",))
