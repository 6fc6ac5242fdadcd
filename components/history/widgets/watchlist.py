"""The History page's Watchlist tab: add and remove competitor domains and keywords (your own sites are
always watched), and the list of everything watched with why and since when.

A keyword is watched for a site (one of yours or any domain typed), the domain whose position it
measures; a keyword watched before sites were recorded shows "site unknown" until someone picks one.
Adding goes through ``watch_subject``: a domain the service does not list is refused at once, and
today's numbers are recorded straight away.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from datetime import UTC
from typing import TYPE_CHECKING, Any

import pandas as pd
import streamlit as st

from analysis.text import escape_md
from analysis.wording import counted
from client.errors import InvalidInputError
from components.core.auth import access
from components.core.cache.connection import Connection
from components.core.history import store as history
from components.core.ui.tables import table_with_export
from components.core.writes.writes import audited_store_write
from components.history.watching import WatchOutcome, watch_subject
from components.history.widgets.pieces import FLASH, Kind, unavailable_notice

if TYPE_CHECKING:
    from store.watchlist import WatchItem

ORIGIN_WORDS = {"own": "Your site", "added": "Added by your team", "demo": "Demo example"}
WATCHLIST_COLUMNS = {
    "kind": st.column_config.TextColumn("Kind"),
    "subject": st.column_config.TextColumn("Domain or keyword", pinned=True),
    "site": st.column_config.TextColumn("For site", help="The site whose position a keyword measures."),
    "origin": st.column_config.TextColumn("Why it is watched"),
    "added_at": st.column_config.DatetimeColumn("Since (UTC)", format="YYYY-MM-DD HH:mm"),
}


def _add(conn: Connection) -> None:
    kind: Kind = "keyword" if st.session_state.get("history_add_kind") == "Keyword" else "domain"
    typed = (st.session_state.get("history_add_text") or "").strip()
    typed_site = (st.session_state.get("history_add_site") or "").strip()
    if not typed:
        return
    try:
        subject = _checked(kind, typed)
        site = _checked("domain", typed_site) if kind == "keyword" and typed_site else None
        label = subject if site is None else f"“{subject}” for {site}"
        watch = functools.partial(watch_subject, conn, kind, subject, site)
        outcome = audited_store_write(conn, "watch", label, watch, changed=lambda result: result.added)
    except InvalidInputError as exc:
        st.session_state[FLASH] = ("", f"Not added: {exc}")
        return
    except Exception as exc:
        st.session_state[FLASH] = ("", f"Could not change the watchlist: {getattr(exc, 'reason', exc)}")
        return
    if outcome is None:  # the person may not change the watchlist (refused and audited)
        st.session_state[FLASH] = ("", access.write_permission()[1] or access.EDITORS_ONLY)
        return
    st.session_state[FLASH] = ("", outcome.words)
    if outcome.refused is None:
        st.session_state["history_add_text"] = ""


def _checked(kind: Kind, typed: str) -> str:
    from store import normalise_subject

    return normalise_subject(kind, typed)


def _choice(item: WatchItem) -> str:
    return f"{item.label} ({item.kind})"


def _remove(conn: Connection, items: list[WatchItem]) -> None:
    picked = st.session_state.get("history_remove")
    for item in items:
        if picked == _choice(item):
            unwatch = functools.partial(history.set_watched, conn, item.kind, item.subject, False, item.site)
            removed = audited_store_write(conn, "unwatch", item.label, unwatch, changed=bool)
            if removed is None:
                words = access.write_permission()[1] or access.EDITORS_ONLY
            elif removed:
                words = f"No longer watching {item.label}; its history is kept."
            else:  # someone else removed it since the list was drawn
                words = f"{item.label} was not watched any more."
            st.session_state[FLASH] = ("", words)


def _pick_site(conn: Connection, unknown: list[WatchItem]) -> None:
    """Give a keyword watched before sites were recorded its site: watched for that site from now on
    (today's position recorded at once), and no longer for the unknown one. Its old rows stay apart."""
    picked = st.session_state.get("history_pick_keyword")
    typed_site = (st.session_state.get("history_pick_site") or "").strip()
    item = next((item for item in unknown if item.subject == picked), None)
    if item is None or not typed_site:
        return

    try:
        site = _checked("domain", typed_site)
    except InvalidInputError as exc:
        st.session_state[FLASH] = ("", f"Not changed: {exc}")
        return

    def move() -> WatchOutcome:
        outcome = watch_subject(conn, "keyword", item.subject, site)
        if outcome.refused is None:
            history.set_watched(conn, "keyword", item.subject, False, "")
        return outcome

    label = f"“{item.subject}” for {site}"
    outcome = audited_store_write(conn, "watch", label, move, changed=lambda result: result.refused is None)
    if outcome is None:
        st.session_state[FLASH] = ("", access.write_permission()[1] or access.EDITORS_ONLY)
        return
    st.session_state[FLASH] = ("", outcome.words)


def _site_picker(conn: Connection, items: list[WatchItem], own: dict[str, str], locked: str | None) -> None:
    """For keywords whose site is unknown: pick the site each is measured for."""
    unknown = [item for item in items if item.kind == "keyword" and not item.site]
    if not unknown:
        return
    st.caption(
        f"{counted(len(unknown), 'keyword')} watched before a keyword had a site "
        "(“site unknown”): the daily job waits for a site before measuring them again."
    )
    cols = st.columns([2, 2, 1], vertical_alignment="bottom")
    cols[0].selectbox("Keyword", [item.subject for item in unknown], key="history_pick_keyword")
    with cols[1]:
        _site_box("Its site", "history_pick_site", own)
    with cols[2]:
        _act("Set its site", "history_pick_button", _pick_site, (conn, unknown), locked)


def _site_box(label: str, key: str, own: dict[str, str]) -> None:
    """The site a keyword is measured for: one of yours (the first chosen), or any domain typed."""
    st.selectbox(
        label,
        list(own),
        index=0 if own else None,
        key=key,
        accept_new_options=True,
        placeholder="your-site.com",
        help="The site whose position the keyword measures: one of yours, or any domain you type.",
    )


def _act(
    label: str, key: str, action: Callable[..., None], args: tuple[Any, ...], locked: str | None
) -> None:
    """A watchlist change's button: drawn disabled with the reason when the person may not change it."""
    st.button(
        label, key=key, on_click=action, args=args, width="stretch", disabled=locked is not None, help=locked
    )


def watchlist_tab(conn: Connection, own: dict[str, str]) -> None:
    """Add and remove competitor domains and keywords; your own sites are always watched."""
    store = history.history_store()
    if store is None or not conn.has_key:
        unavailable_notice()
        return
    _, locked = access.write_permission()
    access.read_only_note(locked)
    with st.form("history_add", border=True, enter_to_submit=True):
        cols = st.columns([1, 2, 2, 1], vertical_alignment="bottom")
        cols[0].radio("Watch a", ["Domain", "Keyword"], key="history_add_kind", horizontal=True)
        cols[1].text_input(
            "Domain or keyword", key="history_add_text", placeholder="competitor.com or “web analytics”"
        )
        with cols[2]:
            _site_box("For site (keywords)", "history_add_site", own)
        cols[3].form_submit_button(
            "Add to watchlist",
            icon=":material/add:",
            on_click=_add,
            args=(conn,),
            disabled=locked is not None,
            help=locked,
        )
    flash = st.session_state.pop(FLASH, None)
    if flash:
        st.caption(escape_md(flash[1]))
    items = store.watchlist.entries(conn.fingerprint)
    if not items:
        st.info("Nothing is watched yet.", icon=":material/visibility:")
        return
    from store.watchlist import SITE_UNKNOWN

    frame = pd.DataFrame(
        {
            "kind": [item.kind.capitalize() for item in items],
            "subject": [item.subject for item in items],
            "site": [(item.site or SITE_UNKNOWN) if item.kind == "keyword" else "" for item in items],
            "origin": [ORIGIN_WORDS.get(item.origin, item.origin) for item in items],
            # In UTC to the minute: the CSV reads "2025-01-06 09:30:00", not microseconds and an offset.
            "added_at": [
                item.added_at.astimezone(UTC).replace(tzinfo=None, second=0, microsecond=0) for item in items
            ],
        }
    )
    table_with_export(
        frame,
        what="watchlist",
        key="history_watchlist",
        column_config=WATCHLIST_COLUMNS,
        column_order=list(WATCHLIST_COLUMNS),
    )
    _site_picker(conn, items, own, locked)
    removable = [item for item in items if item.origin != "own"]
    st.caption(
        f"Your sites ({len(own) or 'none'} in your site list) are always watched. Removing a domain or "
        "keyword stops new history for it; what was recorded stays."
    )
    if removable:
        cols = st.columns([3, 1], vertical_alignment="bottom")
        cols[0].selectbox("Stop watching", [_choice(item) for item in removable], key="history_remove")
        with cols[1]:
            _act("Remove", "history_remove_button", _remove, (conn, removable), locked)
