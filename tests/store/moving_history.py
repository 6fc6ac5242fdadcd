"""A history to move, and how to tell that two databases hold the same one.

``fill_history`` records the sandbox's demo history (180 days of the demo key's sites, competitors,
Trust Maps and watched keywords' top 10s) into a database and then gives every table of the app rows
of awkward values, made from each column's type: text with quotes, commas, a newline and non-ASCII
letters; an empty text beside a missing one (NULL); floats that only an exact round trip keeps
(``0.1 + 0.2``, ``1e-300``); the largest whole numbers; a leap day; moments with microseconds; a PDF's
bytes. ``table_rows`` reads every table back in key order, moments in UTC, for comparing two databases
row by row.
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    Date,
    DateTime,
    Float,
    Integer,
    LargeBinary,
    String,
    Table,
    func,
    select,
)

from client.settings import key_fingerprint
from components.core.history.store import seed_demo_history
from sandbox import DEMO_KEY
from store import HistoryStore
from store.bulk import history_tables

ACCOUNT = key_fingerprint(DEMO_KEY)
DEMO_TODAY = date(2025, 1, 6)
#: How many awkward rows each table gets.
ODD_ROWS = 3


def _text(column: Any, n: int) -> str | None:
    if n == 1:
        return None if column.nullable else ""
    text = f'a "q", b\nü{n}' if n == 0 else f"\\N,{n}\r\n‽"
    length = getattr(column.type, "length", None)
    return text[:length] if length else text


def _odd_value(column: Any, n: int, referred: dict[str, Any]) -> Any:
    """The ``n``-th awkward value for ``column``: 1 is the empty one (NULL where allowed)."""
    if column.foreign_keys:
        return referred[next(iter(column.foreign_keys)).column.table.name]
    kind = column.type
    if n == 1 and column.nullable:
        return None
    if isinstance(kind, DateTime):
        return datetime(2024, 2, 29, 23, 59, 58, 123456 + n, tzinfo=UTC)
    if isinstance(kind, Date):
        return date(2024, 2, 29)
    if isinstance(kind, Boolean):
        return n != 1
    if isinstance(kind, BigInteger):
        return 2**62 + n
    if isinstance(kind, Integer):
        return 2**31 - 1 - n
    if isinstance(kind, Float):
        return (0.1 + 0.2, 0.0, 1e-300)[n]
    if isinstance(kind, LargeBinary):
        return b"%PDF-1.7\n\x00\xff\xfe" + bytes([n])
    if isinstance(kind, String):
        return _text(column, n)
    raise AssertionError(f"no awkward value for {column.table.name}.{column.name} ({kind!r})")


def add_odd_rows(store: HistoryStore) -> None:
    """``ODD_ROWS`` rows of awkward values in every table (a row a foreign key names is an existing one)."""
    store.partitions.ensure([date(2024, 2, 29)])  # the leap day's month, on PostgreSQL
    with store.engine.begin() as conn:
        for table in history_tables():
            referred = {
                key.column.table.name: conn.execute(select(func.min(key.column))).scalar_one()
                for column in table.columns
                for key in column.foreign_keys
            }
            for n in range(ODD_ROWS):
                row = {
                    column.name: _odd_value(column, n, referred)
                    for column in table.columns
                    if not _numbered(table, column)
                }
                for column in table.primary_key.columns:  # a text key: one of its own per row
                    if isinstance(column.type, String) and not column.foreign_keys:
                        row[column.name] = f"key-{n}"
                conn.execute(table.insert(), row)


def _numbered(table: Table, column: Any) -> bool:
    """A single whole-number key the database numbers itself."""
    key = list(table.primary_key.columns)
    return len(key) == 1 and key[0] is column and isinstance(column.type, Integer)


def fill_history(store: HistoryStore) -> None:
    seed_demo_history(store, ACCOUNT, DEMO_KEY, DEMO_TODAY)
    add_odd_rows(store)


def _plain(value: Any) -> Any:
    if isinstance(value, datetime):
        return (value if value.tzinfo else value.replace(tzinfo=UTC)).astimezone(UTC)
    return value


def table_rows(store: HistoryStore) -> dict[str, list[tuple[Any, ...]]]:
    """Every table's rows in key order, moments as UTC moments (SQLite keeps them without a zone)."""
    found: dict[str, list[tuple[Any, ...]]] = {}
    with store.engine.connect() as conn:
        for table in history_tables():
            rows = conn.execute(select(table).order_by(*table.primary_key.columns))
            found[table.name] = [tuple(_plain(value) for value in row) for row in rows]
    return found
