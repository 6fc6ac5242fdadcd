"""``copy``: a whole history from one database into an empty one, table by table, in batches.

The target is brought to the newest schema by the migrations (``HistoryStore.open``), then checked:
a database that already holds rows is refused (``Refused``), unless those rows are an unfinished copy
of this same source, which is continued: each table from the row after the last one written (its
primary key, kept with the batch on the target, ``store.bulk``), never copied twice. Then the id
sequences are moved past the copied ids and the tables' statistics gathered (PostgreSQL: the first
reads of the moved history are planned for its size), and every table's row count is compared with the
source's: a mismatch is named, and the copy's bookkeeping stays, so a run again copies the rows added
since (the app was left running) and checks again.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from sqlalchemy import Table

from analysis.wording import counted, whole_number
from services.jobs.exit_codes import EXIT_FAILED, EXIT_OK
from services.moving.readahead import read_ahead
from store.bulk import TableProgress, history_tables
from store.history import HistoryStore

#: Rows per batch: one transaction on the target each, a few MiB of memory at most.
BATCH_ROWS = 5_000
#: Seconds between two progress lines of one table (a table's last line is always said).
PROGRESS_EVERY_S = 2.0

#: Called after each batch is written (the tests stop a copy there, as a kill would).
AfterBatch = Callable[[], None]
#: Where a line goes: progress and mismatches to stderr, the outcome to stdout (``services.cli.Lines``).
Say = Callable[[str], None]


class Lines(Protocol):
    """Where a move's lines go (``services.cli.Lines`` is one): ``say`` progress and what went wrong,
    ``out`` the outcome scripts read."""

    @property
    def say(self) -> Say: ...

    @property
    def out(self) -> Say: ...


class Refused(Exception):
    """The target cannot take the history as asked; the message says why and what to do instead."""


@dataclass
class Meter:
    """Progress lines of one table: rows so far of its total, and the rows per second of this run."""

    lines: Lines
    table: str
    total: int
    started_with: int
    started: float = field(default_factory=time.monotonic)
    said_at: float = field(default_factory=time.monotonic)
    said_rows: int = -1

    def advance(self, done: int, *, last: bool = False) -> None:
        """Say where the table stands, at most every ``PROGRESS_EVERY_S`` and once at its end."""
        now = time.monotonic()
        if (not last and now - self.said_at < PROGRESS_EVERY_S) or (last and done == self.said_rows):
            return
        self.said_at, self.said_rows = now, done
        elapsed = max(now - self.started, 1e-6)
        rate = (done - self.started_with) / elapsed
        self.lines.say(
            f"{self.table}: {whole_number(done)} / {whole_number(self.total)} rows, "
            f"{whole_number(rate)} rows a second"
        )


def prepare_target(target: HistoryStore, tables: Sequence[Table], source: str) -> dict[str, TableProgress]:
    """Where each table of the target stands: from nothing on an empty database, from where it stopped
    on an unfinished move from ``source``; ``Refused`` for a database holding any other history."""
    progress = target.bulk.progress(tables)
    if progress is not None:
        others = sorted({state.source for state in progress.values()} - {source})
        if others:
            raise Refused(
                f"The database at {target.url_for_display} holds an unfinished move from {others[0]}, not "
                f"from {source}: run that move again to finish it, or start over on a new, empty database."
            )
    else:
        holding = target.bulk.holding_rows(tables)
        if holding:
            raise Refused(
                f"The database at {target.url_for_display} already holds a history "
                f"({counted(len(holding), 'table')} with rows, among them {', '.join(holding[:3])}): "
                "nothing was copied. A history moves into a new, empty database only, so that no rows are "
                "mixed or written over; create one and give its URL."
            )
    target.bulk.begin_progress(tables, source)
    found = target.bulk.progress(tables)
    assert found is not None  # just begun
    return found


def fill_table(
    target: HistoryStore,
    table: Table,
    total: int,
    state: TableProgress,
    batches: Iterable[list[tuple[Any, ...]]],
    lines: Lines,
    after_batch: AfterBatch | None = None,
) -> int:
    """Write the batches into ``table`` after the ``state.copied`` rows already there; rows written."""
    copied = state.copied
    meter = Meter(lines, table.name, total, started_with=copied)
    if state.copied:
        lines.say(f"{table.name}: {whole_number(copied)} rows were copied before; continuing after them")
    for rows in batches:
        copied += len(rows)
        target.bulk.write_batch(table, rows, copied)
        meter.advance(copied)
        if after_batch is not None:
            after_batch()
    target.bulk.finish_table(table)
    meter.advance(copied, last=True)
    return copied - state.copied


def verify(
    target: HistoryStore, tables: Sequence[Table], expected: Mapping[str, int], lines: Lines, whose: str
) -> int:
    """Compare every table's rows on the target with ``expected``: exit code 0 when all match (the move's
    bookkeeping is then removed), else 1 with each mismatch named."""
    found = target.bulk.counts(tables)
    wrong = [name for name in expected if found.get(name) != expected[name]]
    for name in wrong:
        lines.say(
            f"{name}: {whole_number(expected[name])} rows in {whose}, {whole_number(found.get(name, 0))} "
            "in the new database"
        )
    if wrong:
        lines.out(
            f"verified: {counted(len(wrong), 'table')} of {len(expected)} do not match {whose} "
            "(named above); run the same command again to finish the move"
        )
        return EXIT_FAILED
    target.bulk.end_progress()
    lines.out(
        f"verified: {counted(len(expected), 'table')}, {counted(sum(expected.values()), 'row')}, "
        f"every table's row count matches {whose}"
    )
    return EXIT_OK


def copy_history(
    source: HistoryStore,
    target: HistoryStore,
    lines: Lines,
    *,
    batch_rows: int = BATCH_ROWS,
    after_batch: AfterBatch | None = None,
) -> int:
    """Copy every table of ``source`` into ``target`` (empty, or an unfinished copy of ``source``);
    ``Refused`` when the target holds another history. Exit code 0 when verified, 1 on a mismatch."""
    if source.url == target.url:
        raise Refused("The database to copy to is the configured database itself: give another one.")
    tables = history_tables()
    progress = prepare_target(target, tables, source.url_for_display)
    totals = source.bulk.counts(tables)
    lines.say(
        f"copying {counted(sum(totals.values()), 'row')} of {counted(len(tables), 'table')} from "
        f"{source.url_for_display} to {target.url_for_display}"
    )
    started = time.monotonic()
    written = 0
    for table in tables:
        # A table copied to its end is read on from its last key too: rows added to the source since
        # (the app was left running) are copied by a run again, and the counts can then match.
        state = progress[table.name]
        batches = read_ahead(source.bulk.batches(table, batch_rows, after=state.last_key))
        written += fill_table(target, table, totals[table.name], state, batches, lines, after_batch)
    elapsed = max(time.monotonic() - started, 1e-6)
    lines.say(
        f"copied {counted(written, 'row')} in {whole_number(elapsed)} s "
        f"({whole_number(written / elapsed)} rows a second)"
    )
    target.bulk.fix_sequences(tables)
    target.bulk.gather_statistics(tables)
    return verify(target, tables, totals, lines, "the source")
