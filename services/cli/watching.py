"""``python -m store watch add|remove|list|import``: what the daily snapshot records."""

from __future__ import annotations

import argparse
import sys
from datetime import UTC, datetime

from client import ApiClient
from client.settings import key_fingerprint
from services.cli.common import CannotStart, api_settings, open_store, say
from services.jobs.exit_codes import EXIT_USAGE


def add_watch_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser], url_help: str) -> None:
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


def watch_command(args: argparse.Namespace) -> int:
    from services.jobs import watch, watch_import

    settings, key = api_settings()
    account = key_fingerprint(key)
    text = _import_text(args.file) if args.action == "import" else ""
    with open_store(args.database_url) as store:
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
                    return watch.add(store, client, account, day, one, say)
                return watch_import.import_file(store, client, account, day, text, say)
        except watch.Refused as exc:
            say(f"Not watched: {exc}.")
            return EXIT_USAGE


def _import_text(name: str) -> str:
    """The file to import (``-``: standard input); ``CannotStart`` when it is too big or cannot be read."""
    from services.jobs.watch_import import FileRefused, file_text

    try:
        return file_text(name, sys.stdin.buffer)
    except FileRefused as exc:
        raise CannotStart(str(exc)) from None
