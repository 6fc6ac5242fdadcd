"""``export`` (a whole history into a folder of CSV files and a manifest) and ``import`` (such a folder
into an empty database, checked against the manifest: the same schema revision, every table's rows).

An export streams each table into its file a batch at a time and writes the manifest last, so a folder
without one is an export that did not finish, which ``import`` refuses. An import keeps its progress on
the target as ``copy`` does (``store.bulk``): run again after a kill, it skips the rows of each file
already written and goes on.
"""

from __future__ import annotations

import gzip
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import Table

from analysis.wording import counted, whole_number
from services.jobs.exit_codes import EXIT_FAILED, EXIT_OK
from services.moving.copying import (
    BATCH_ROWS,
    AfterBatch,
    Lines,
    Meter,
    Refused,
    fill_table,
    prepare_target,
    verify,
)
from services.moving.files import (
    KINDS,
    MANIFEST,
    BadFile,
    Manifest,
    TableFile,
    decoder,
    encoder,
    read_records,
    write_record,
)
from services.moving.readahead import read_ahead
from store.bulk import history_tables
from store.history import HistoryStore
from store.migrations import HEAD_REVISION

#: gzip's level: most of the size saved at a fraction of level 9's time.
GZIP_LEVEL = 6


def export_history(source: HistoryStore, folder: Path, lines: Lines, *, batch_rows: int = BATCH_ROWS) -> int:
    """Write every table of ``source`` into ``folder`` (new or empty of any export); exit code 0 when each
    file holds the rows the source counts, 1 when the history changed while it was read (named)."""
    if (folder / MANIFEST).exists() or any(folder.glob("*.csv.gz")):
        raise Refused(
            f"{folder} already holds an export: give a new folder, so no export is mixed with another."
        )
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise Refused(f"The folder {folder} cannot be made: {exc.strerror or exc}") from None
    tables = history_tables()
    totals = source.bulk.counts(tables)
    lines.say(
        f"exporting {counted(sum(totals.values()), 'row')} of {counted(len(tables), 'table')} from "
        f"{source.url_for_display} to {folder}"
    )
    written: list[TableFile] = []
    for table in tables:
        written.append(_export_table(source, table, folder, totals[table.name], lines, batch_rows))
    Manifest(HEAD_REVISION, datetime.now(UTC), tuple(written)).write(folder)
    changed = [file for file in written if file.rows != totals[file.name]]
    for file in changed:
        lines.say(
            f"{file.name}: {whole_number(totals[file.name])} rows counted at the start, "
            f"{whole_number(file.rows)} written"
        )
    if changed:
        lines.out(
            f"exported to {folder}, but {counted(len(changed), 'table')} changed while being read: "
            "stop the app and the jobs and export again"
        )
        return EXIT_FAILED
    lines.out(
        f"exported {counted(sum(totals.values()), 'row')} of {counted(len(tables), 'table')} to {folder}"
    )
    return EXIT_OK


def _export_table(
    source: HistoryStore, table: Table, folder: Path, total: int, lines: Lines, batch_rows: int
) -> TableFile:
    shape = TableFile.of(table)
    names = [name for name, _kind in shape.columns]
    encode = encoder([kind for _name, kind in shape.columns])
    meter = Meter(lines, table.name, total, started_with=0)
    rows = 0
    with gzip.open(
        folder / shape.file, "wt", encoding="utf-8", newline="", compresslevel=GZIP_LEVEL
    ) as stream:
        write_record(stream, names)
        for batch in read_ahead(source.bulk.batches(table, batch_rows)):
            for row in batch:
                write_record(stream, encode(row))
            rows += len(batch)
            meter.advance(rows)
    meter.advance(rows, last=True)
    return TableFile(shape.name, shape.file, rows, shape.columns)


def _checked_manifest(folder: Path) -> tuple[Manifest, list[Table]]:
    """The manifest, checked against this version's schema; ``Refused`` saying why it cannot be imported."""
    try:
        manifest = Manifest.read(folder)
    except BadFile as exc:
        raise Refused(str(exc)) from None
    if manifest.revision != HEAD_REVISION:
        raise Refused(
            f"The export in {folder} is at schema revision {manifest.revision}; this version of the "
            f"dashboard is at {HEAD_REVISION}. Import it with the version that exported it, then upgrade "
            "that database with this version (python -m store upgrade), or export again with this version."
        )
    tables = history_tables()
    expected = {table.name: TableFile.of(table).columns for table in tables}
    found = {file.name: file.columns for file in manifest.tables}
    if found != expected or any(kind not in KINDS for columns in found.values() for _n, kind in columns):
        differing = sorted(
            name for name in expected.keys() | found.keys() if expected.get(name) != found.get(name)
        )
        raise Refused(
            f"The export in {folder} does not have this version's tables and columns "
            f"(differing: {', '.join(differing) or 'column kinds'}): it cannot be imported as it is."
        )
    return manifest, tables


def _file_batches(
    folder: Path, file: TableFile, skip: int, batch_rows: int
) -> Iterator[list[tuple[Any, ...]]]:
    """A table's rows from its file, after the first ``skip``, ``batch_rows`` at a time."""
    names = [name for name, _kind in file.columns]
    decode = decoder([kind for _name, kind in file.columns])
    path = folder / file.file
    batch: list[tuple[Any, ...]] = []
    line = 1
    try:
        with gzip.open(path, "rt", encoding="utf-8", newline="") as stream:
            records = read_records(stream)
            header = next(records, None)
            if header != names:
                raise BadFile(f"{path}: its header is not the manifest's columns of {file.name}")
            for number, record in enumerate(records, start=1):
                line = number + 1
                if number <= skip:
                    continue
                if len(record) != len(names):
                    raise BadFile(f"{path}, record {line}: {len(record)} values for {len(names)} columns")
                batch.append(tuple(decode(record)))
                if len(batch) >= batch_rows:
                    yield batch
                    batch = []
    except FileNotFoundError:
        raise BadFile(f"{path} is missing from the export") from None
    except (OSError, EOFError, UnicodeDecodeError, ValueError, KeyError) as exc:
        raise BadFile(f"{path}, near record {line}: {exc}") from None
    if batch:
        yield batch


def import_history(
    folder: Path,
    target: HistoryStore,
    lines: Lines,
    *,
    batch_rows: int = BATCH_ROWS,
    after_batch: AfterBatch | None = None,
) -> int:
    """Load the export in ``folder`` into ``target`` (empty, or an unfinished import of this folder);
    ``Refused`` when either cannot be used. Exit code 0 when every table holds the manifest's rows."""
    manifest, tables = _checked_manifest(folder)
    files = {file.name: file for file in manifest.tables}
    progress = prepare_target(target, tables, f"the export in {folder.resolve()}")
    totals = {name: file.rows for name, file in files.items()}
    lines.say(
        f"importing {counted(sum(totals.values()), 'row')} of {counted(len(tables), 'table')} from {folder} "
        f"to {target.url_for_display}"
    )
    started, written = time.monotonic(), 0
    for table in tables:
        state = progress[table.name]
        if state.finished:
            continue
        batches = read_ahead(_file_batches(folder, files[table.name], state.copied, batch_rows))
        try:
            written += fill_table(target, table, totals[table.name], state, batches, lines, after_batch)
        except BadFile as exc:
            raise Refused(
                f"{exc}; the rows before it are kept, and an import run again goes on from there"
            ) from None
    elapsed = max(time.monotonic() - started, 1e-6)
    lines.say(f"imported {counted(written, 'row')} in {whole_number(elapsed)} s")
    target.bulk.fix_sequences(tables)
    target.bulk.gather_statistics(tables)
    return verify(target, tables, totals, lines, "the export")
