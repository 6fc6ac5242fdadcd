"""``python -m store …``: each command's arguments, the function that runs it, and the exit code of
what stopped it (see ``services.cli``)."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from analysis.opportunities import TARGET_POSITION
from services.cli.common import URL_HELP, CannotStart, say
from services.cli.common import day_argument as _day
from services.cli.common import days_argument as _days
from services.cli.moving import add_moving_parsers, copy_command, export_command, import_command
from services.cli.reading import opportunities_command, report_command, visibility_command
from services.cli.recording import (
    alerts_command,
    digest_command,
    draw_reports_command,
    reports_command,
    snapshot_command,
    upgrade_command,
)
from services.cli.retention import add_prune_parser, prune_command
from services.cli.watching import add_watch_parser, watch_command
from services.jobs import report, visibility
from services.jobs.exit_codes import EXIT_DATABASE, EXIT_FAILED, EXIT_USAGE
from services.jobs.opportunities import DEFAULT_MAX_CALLS
from store.engine import StoreUnavailable


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m store", description="The dashboard's history database.")
    commands = parser.add_subparsers(dest="command", required=True)
    url_help = URL_HELP
    upgrade = commands.add_parser("upgrade", help="apply the schema migrations")
    upgrade.add_argument("--database-url", help=url_help)
    snapshot = commands.add_parser("snapshot", help="record today's snapshot of the whole watchlist")
    snapshot.add_argument("--database-url", help=url_help)
    snapshot.add_argument(
        "--as-of", type=_day, help="the day to stamp the snapshot with (YYYY-MM-DD; default today, UTC)"
    )
    snapshot.add_argument(
        "--max-calls",
        type=int,
        help="refuse the run (exit 2, nothing read) when it needs more calls than this; it says how many "
        "it needs before it starts (default: no limit)",
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
    add_watch_parser(commands, url_help)
    reports = commands.add_parser("reports", help="build and mail the scheduled monthly reports due")
    reports.add_argument("--as-of", type=_day, help="the day to act as (YYYY-MM-DD; default today, UTC)")
    reports.add_argument("--database-url", help=url_help)
    draw = commands.add_parser(
        "draw-reports", help="draw last month's and this month's report charts of every own site, ahead"
    )
    draw.add_argument("--as-of", type=_day, help="the day to act as (YYYY-MM-DD; default today, UTC)")
    draw.add_argument("--database-url", help=url_help)
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
    _opportunities_parser(commands, url_help)
    add_prune_parser(commands, url_help)
    add_moving_parsers(commands, url_help)
    return parser


def _opportunities_parser(
    commands: argparse._SubParsersAction[argparse.ArgumentParser], url_help: str
) -> None:
    found = commands.add_parser(
        "opportunities",
        help="one of your sites' keywords ranked by the clicks reaching the target position would bring "
        "for the DR it lacks (reads the service: suggestions, tracked keywords, missing top 10s)",
    )
    found.add_argument("--site", required=True, help="one of your sites (a domain)")
    found.add_argument(
        "--target",
        type=int,
        default=TARGET_POSITION,
        help=f"the position aimed for (default {TARGET_POSITION})",
    )
    found.add_argument(
        "--max-calls",
        type=int,
        default=DEFAULT_MAX_CALLS,
        help="the most keyword reports (one call each) to read for keywords without a recorded top 10 "
        f"(default {DEFAULT_MAX_CALLS})",
    )
    found.add_argument("--csv", action="store_true", help="as CSV, every column (formula-defused)")
    found.add_argument("--database-url", help=url_help)


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
        "opportunities": opportunities_command,
        "reports": reports_command,
        "draw-reports": draw_reports_command,
        "prune": prune_command,
        "copy": copy_command,
        "export": export_command,
        "import": import_command,
    }
    try:
        return commands[args.command](args)
    except CannotStart as exc:
        say(str(exc))
        return EXIT_USAGE
    except StoreUnavailable as exc:
        say(f"History database unavailable: {exc.reason}")
        return EXIT_DATABASE
    except KeyboardInterrupt:
        say("Interrupted: what was recorded so far is kept; the next run completes the day.")
        return 130
    except Exception as exc:  # a bug must still end in words a cron mail can be read by, not a traceback
        say(
            f"The {args.command} command stopped unexpectedly ({type(exc).__name__}); what was recorded "
            "so far is kept. Please report this with the lines above."
        )
        return EXIT_FAILED
