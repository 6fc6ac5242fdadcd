"""The commands that print what the history and the service say: ``visibility`` (the market figures)
and ``report`` (one site's month as a file)."""

from __future__ import annotations

import argparse
import sys

from client.settings import key_fingerprint
from services.cli.common import CannotStart, api_settings, open_store, say, tell
from services.jobs import report, visibility


def team_curve() -> tuple[float, ...]:
    """The team's CTR curve (``[visibility] ctr``); CannotStart saying what is wrong with it."""
    from analysis.market import CtrCurveError
    from services.market import load_ctr_curve

    try:
        return load_ctr_curve()
    except CtrCurveError as exc:
        raise CannotStart(f"The CTR curve cannot be used: {exc}") from None


def visibility_command(args: argparse.Namespace) -> int:
    from client.errors import InvalidInputError
    from client.inputs import normalise_domain

    _settings, key = api_settings()
    ctr = team_curve()
    try:
        site = normalise_domain(args.site) if args.site else None
    except InvalidInputError as exc:
        raise CannotStart(f"The site cannot be used: {exc}") from None
    with open_store(args.database_url) as store:
        return visibility.run(
            store,
            key_fingerprint(key),
            ctr,
            visibility.Asked(site, args.days, args.as_of, group=" ".join(args.group.split()).lower()),
            as_csv=args.csv,
            out=sys.stdout,
            say=say,
        )


def report_command(args: argparse.Namespace) -> int:
    _settings, key = api_settings()
    site = " ".join(args.site.split()).lower()
    with open_store(args.database_url) as store:
        return report.run(
            store, key_fingerprint(key), site=site, month=args.month, output=args.output, say=say, tell=tell
        )


def opportunities_command(args: argparse.Namespace) -> int:
    from client import ApiClient
    from client.errors import InvalidInputError
    from client.inputs import normalise_domain
    from services.jobs import opportunities
    from store.watchlist import own_sites

    settings, key = api_settings()
    ctr = team_curve()
    if not 1 <= args.target <= len(ctr):
        raise CannotStart(f"The target position must be from 1 to {len(ctr)} (the CTR curve's positions).")
    if args.max_calls < 0:
        raise CannotStart("--max-calls is a number of calls, 0 or more.")
    try:
        site = normalise_domain(args.site)
    except InvalidInputError as exc:
        raise CannotStart(f"The site cannot be used: {exc}") from None
    account = key_fingerprint(key)
    with open_store(args.database_url) as store:
        mine = own_sites(store.watchlist.entries(account))
        if mine and site not in mine:
            raise CannotStart(f"{site} is not one of your sites ({', '.join(mine)}).")
        with ApiClient(settings.api_base, key, timeout=settings.timeout_s, max_retries=0) as client:
            return opportunities.run(
                store,
                client,
                account,
                site,
                ctr=ctr,
                target=args.target,
                max_calls=args.max_calls,
                as_csv=args.csv,
                out=sys.stdout,
                say=say,
            )
