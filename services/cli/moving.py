"""The commands that move a whole history: ``copy --to URL`` (into another, empty database),
``export --to DIR`` (CSV files and a manifest) and ``import --from DIR`` (into an empty database).
Their work is ``services.moving``; here are their arguments and what a refusal becomes (exit code 2)."""

from __future__ import annotations

import argparse
import os
import signal
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from services.cli.common import STANDARD_LINES, CannotStart, open_store, say
from store.config import normalise_url

if TYPE_CHECKING:
    from services.moving.copying import AfterBatch

TARGET_HELP = "the new, empty database to copy into (sqlite:///path or postgresql+psycopg://user@host/db)"


def add_moving_parsers(commands: argparse._SubParsersAction[argparse.ArgumentParser], url_help: str) -> None:
    copy = commands.add_parser(
        "copy", help="copy the whole history into a new, empty database (resumable, verified by row counts)"
    )
    copy.add_argument("--to", required=True, metavar="URL", help=TARGET_HELP)
    copy.add_argument("--database-url", help=url_help)
    exported = commands.add_parser(
        "export", help="write the whole history into a folder: one CSV file per table and a manifest"
    )
    exported.add_argument("--to", required=True, type=Path, metavar="DIR", help="a new or empty folder")
    exported.add_argument("--database-url", help=url_help)
    imported = commands.add_parser("import", help="load an exported history into a new, empty database")
    imported.add_argument("--from", dest="source", required=True, type=Path, metavar="DIR", help="the export")
    imported.add_argument("--database-url", help=url_help)
    for parser in (copy, exported, imported):
        parser.add_argument("--batch-rows", type=_batch_rows, default=5_000, help=argparse.SUPPRESS)
    for parser in (copy, imported):  # a test stops the move there, as a kill would
        parser.add_argument("--stop-after-batches", type=int, help=argparse.SUPPRESS)


def _batch_rows(text: str) -> int:
    try:
        rows = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of rows") from None
    if not 1 <= rows <= 100_000:
        raise argparse.ArgumentTypeError("a batch is from 1 to 100,000 rows")
    return rows


def _killed_after(batches: int | None) -> AfterBatch | None:
    """What ``--stop-after-batches`` asks: the process killed (SIGKILL, no clean-up) after that many."""
    if batches is None:
        return None
    done = [0]

    def after_batch() -> None:
        done[0] += 1
        if done[0] >= batches:
            os.kill(os.getpid(), signal.SIGKILL)

    return after_batch


def _interrupted() -> int:
    say("Interrupted: the rows written so far are kept; run the same command again to continue.")
    return 130


def _moved(move: Callable[[], int], *, resumable: bool = True) -> int:
    """Run one move (copy, export, import): a refusal is the command's "could not start" in its words;
    a resumable one stopped by Ctrl-C says how to continue (an export is not resumable: it stops as
    any command does)."""
    from services.moving import Refused

    try:
        return move()
    except Refused as exc:
        raise CannotStart(str(exc)) from None
    except KeyboardInterrupt:
        if not resumable:
            raise
        return _interrupted()


def copy_command(args: argparse.Namespace) -> int:
    from services.moving import copy_history
    from store.history import HistoryStore

    target_url = normalise_url(args.to)
    with open_store(args.database_url) as source, HistoryStore.open(target_url) as target:
        return _moved(
            lambda: copy_history(
                source,
                target,
                STANDARD_LINES,
                batch_rows=args.batch_rows,
                after_batch=_killed_after(args.stop_after_batches),
            )
        )


def export_command(args: argparse.Namespace) -> int:
    from services.moving import export_history

    with open_store(args.database_url) as source:
        return _moved(
            lambda: export_history(source, args.to, STANDARD_LINES, batch_rows=args.batch_rows),
            resumable=False,
        )


def import_command(args: argparse.Namespace) -> int:
    from services.moving import import_history

    with open_store(args.database_url) as target:
        return _moved(
            lambda: import_history(
                args.source,
                target,
                STANDARD_LINES,
                batch_rows=args.batch_rows,
                after_batch=_killed_after(args.stop_after_batches),
            )
        )
