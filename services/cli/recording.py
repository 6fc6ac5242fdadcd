"""The commands that record and send: ``upgrade``, ``snapshot`` (and the alerts after it), ``alerts``,
``digest`` and ``reports``."""

from __future__ import annotations

import argparse
from datetime import UTC, date, datetime

from client import ApiClient
from client.safe_urls import display_url
from client.settings import key_fingerprint
from services.cli.common import (
    STANDARD_LINES,
    CannotStart,
    Lines,
    alert_config,
    api_settings,
    open_store,
    say,
    team_account,
    tell,
    usable_alert_config,
)
from services.cli.retention import prune_after_snapshot
from services.jobs.alerts import after_snapshot, run_alerts
from services.jobs.exit_codes import EXIT_FAILED, EXIT_OK, EXIT_USAGE
from services.jobs.snapshot import SnapshotJob, TooManyCalls
from services.reports.feeds import refresh_after_snapshot
from store.history import HistoryStore
from store.migrations import current_revision


def upgrade_command(args: argparse.Namespace) -> int:
    with open_store(args.database_url) as store:
        revision = current_revision(store.engine)
        print(f"The history database at {store.url_for_display} is up to date (schema {revision}).")
    return EXIT_OK


def snapshot_command(args: argparse.Namespace) -> int:
    if args.max_calls is not None and args.max_calls < 0:
        raise CannotStart("--max-calls is a number of calls, 0 or more.")
    settings, key = api_settings()
    store = open_store(args.database_url)
    day = args.as_of or datetime.now(UTC).date()
    with store:
        return record_snapshot(
            store,
            settings.api_base,
            key,
            day,
            timeout_s=settings.timeout_s,
            workers=max(1, args.workers),
            max_calls=args.max_calls,
        )


def record_snapshot(
    store: HistoryStore,
    api_base: str,
    key: str,
    day: date,
    *,
    timeout_s: float,
    workers: int = 8,
    lines: Lines = STANDARD_LINES,
    max_calls: int | None = None,
) -> int:
    """The snapshot of ``key``'s watchlist for ``day``, its alerts, and its lines; the exit code (a run
    over ``max_calls`` reads no subject, evaluates no alert and exits ``EXIT_USAGE``, saying why)."""
    lines.say(f"Recording {day.isoformat()} from {display_url(api_base)} into {store.url_for_display}")
    account = key_fingerprint(key)
    with ApiClient(api_base, key, timeout=timeout_s, max_retries=0) as client:
        job = SnapshotJob(
            store, client, account, day, progress=lines.say, workers=workers, max_calls=max_calls
        )
        try:
            report = job.run()
        except TooManyCalls as refused:
            lines.say(str(refused))
            return EXIT_USAGE
    alerts_ok = _alerts_after_snapshot(store, account, day, lines)
    refresh_after_snapshot(store, account, day, lines.say)
    pruned_ok = prune_after_snapshot(store, day, lines)
    for failure in report.failures:
        lines.say(f"failed: {failure}")
    for waiting in report.waiting:
        lines.say(f"waiting: {waiting}")
    for skipped in report.skipped:
        lines.say(f"skipped: {skipped}")
    lines.out(report.summary)
    return EXIT_OK if report.ok and alerts_ok and pruned_ok else EXIT_FAILED


def _alerts_after_snapshot(store: HistoryStore, account: str, day: date, lines: Lines) -> bool:
    """Evaluate the recorded day's alerts and deliver them; False when the alert settings are unusable."""
    config = alert_config()
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
    config = usable_alert_config()
    team = team_account()
    with open_store(args.database_url) as store:
        run = run_alerts(store, config, team=team, as_of=args.as_of, days=args.days, progress=say)
    print(f"{run.alerts_line}; {run.webhook_line}", flush=True)
    if run.no_team:
        return EXIT_USAGE
    return EXIT_OK if run.ok else EXIT_FAILED


def digest_command(args: argparse.Namespace) -> int:
    from services.jobs.digest import run_digest

    config = usable_alert_config()
    team = team_account()
    with open_store(args.database_url) as store:
        return run_digest(
            store,
            config,
            team=team,
            as_of=args.as_of or datetime.now(UTC).date(),
            days=args.days,
            output=args.output,
            progress=say,
        )


def reports_command(args: argparse.Namespace) -> int:
    from services.jobs.reports import run_reports

    config = usable_alert_config()
    team = team_account()
    with open_store(args.database_url) as store:
        today = args.as_of or datetime.now(UTC).date()
        return run_reports(store, config.email, team=team, today=today, say=say, out=tell)


def draw_reports_command(args: argparse.Namespace) -> int:
    from services.jobs.draw_ahead import draw_ahead

    team = team_account()
    if team is None:
        raise CannotStart("No API key is configured: the reports drawn ahead are the deployment account's.")
    with open_store(args.database_url) as store:
        today = args.as_of or datetime.now(UTC).date()
        return draw_ahead(store, team, today, say=say)
