"""``python -m store prune`` and the prune that ends the daily snapshot: thinning old top 10s to one day
a week as the retention setting asks (``services.jobs.retention``)."""

from __future__ import annotations

import argparse
from datetime import UTC, date, datetime

from services.cli.common import STANDARD_LINES, Lines, open_store
from services.jobs.exit_codes import EXIT_OK, EXIT_USAGE
from services.jobs.retention import OFF, prune_history
from store.history import HistoryStore
from store.retention import RetentionSettingError


def add_prune_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser], url_help: str) -> None:
    prune = commands.add_parser(
        "prune",
        help="keep top 10s older than [history] keep_daily_days one day a week (every account)",
    )
    prune.add_argument(
        "--dry-run", action="store_true", help="say how many rows would be removed, remove nothing"
    )
    prune.add_argument("--database-url", help=url_help)


def prune_command(args: argparse.Namespace) -> int:
    with open_store(args.database_url) as store:
        return prune_now(store, datetime.now(UTC).date(), dry_run=args.dry_run)


def prune_now(
    store: HistoryStore, today: date, *, dry_run: bool = False, lines: Lines = STANDARD_LINES
) -> int:
    """Prune as the setting asks and say what was done; the exit code (usage when the setting is unusable)."""
    try:
        outcome = prune_history(store, today, dry_run=dry_run, progress=lines.say)
    except RetentionSettingError as exc:
        lines.say(f"Cannot prune: {exc}")
        return EXIT_USAGE
    lines.out(OFF if outcome is None else outcome.summary)
    return EXIT_OK


def prune_after_snapshot(store: HistoryStore, day: date, lines: Lines) -> bool:
    """The daily job's last step; False when the setting is unusable (the job then exits as failed)."""
    try:
        outcome = prune_history(store, day, progress=lines.say)
    except RetentionSettingError as exc:
        lines.say(f"Old top 10s not pruned: {exc}")
        return False
    if outcome is not None:
        lines.say(outcome.summary)
    return True
