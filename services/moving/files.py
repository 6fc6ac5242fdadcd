"""An exported history's files: one gzip-compressed CSV file per table, and ``manifest.json``.

The CSV follows PostgreSQL's own CSV convention (``COPY … FROM … (FORMAT csv, HEADER)`` reads it as it
is, so do pandas and spreadsheets): a header of column names, every value in double quotes, an empty
unquoted field for no value (NULL), so an empty text ``""`` and a missing one stay apart. Values are
written so that reading them back gives exactly what was stored:

- dates ``2025-01-06``; moments ``2025-01-06T05:30:00.123456+00:00``, always in UTC with the zone;
- whole numbers as digits; decimals in Python's shortest exact form (``0.1``, ``1e-07``), so a float
  read back is the same float; true and false as ``true`` and ``false``;
- text as it is (a newline or a quote inside a value stays inside its quotes); a file's bytes (a built
  report's PDF) in base64.

The manifest says which schema revision the rows are at, each table's file, row count and columns with
their kinds (``KINDS``), so an import can check it got every row of every table.
"""

from __future__ import annotations

import base64
import json
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any, TextIO

from sqlalchemy import Boolean, Date, DateTime, Float, Integer, LargeBinary, Table

from store.bulk import as_utc

MANIFEST = "manifest.json"
#: What the manifest says it is, so an import never mistakes another JSON file for one.
FORMAT = "authority-dashboard history export"
FORMAT_VERSION = 1
#: A field: quoted (its quotes doubled inside), or bare up to the next comma.
_FIELD = re.compile(r'"((?:[^"]+|"")*)"|([^,"]*)')


class BadFile(Exception):
    """A file of the export cannot be read as written; the message names it and why."""


def column_kind(column_type: Any) -> str:
    """How a column's values are written: ``datetime``, ``date``, ``boolean``, ``integer``, ``float``,
    ``bytes`` or ``text``."""
    for kind, types in KIND_TYPES:
        if isinstance(column_type, types):
            return kind
    return "text"


KIND_TYPES: tuple[tuple[str, type[Any] | tuple[type[Any], ...]], ...] = (
    ("datetime", DateTime),
    ("date", Date),
    ("boolean", Boolean),
    ("integer", Integer),
    ("float", Float),
    ("bytes", LargeBinary),
)

_WRITE: dict[str, Callable[[Any], str]] = {
    "datetime": lambda value: as_utc(value).isoformat(),
    "date": lambda value: value.isoformat(),
    "boolean": lambda value: "true" if value else "false",
    "integer": lambda value: str(int(value)),
    "float": lambda value: repr(float(value)),
    "bytes": lambda value: base64.b64encode(value).decode("ascii"),
    "text": str,
}

_READ: dict[str, Callable[[str], Any]] = {
    "datetime": lambda text: as_utc(datetime.fromisoformat(text)),
    "date": date.fromisoformat,
    "boolean": lambda text: {"true": True, "false": False}[text],
    "integer": int,
    "float": float,
    "bytes": lambda text: base64.b64decode(text, validate=True),
    "text": str,
}
KINDS = tuple(_WRITE)


def _quoted(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


def write_record(stream: TextIO, values: Iterable[str | None]) -> None:
    stream.write(",".join("" if value is None else _quoted(value) for value in values) + "\n")


def encoder(kinds: Sequence[str]) -> Callable[[Sequence[Any]], list[str | None]]:
    writers = [_WRITE[kind] for kind in kinds]
    return lambda row: [
        None if value is None else write(value) for write, value in zip(writers, row, strict=True)
    ]


def decoder(kinds: Sequence[str]) -> Callable[[Sequence[str | None]], list[Any]]:
    readers = [_READ[kind] for kind in kinds]
    return lambda fields: [
        None if text is None else read(text) for read, text in zip(readers, fields, strict=True)
    ]


def _fields(record: str) -> list[str | None]:
    found: list[str | None] = []
    at = 0
    while True:
        match = _FIELD.match(record, at)
        assert match is not None  # the bare alternative matches the empty string
        quoted, bare = match.groups()
        found.append(quoted.replace('""', '"') if quoted is not None else bare or None)
        at = match.end()
        if at == len(record):
            return found
        if record[at] != ",":
            raise ValueError(f"a quote where a value should end (character {at + 1})")
        at += 1


def read_records(stream: TextIO) -> Iterator[list[str | None]]:
    """The records of a CSV stream opened with ``newline=""`` (a value may span lines)."""
    pending = ""
    for line in stream:
        pending += line
        if pending.count('"') % 2:
            continue  # inside a quoted value that goes on on the next line
        yield _fields(pending.removesuffix("\n").removesuffix("\r"))
        pending = ""
    if pending:
        raise ValueError("the file ends inside a quoted value")


@dataclass(frozen=True)
class TableFile:
    """One table of an export: its file, its rows, and its columns with their kinds."""

    name: str
    file: str
    rows: int
    columns: tuple[tuple[str, str], ...]

    @classmethod
    def of(cls, table: Table, rows: int = 0) -> TableFile:
        return cls(
            table.name,
            f"{table.name}.csv.gz",
            rows,
            tuple((column.name, column_kind(column.type)) for column in table.columns),
        )


@dataclass(frozen=True)
class Manifest:
    revision: str
    exported_at: datetime
    tables: tuple[TableFile, ...]

    def write(self, folder: Path) -> None:
        content = {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "revision": self.revision,
            "exported_at": self.exported_at.astimezone(UTC).isoformat(),
            "tables": [
                {
                    "name": table.name,
                    "file": table.file,
                    "rows": table.rows,
                    "columns": [{"name": name, "kind": kind} for name, kind in table.columns],
                }
                for table in self.tables
            ],
        }
        (folder / MANIFEST).write_text(json.dumps(content, indent=2) + "\n", encoding="utf-8")

    @classmethod
    def read(cls, folder: Path) -> Manifest:
        path = folder / MANIFEST
        try:
            content = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise BadFile(
                f"{folder} has no {MANIFEST}: it is not an export of a history, or its export did not finish"
            ) from None
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise BadFile(f"{path} cannot be read: {exc}") from None
        if not isinstance(content, dict) or content.get("format") != FORMAT:
            raise BadFile(f"{path} is not the manifest of an exported history")
        if content.get("format_version") != FORMAT_VERSION:
            raise BadFile(f"{path} is of a format this version cannot read (made by a newer version?)")
        try:
            return cls(
                str(content["revision"]),
                datetime.fromisoformat(content["exported_at"]),
                tuple(
                    TableFile(
                        str(table["name"]),
                        Path(str(table["file"])).name,  # a file of the folder, never a path elsewhere
                        int(table["rows"]),
                        tuple((str(c["name"]), str(c["kind"])) for c in table["columns"]),
                    )
                    for table in content["tables"]
                ),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise BadFile(f"{path} lacks or garbles a part of the manifest ({exc})") from None
