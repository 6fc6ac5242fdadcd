"""The Reports page's Sharing tab: read-only share links to the report shown, and spreadsheet feeds.

- **Share links**: an editor creates a link to this site's report for this period, lasting 7, 30, 90 or
  365 days; the address is shown once, to copy (it is not kept: only its signature names the link).
  The site's links are listed with who created them, until when and whether they still work, and an
  editor may revoke any that still works.
- **Spreadsheet feeds**: an editor creates a CSV feed of the site's daily figures or of one keyword
  group's positions; each live feed shows its address and the ``=IMPORTDATA("…")`` formula to paste into
  Google Sheets, and may be revoked (its file is removed at once). The file is written when the feed
  is made and every day by the snapshot job.

Every creation and revocation goes through the one write path (``audited_history_change``: role check,
store, audit row); viewers see the lists with the buttons disabled and the reason. Addresses start with
the dashboard's public address: ``DASHBOARD_URL`` or ``[alerts] dashboard_url`` when set (as alert links
do), else the address this page was opened at.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING
from urllib.parse import urlencode, urlsplit

import streamlit as st

from analysis.market.groups import group_names
from analysis.text import escape_md
from components.core.auth import access
from components.core.cache.connection import Connection
from components.core.history.source import HistorySource
from components.core.history.store import history_store
from components.core.writes.history_changes import audited_history_change, refusal_words
from components.reports.shared_view import PARAM, link_secret_setting
from services.alerts.config import DASHBOARD_URL_ENV, DEFAULT_DASHBOARD_URL
from services.reports.feeds import Feed, feed_url, importdata_formula, refresh_feeds
from store.reports.links import DEFAULT_DAYS, ShareLink
from store.reports.period import Period

if TYPE_CHECKING:
    from store import HistoryStore

#: The lifetimes offered for a new link, in days.
LINK_DAYS = (7, 30, 90, 365)
SITE_FIGURES = "The site's daily figures"
STATE_WORDS = {"active": "Works", "expired": "Expired", "revoked": "Revoked"}
_NEW_LINK = "_sharing_new_link"
_SAID = "_sharing_said"


def app_address() -> str:
    """The dashboard's public address: ``DASHBOARD_URL`` or ``[alerts] dashboard_url`` when set, else the
    scheme and host this page was opened at (behind nginx, the address the browser used)."""
    configured = (os.environ.get(DASHBOARD_URL_ENV) or "").strip()
    if not configured:
        try:
            section = st.secrets.get("alerts")
        except Exception:  # no secrets file
            section = None
        value = section.get("dashboard_url") if isinstance(section, Mapping) else None
        configured = value.strip() if isinstance(value, str) else ""
    if configured:
        return configured.rstrip("/")
    parts = urlsplit(st.context.url or "")
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme and parts.netloc else DEFAULT_DASHBOARD_URL


def share_url(address: str, token: str) -> str:
    return f"{address}/?{urlencode({PARAM: token})}"


def _change(
    conn: Connection, operation: str, target: str, change: Callable[[HistoryStore, str], bool]
) -> str | None:
    """One audited change; None when done, else why not in plain words."""
    try:
        done = audited_history_change(conn, operation, target, change)
    except Exception as exc:  # the database failed: the row says so, the page says it in words
        return f"Not saved: {getattr(exc, 'reason', None) or type(exc).__name__}."
    if done is None:
        return refusal_words()
    return None if done else "Nothing changed (done already, or the history store is unavailable)."


def _say(text: str, *, ok: bool = True) -> None:
    st.session_state[_SAID] = (text, ok)


def _create_link(conn: Connection, site: str, period: Period, days: int) -> None:
    person = access.current_person().email or "local"
    made: dict[str, str] = {}

    def create(store: HistoryStore, account: str) -> bool:
        _, made["token"] = store.report_links.create_report_link(
            account, site, period, person, days=days, secret=link_secret_setting()
        )
        return True

    problem = _change(conn, "create_share_link", f"{site}, {period.words} ({days} days)", create)
    if problem is not None:
        _say(problem, ok=False)
        return
    st.session_state[_NEW_LINK] = share_url(app_address(), made["token"])


def _revoke_link(conn: Connection, link: ShareLink) -> None:
    person = access.current_person().email or "local"
    problem = _change(
        conn,
        "revoke_share_link",
        f"{link.about} (link {link.id})",
        lambda store, account: store.report_links.revoke_report_link(account, link.id, person),
    )
    _say(problem or "The link was revoked: it opens nothing any more.", ok=problem is None)


def _create_feed(conn: Connection, site: str, choice: str) -> None:
    person = access.current_person().email or "local"
    group = None if choice == SITE_FIGURES else choice

    def create(store: HistoryStore, account: str) -> bool:
        store.feeds.create_feed(account, site, person, keyword_group=group)
        refresh_feeds(store, account=account)  # its file at once, not tomorrow
        return True

    target = f"{site}: {'daily figures' if group is None else f'keyword group {group!r}'}"
    problem = _change(conn, "create_feed", target, create)
    _say(problem or "The feed is ready: paste its formula into a spreadsheet.", ok=problem is None)


def _revoke_feed(conn: Connection, feed: Feed) -> None:
    person = access.current_person().email or "local"

    def revoke(store: HistoryStore, account: str) -> bool:
        changed = store.feeds.revoke_feed(account, feed.id, person)
        refresh_feeds(store, account=account)  # its file goes now
        return changed

    problem = _change(conn, "revoke_feed", f"{feed.about} (feed {feed.id})", revoke)
    _say(problem or "The feed was revoked: its address answers nothing any more.", ok=problem is None)


def _links_section(conn: Connection, store: HistoryStore, site: str, period: Period, may_write: bool) -> None:
    st.subheader("Share links", anchor=False)
    st.caption(
        f"A link opens the report of {site} for {period.words} alone, read-only, without signing in, "
        "until it expires or is revoked. Anyone with the link can read it: share it like the report itself."
    )
    reason = None if may_write else refusal_words()
    with st.form("sharing_link_form", border=True):
        days = st.selectbox(
            "The link works for",
            LINK_DAYS,
            index=LINK_DAYS.index(DEFAULT_DAYS),
            format_func=lambda d: f"{d} days",
            disabled=not may_write,
        )
        if st.form_submit_button("Create share link", type="primary", disabled=not may_write, help=reason):
            _create_link(conn, site, period, int(days))
    new = st.session_state.pop(_NEW_LINK, None)
    if new:
        st.success("Share link created. Copy it now: it is shown only once.", icon=":material/link:")
        st.code(new, language=None)
    links = store.report_links.entries(conn.fingerprint, site)
    if not links:
        st.caption(f"No share link of {site} yet.")
        return
    for link in links:
        state = link.state()
        text, button = st.columns([5, 1], vertical_alignment="center")
        text.markdown(
            f"**{link.period.words}** · {STATE_WORDS[state]} · created by {escape_md(link.created_by)} on "
            f"{link.created_at:%d %b %Y} · "
            + (
                f"revoked by {escape_md(link.revoked_by)}"
                if link.revoked_by
                else f"expires {link.expires_at:%d %b %Y}"
            )
        )
        if state == "active" and button.button(
            "Revoke", key=f"sharing_revoke_link_{link.id}", disabled=not may_write, help=reason
        ):
            _revoke_link(conn, link)
            st.rerun()


def _feeds_section(
    conn: Connection, store: HistoryStore, source: HistorySource, site: str, may_write: bool
) -> None:
    st.subheader("Spreadsheet feeds", anchor=False)
    st.caption(
        "A CSV file at an address nobody can guess, rewritten every day after the snapshot: paste its "
        "formula into Google Sheets (or any tool that reads a CSV from an address). Anyone with the "
        "address can read it; revoke it to end that. The columns are in the team guide."
    )
    reason = None if may_write else refusal_words()
    with st.form("sharing_feed_form", border=True):
        choice = st.selectbox(
            "What the feed holds",
            [SITE_FIGURES, *group_names(source.keyword_tags())],
            format_func=lambda g: g if g == SITE_FIGURES else f"Positions of the keyword group “{g}”",
            disabled=not may_write,
        )
        if st.form_submit_button("Create feed", type="primary", disabled=not may_write, help=reason):
            _create_feed(conn, site, str(choice))
            st.rerun()
    live = [feed for feed in store.feeds.entries(conn.fingerprint, site) if feed.live]
    if not live:
        st.caption(f"No live feed of {site}.")
        return
    address = app_address()
    for feed in live:
        with st.container(border=True):
            text, button = st.columns([5, 1], vertical_alignment="center")
            refreshed = f"{feed.refreshed_at:%d %b %Y %H:%M} UTC" if feed.refreshed_at else "not yet"
            text.markdown(
                f"**{escape_md(feed.about)}** · created by {escape_md(feed.created_by)} · "
                f"last written {refreshed}"
            )
            if button.button(
                "Revoke", key=f"sharing_revoke_feed_{feed.id}", disabled=not may_write, help=reason
            ):
                _revoke_feed(conn, feed)
                st.rerun()
            url = feed_url(address, feed)
            st.code(importdata_formula(url), language=None)
            st.caption(f"Address: {url}")


def sharing_tab(conn: Connection, source: HistorySource, site: str, period: Period) -> None:
    """The Sharing tab of ``site``'s report for ``period``."""
    store = history_store()
    if store is None or not conn.has_key:
        st.info("Sharing needs the history store and an API key.", icon=":material/link_off:")
        return
    said = st.session_state.pop(_SAID, None)
    if said:
        (st.success if said[1] else st.warning)(said[0])
    may_write, _reason = access.write_permission()
    _links_section(conn, store, site, period, may_write)
    _feeds_section(conn, store, source, site, may_write)
    access.read_only_note(None if may_write else refusal_words())
