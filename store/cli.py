"""The command line: ``python -m store upgrade`` and ``python -m store snapshot``.

Exit codes: 0 done; 1 the snapshot ran but some subjects failed (each is named on stderr); 2 it could
not start (no API key, a bad argument); 3 the history database cannot be reached or migrated. Progress
goes to stderr; the snapshot's last line on stdout is exactly ``recorded N, unchanged M, failed K``,
so cron mail and scripts can read the outcome.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from datetime import UTC, date, datetime

from pydantic import ValidationError

from client import ApiClient
from client.settings import Settings, key_fingerprint
from store.config import database_url, normalise_url
from store.engine import StoreUnavailable
from store.history import HistoryStore
from store.jobs.snapshot import SnapshotJob
from store.migrations import current_revision

EXIT_OK, EXIT_FAILURES, EXIT_USAGE, EXIT_DATABASE = 0, 1, 2, 3


def _day(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a day written YYYY-MM-DD") from None


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m store", description="The dashboard's history database.")
    commands = parser.add_subparsers(dest="command", required=True)
    url_help = "the history database (default: DASHBOARD_DATABASE_URL, secrets, else data/history.sqlite3)"
    upgrade = commands.add_parser("upgrade", help="apply the schema migrations")
    upgrade.add_argument("--database-url", help=url_help)
    snapshot = commands.add_parser("snapshot", help="record today's snapshot of the whole watchlist")
    snapshot.add_argument("--database-url", help=url_help)
    snapshot.add_argument(
        "--as-of", type=_day, help="the day to stamp the snapshot with (YYYY-MM-DD; default today, UTC)"
    )
    snapshot.add_argument("--workers", type=int, default=8, help=argparse.SUPPRESS)
    return parser


def _say(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def _open(url_argument: str | None) -> HistoryStore:
    return HistoryStore.open(normalise_url(url_argument) if url_argument else database_url())


def upgrade_command(args: argparse.Namespace) -> int:
    try:
        store = _open(args.database_url)
    except StoreUnavailable as exc:
        _say(f"History database unavailable: {exc.reason}")
        return EXIT_DATABASE
    with store:
        revision = current_revision(store.engine)
        print(f"The history database at {store.url_for_display} is up to date (schema {revision}).")
    return EXIT_OK


def snapshot_command(args: argparse.Namespace) -> int:
    try:
        settings = Settings()
    except ValidationError as exc:
        fields = ", ".join(str(error["loc"][0]) for error in exc.errors())
        _say(
            f"The API settings could not be read ({fields}): "
            "check VERIFIEDDR_API_BASE and VERIFIEDDR_TIMEOUT."
        )
        return EXIT_USAGE
    if settings.api_key is None:
        _say(
            "No API key: set VERIFIEDDR_API_KEY (or api_key in .streamlit/secrets.toml) to the key whose "
            "watchlist should be recorded."
        )
        return EXIT_USAGE
    try:
        store = _open(args.database_url)
    except StoreUnavailable as exc:
        _say(f"History database unavailable: {exc.reason}")
        return EXIT_DATABASE
    key = settings.api_key.get_secret_value()
    day = args.as_of or datetime.now(UTC).date()
    _say(f"Recording {day.isoformat()} from {settings.api_base} into {store.url_for_display}")
    with store, ApiClient(settings.api_base, key, timeout=settings.timeout_s, max_retries=0) as client:
        job = SnapshotJob(
            store, client, key_fingerprint(key), day, progress=_say, workers=max(1, args.workers)
        )
        try:
            report = job.run()
        except StoreUnavailable as exc:
            _say(f"History database unavailable: {exc.reason}")
            return EXIT_DATABASE
    for failure in report.failures:
        _say(f"failed: {failure}")
    print(report.summary, flush=True)
    return EXIT_OK if report.ok else EXIT_FAILURES


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        return upgrade_command(args) if args.command == "upgrade" else snapshot_command(args)
    except KeyboardInterrupt:
        _say("Interrupted: what was recorded so far is kept; the next run completes the day.")
        return 130
