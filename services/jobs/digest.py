"""The ``digest`` command's work: read each account's period from the store, render, send or write.

The digest covers the deployment's own account only (``team``: the fingerprint of the key in its
environment or secrets), in a section named by the account's own sites: the store also holds the
history of keys people entered in the app, and those stay in the app. It is one e-mail to
``[alerts.email] to`` (or one HTML file with ``--output``, which needs no mail server and wins over
e-mail when both are there). Exit codes as the other commands: 0 sent or written, 1 the mail server
or the file refused, 2 nowhere to send it or no deployment key (nothing is sent), 3 the history
database could not be read.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, timedelta
from pathlib import Path

import pandas as pd

from analysis.wording import counted, named_first
from services.alerts.config import AlertConfig
from services.alerts.digest import (
    AccountDigest,
    Digest,
    domain_moves,
    keyword_moves,
    keyword_series,
    note_lines,
    period,
    render_html,
)
from services.alerts.digest_text import render_text
from services.delivery.mail import MailError, build_message, send_message
from services.jobs.exit_codes import EXIT_DATABASE, EXIT_FAILED, EXIT_OK, EXIT_USAGE
from store.engine import StoreUnavailable
from store.history import HistoryStore
from store.watchlist import own_sites, site_names

NO_DESTINATION = (
    "The digest has nowhere to go: add an [alerts.email] section (host, from, to; see docs/team-guide.md) to "
    ".streamlit/secrets.toml, or pass --output digest.html to write it to a file."
)
NO_TEAM_KEY = (
    "The digest was not sent: no API key is configured for this deployment (VERIFIEDDR_API_KEY or api_key "
    "in .streamlit/secrets.toml), and the digest covers only that key's account."
)


def account_label(account: str, own: list[str]) -> str:
    """ "Sites: a.com, b.com" (the account's own sites ``own``), else a short form of its fingerprint."""
    if own:
        return f"Sites: {named_first(own, 5)}"
    return f"Account {account[:8]}"


def account_digest(store: HistoryStore, account: str, start: date, end: date) -> AccountDigest:
    """One account's alerts of the period and the moves of what it watches."""
    alerts = store.alerts.entries(account, state="all", since=start)
    alerts = alerts[alerts["day"].dt.date <= end].reset_index(drop=True)
    # The day before the period is the baseline; look one more period back for it.
    since = start - (end - start) - timedelta(days=1)
    watched = store.watchlist.entries(account)
    domains = [item.subject for item in watched if item.kind == "domain"]
    domain_frame = store.queries.domain_history(account, domains, since=since)
    keyword_frame = store.queries.keyword_history(account, since=since)
    # A tracked keyword's site is recorded by its slug; people know the site by its domain.
    own = own_sites(watched)
    keyword_frame = keyword_series(keyword_frame, site_names(own))
    return AccountDigest(
        account_label(account, own),
        alerts,
        domain_moves(domain_frame, start, end),
        keyword_moves(keyword_frame, start, end),
        note_lines(period_markers(store, account, start, end)),
    )


def period_markers(store: HistoryStore, account: str, start: date, end: date) -> pd.DataFrame:
    """The editors' notes and Google's updates whose days meet the period, whatever they are about."""
    from analysis.market.markers import every_marker, meeting

    markers = every_marker(store.notes.entries(account, start, end))
    return markers[meeting(markers, start, end)]


def build_digest(store: HistoryStore, config: AlertConfig, team: str, as_of: date, days: int) -> Digest:
    """The digest of ``team``'s account (none at all when it has no history yet)."""
    start, end = period(as_of, days)
    accounts = [account_digest(store, team, start, end)] if team in store.alerts.alert_accounts() else []
    return Digest(start, end, config.dashboard_url, accounts)


def run_digest(
    store: HistoryStore,
    config: AlertConfig,
    *,
    team: str | None,
    as_of: date,
    days: int,
    output: Path | None,
    progress: Callable[[str], None],
) -> int:
    """Build the digest of ``team``'s ``days`` days ending ``as_of`` and write it to ``output`` or mail it."""
    if output is None and config.email is None:
        progress(NO_DESTINATION)
        return EXIT_USAGE
    if team is None:
        progress(NO_TEAM_KEY)
        return EXIT_USAGE
    if days < 1:
        progress("The digest covers at least one day (--days 1 or more).")
        return EXIT_USAGE
    try:
        digest = build_digest(store, config, team, as_of, days)
    except StoreUnavailable as exc:
        progress(f"History database unavailable: {exc.reason}")
        return EXIT_DATABASE
    progress(f"{digest.subject} ({counted(len(digest.accounts), 'account')})")
    html = render_html(digest)
    if output is not None:
        try:
            output.parent.mkdir(parents=True, exist_ok=True)
            output.write_text(html, encoding="utf-8")
        except OSError as exc:
            progress(f"The digest could not be written to {output}: {exc.strerror or exc}")
            return EXIT_FAILED
        progress(f"digest: written to {output}")
        return EXIT_OK
    assert config.email is not None
    message = build_message(digest.subject, render_text(digest), html, config.email)
    try:
        refused = send_message(message, config.email)
    except MailError as exc:
        progress(f"The digest could not be sent: {exc.reason}")
        return EXIT_FAILED
    for address in refused:
        progress(f"The mail server refused the recipient {address}")
    sent_to = len(config.email.to) - len(refused)
    recipients = counted(sent_to, "recipient")
    progress(f"digest: sent to {recipients} via {config.email.server_for_display}")
    return EXIT_FAILED if refused else EXIT_OK
