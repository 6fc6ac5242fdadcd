"""The command line: ``python -m store upgrade``, ``snapshot``, ``alerts``, ``digest``, ``watch``,
``visibility``, ``report`` (one site's month as a file) and ``reports`` (the scheduled monthly ones).

Exit codes: 0 done; 1 the snapshot ran but some subjects failed (each is named on stderr), or its alerts
could not be evaluated, or the webhook refused an alert, or the delivery pass ran out of time before
every due alert was sent (each is named); 2 it could not
start (no API key, a bad argument or alert setting; for ``alerts``, a webhook but no API key for the
deployment, whose account is the only one the team's channels carry) or ``watch add`` refused the
subject (an unlisted domain), or ``watch import`` refused its file (every bad line named; nothing
watched); 3 the history database cannot be reached or migrated. Progress goes to
stderr; the snapshot's last line on stdout is exactly ``recorded N, unchanged M, failed K`` (its alert
lines come before it), and the ``alerts`` command's is ``alerts: N new, M already known; webhook: …``,
so cron mail and scripts can read the outcome.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import ValidationError

from client import ApiClient
from client.safe_urls import display_url
from client.settings import Settings, key_fingerprint
from services.jobs import report, visibility
from services.jobs.alerts import after_snapshot, run_alerts
from services.jobs.exit_codes import EXIT_DATABASE, EXIT_FAILED, EXIT_OK, EXIT_USAGE
from services.jobs.snapshot import SnapshotJob
from services.reports.feeds import refresh_after_snapshot
from store.config import database_url, normalise_url
from store.engine import StoreUnavailable
from store.history import HistoryStore
from store.migrations import current_revision

if TYPE_CHECKING:
    from services.alerts.config import AlertConfig


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
    alerts = commands.add_parser(
        "alerts", help="evaluate the alert rules on the recorded history (no API requests) and deliver them"
    )
    alerts.add_argument("--database-url", help=url_help)
    alerts.add_argument(
        "--as-of", type=_day, help="the last day to evaluate (YYYY-MM-DD; default each account's latest day)"
    )
    alerts.add_argument("--days", type=_days, default=1, help="how many days ending --as-of (default 1)")
    digest = commands.add_parser("digest", help="send (or write) the weekly digest of alerts and moves")
    digest.add_argument("--database-url", help=url_help)
    digest.add_argument("--as-of", type=_day, help="the digest's last day (YYYY-MM-DD; default today, UTC)")
    digest.add_argument("--days", type=_days, default=7, help="how many days it covers (default 7)")
    digest.add_argument("--output", type=Path, help="write the HTML to this file instead of mailing it")
    _watch_parser(commands, url_help)
    reports = commands.add_parser("reports", help="build and mail the scheduled monthly reports due")
    reports.add_argument("--as-of", type=_day, help="the day to act as (YYYY-MM-DD; default today, UTC)")
    reports.add_argument("--database-url", help=url_help)
    market = commands.add_parser(
        "visibility", help="visibility and share of voice per day and domain, from the recorded top 10s"
    )
    market.add_argument(
        "--group", default="all", help="a tag, brand, non-brand, or all (default: every watched keyword)"
    )
    market.add_argument("--site", help="only the keywords watched for this site (default: every keyword)")
    market.add_argument("--days", type=_days, default=28, help="how many days ending --as-of (default 28)")
    market.add_argument("--as-of", type=_day, help="the last day (YYYY-MM-DD; default the latest recorded)")
    market.add_argument("--csv", action="store_true", help="as CSV: " + ",".join(visibility.CLI_COLUMNS))
    market.add_argument("--database-url", help=url_help)
    report.add_parser(commands, url_help)
    return parser


def _watch_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser], url_help: str) -> None:
    watch = commands.add_parser("watch", help="add, remove, list or import watched domains and keywords")
    actions = watch.add_subparsers(dest="action", required=True)
    site_help = "the site a keyword is measured for (default: your only site, if you have one)"
    add = actions.add_parser("add", help="watch a domain or keyword and record today's numbers")
    remove = actions.add_parser("remove", help="stop watching (what was recorded stays)")
    for action in (add, remove):
        action.add_argument("kind", choices=["domain", "keyword"])
        action.add_argument("subject", help="the domain, or the keyword (quote it)")
        action.add_argument(
            "--site", help=site_help if action is add else "the keyword's site (default: every)"
        )
    listing = actions.add_parser("list", help="everything watched, with its site and since when")
    listing.add_argument("--csv", action="store_true", help="as CSV: kind,subject,site,origin,added_at")
    load = actions.add_parser(
        "import", help="watch every row of a CSV file with columns kind,subject,site[,tags]"
    )
    load.add_argument("file", help="the CSV file (- for standard input)")
    for action in (add, remove, listing, load):
        action.add_argument("--database-url", help=url_help)


def _days(text: str) -> int:
    try:
        days = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of days") from None
    if not 1 <= days <= 366:
        raise argparse.ArgumentTypeError("the number of days is from 1 to 366")
    return days


def _say(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def _tell(line: str) -> None:
    print(line, flush=True)


class _CannotStart(Exception):
    """A command cannot start (exit code 2); the message says why in plain words, never a secret."""


def _open(url_argument: str | None) -> HistoryStore:
    """The history database; ``StoreUnavailable`` (exit code 3, said by ``main``) when it cannot be used."""
    return HistoryStore.open(normalise_url(url_argument) if url_argument else database_url())


def upgrade_command(args: argparse.Namespace) -> int:
    with _open(args.database_url) as store:
        revision = current_revision(store.engine)
        print(f"The history database at {store.url_for_display} is up to date (schema {revision}).")
    return EXIT_OK


def _alert_config() -> AlertConfig | str:
    """The alert settings in force, or why they cannot be used (plain words, never a secret)."""
    from services.alerts.config import AlertConfig, AlertConfigError

    try:
        return AlertConfig.load()
    except AlertConfigError as exc:
        return f"The alert settings cannot be used: {exc}"


def _usable_alert_config() -> AlertConfig:
    """The alert settings in force; ``_CannotStart`` when they cannot be used."""
    config = _alert_config()
    if isinstance(config, str):
        raise _CannotStart(config)
    return config


def _read_settings() -> Settings:
    """The API settings; ``_CannotStart`` when they cannot be read."""
    try:
        return Settings()
    except ValidationError as exc:
        fields = ", ".join(str(error["loc"][0]) for error in exc.errors())
        raise _CannotStart(
            f"The API settings could not be read ({fields}): "
            "check VERIFIEDDR_API_BASE and VERIFIEDDR_TIMEOUT."
        ) from None


def _api_settings() -> tuple[Settings, str]:
    """The API settings and key; ``_CannotStart`` when they cannot be read or there is no key."""
    settings = _read_settings()
    if settings.api_key is None:
        raise _CannotStart(
            "No API key: set VERIFIEDDR_API_KEY (or api_key in .streamlit/secrets.toml) to the key whose "
            "watchlist should be recorded."
        )
    return settings, settings.api_key.get_secret_value()


def team_account() -> str | None:
    """The deployment's own account: the fingerprint of the key in its environment or secrets, read
    exactly as the snapshot reads it (never the key itself); None when no key is configured. The team's
    channels (webhook, digest) carry this account only."""
    key = _read_settings().api_key
    return key_fingerprint(key.get_secret_value()) if key is not None else None


@dataclass(frozen=True)
class Lines:
    """Where a command's lines go: progress, failures and waits to ``say`` (stderr), its outcome lines
    to ``out`` (stdout, which cron mail and scripts read). A test running jobs at once gives each its own."""

    say: Callable[[str], None] = _say
    out: Callable[[str], None] = _tell


def snapshot_command(args: argparse.Namespace) -> int:
    settings, key = _api_settings()
    store = _open(args.database_url)
    day = args.as_of or datetime.now(UTC).date()
    with store:
        return record_snapshot(
            store, settings.api_base, key, day, timeout_s=settings.timeout_s, workers=max(1, args.workers)
        )


def record_snapshot(
    store: HistoryStore,
    api_base: str,
    key: str,
    day: date,
    *,
    timeout_s: float,
    workers: int = 8,
    lines: Lines = Lines(),
) -> int:
    """The snapshot of ``key``'s watchlist for ``day``, its alerts, and its lines; the exit code."""
    lines.say(f"Recording {day.isoformat()} from {display_url(api_base)} into {store.url_for_display}")
    account = key_fingerprint(key)
    with ApiClient(api_base, key, timeout=timeout_s, max_retries=0) as client:
        job = SnapshotJob(store, client, account, day, progress=lines.say, workers=workers)
        report = job.run()
    alerts_ok = _alerts_after_snapshot(store, account, day, lines)
    refresh_after_snapshot(store, account, day, lines.say)
    for failure in report.failures:
        lines.say(f"failed: {failure}")
    for waiting in report.waiting:
        lines.say(f"waiting: {waiting}")
    for skipped in report.skipped:
        lines.say(f"skipped: {skipped}")
    lines.out(report.summary)
    return EXIT_OK if report.ok and alerts_ok else EXIT_FAILED


def _alerts_after_snapshot(store: HistoryStore, account: str, day: date, lines: Lines) -> bool:
    """Evaluate the recorded day's alerts and deliver them; False when the alert settings are unusable."""
    config = _alert_config()
    if isinstance(config, str):
        lines.say(
            f"{config}; the day was recorded, its alerts were not evaluated (run python -m store alerts)."
        )
        return False
    run = after_snapshot(store, config, account, day, lines.say)
    lines.out(f"alerts: {run.new} new")
    if run.delivery is not None:
        lines.out(run.webhook_line)
    return run.ok


def alerts_command(args: argparse.Namespace) -> int:
    config = _usable_alert_config()
    team = team_account()
    with _open(args.database_url) as store:
        run = run_alerts(store, config, team=team, as_of=args.as_of, days=args.days, progress=_say)
    print(f"{run.alerts_line}; {run.webhook_line}", flush=True)
    if run.no_team:
        return EXIT_USAGE
    return EXIT_OK if run.ok else EXIT_FAILED


def digest_command(args: argparse.Namespace) -> int:
    from services.jobs.digest import run_digest

    config = _usable_alert_config()
    team = team_account()
    with _open(args.database_url) as store:
        return run_digest(
            store,
            config,
            team=team,
            as_of=args.as_of or datetime.now(UTC).date(),
            days=args.days,
            output=args.output,
            progress=_say,
        )


def reports_command(args: argparse.Namespace) -> int:
    from services.jobs.reports import run_reports

    config = _usable_alert_config()
    team = team_account()
    with _open(args.database_url) as store:
        today = args.as_of or datetime.now(UTC).date()
        return run_reports(store, config.email, team=team, today=today, say=_say, out=_tell)


def watch_command(args: argparse.Namespace) -> int:
    from services.jobs import watch, watch_import

    settings, key = _api_settings()
    account = key_fingerprint(key)
    text = _import_text(args.file) if args.action == "import" else ""
    with _open(args.database_url) as store:
        try:
            if args.action == "list":
                return watch.listing(store, account, args.csv, sys.stdout)
            if args.action == "remove":
                return watch.remove(store, account, args.kind, args.subject, args.site)
            day = datetime.now(UTC).date()
            with ApiClient(settings.api_base, key, timeout=settings.timeout_s, max_retries=0) as client:
                if args.action == "add":
                    mine = watch.own_sites_of(store, account)
                    one = watch.wanted(args.kind, args.subject, args.site, mine)
                    return watch.add(store, client, account, day, one, _say)
                return watch_import.import_file(store, client, account, day, text, _say)
        except watch.Refused as exc:
            _say(f"Not watched: {exc}.")
            return EXIT_USAGE


def visibility_command(args: argparse.Namespace) -> int:
    from analysis.market import CtrCurveError
    from client.errors import InvalidInputError
    from client.inputs import normalise_domain
    from services.market import load_ctr_curve

    _settings, key = _api_settings()
    try:
        ctr = load_ctr_curve()
    except CtrCurveError as exc:
        raise _CannotStart(f"The CTR curve cannot be used: {exc}") from None
    try:
        site = normalise_domain(args.site) if args.site else None
    except InvalidInputError as exc:
        raise _CannotStart(f"The site cannot be used: {exc}") from None
    with _open(args.database_url) as store:
        return visibility.run(
            store,
            key_fingerprint(key),
            ctr,
            visibility.Asked(site, args.days, args.as_of, group=" ".join(args.group.split()).lower()),
            as_csv=args.csv,
            out=sys.stdout,
            say=_say,
        )


def report_command(args: argparse.Namespace) -> int:
    _settings, key = _api_settings()
    site = " ".join(args.site.split()).lower()
    with _open(args.database_url) as store:
        return report.run(
            store, key_fingerprint(key), site=site, month=args.month, output=args.output, say=_say, tell=_tell
        )


def _import_text(name: str) -> str:
    """The file to import (``-``: standard input); ``_CannotStart`` when it is too big or cannot be read."""
    from services.jobs.watch_import import FileRefused, file_text

    try:
        return file_text(name, sys.stdin.buffer)
    except FileRefused as exc:
        raise _CannotStart(str(exc)) from None


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    commands = {
        "upgrade": upgrade_command,
        "snapshot": snapshot_command,
        "alerts": alerts_command,
        "digest": digest_command,
        "watch": watch_command,
        "visibility": visibility_command,
        "report": report_command,
        "reports": reports_command,
    }
    try:
        return commands[args.command](args)
    except _CannotStart as exc:
        _say(str(exc))
        return EXIT_USAGE
    except StoreUnavailable as exc:
        _say(f"History database unavailable: {exc.reason}")
        return EXIT_DATABASE
    except KeyboardInterrupt:
        _say("Interrupted: what was recorded so far is kept; the next run completes the day.")
        return 130
    except Exception as exc:  # a bug must still end in words a cron mail can be read by, not a traceback
        _say(
            f"The {args.command} command stopped unexpectedly ({type(exc).__name__}); what was recorded "
            "so far is kept. Please report this with the lines above."
        )
        return EXIT_FAILED
