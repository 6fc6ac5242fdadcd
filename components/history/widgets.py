"""Streamlit pieces of history: the Watch button other pages show, and the notices of the History page.

A Watch button puts a domain or keyword on the account's watchlist (and records what the page already
shows, so today's point is there at once) and links to the History page for it. When the database is
unavailable, the button's place says so in plain words and every page goes on working.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

import pandas as pd
import streamlit as st

from client.errors import InvalidInputError
from components.common.text import escape_md
from components.core import history
from components.core.connection import Connection
from components.core.pages import HISTORY, link_to
from components.core.tables import table_with_export

TAB_KEY = "history_tab"
DOMAIN_TAB = "Domain trends"
CHURN_TAB = "Trust Map churn"
KEYWORD_TAB = "Keyword positions"
WATCHLIST_TAB = "Watchlist"
Kind = Literal["domain", "keyword"]
_FLASH = "_history_watch_flash"


def history_link(kind: Kind, subject: str, *, label: str | None = None) -> None:
    """A link to the History page open on this domain's trends or this keyword's positions."""
    params = (
        {"domain": subject, TAB_KEY: DOMAIN_TAB}
        if kind == "domain"
        else {"keyword": subject, TAB_KEY: KEYWORD_TAB}
    )
    link_to(HISTORY, label=label or f"History of {subject}", query_params=params)


def guarded(render: Callable[[], None]) -> Callable[[], None]:
    """``render``, except that a database failing mid-page is said in plain words instead of a traceback."""

    def run() -> None:
        from store import StoreUnavailable

        try:
            render()
        except StoreUnavailable as exc:
            history.store_failed(exc)
            unavailable_notice()

    return run


def unavailable_reason() -> str:
    problem = history.history_problem() or "the history database could not be reached"
    return f"{problem[:1].upper()}{problem[1:]}"


def unavailable_notice() -> None:
    """What the History page says when the database cannot be used: why, and that the rest works."""
    st.warning(
        f"**{history.UNAVAILABLE}.** {escape_md(unavailable_reason())}.  \n"
        "Every other page works as usual; nothing is recorded until the database can be reached again "
        "(the app tries again every half minute).",
        icon=":material/cloud_off:",
    )
    st.caption(
        f"History database: `{history.database_for_display()}`. Set it with DASHBOARD_DATABASE_URL or "
        "`url` under `[connections.history]` in `.streamlit/secrets.toml`."
    )


def _toggle(
    conn: Connection, kind: Kind, subject: str, watch: bool, operation: str | None, value: Any
) -> None:
    try:
        history.set_watched(conn, kind, subject, watch)
        if watch and operation and value is not None:
            history.record_now(conn, operation, value)
        done = (
            f"Watching {subject}: its numbers are kept once a day."
            if watch
            else f"No longer watching {subject}."
        )
        st.session_state[_FLASH] = (subject, done)
    except Exception as exc:  # a failing database never breaks the page that shows the button
        st.session_state[_FLASH] = (subject, f"Could not change the watchlist: {getattr(exc, 'reason', exc)}")


def watch_controls(
    conn: Connection,
    kind: Kind,
    subject: str,
    *,
    key: str,
    operation: str | None = None,
    value: Any = None,
) -> None:
    """Watch / Stop watching for ``subject`` and a link to its history, in one row.

    ``operation`` and ``value`` are the read the page already holds (a lookup, a Trust Map, a keyword
    report): watching records it for today straight away.
    """
    with st.container(horizontal=True, gap="small", vertical_alignment="center"):
        if history.history_store() is None:
            st.caption(
                f":material/cloud_off: {history.UNAVAILABLE}: {escape_md(unavailable_reason())}.",
                width="content",
            )
            return
        watching = (kind, _stored(kind, subject)) in history.watched(conn)
        st.button(
            "Stop watching" if watching else "Watch",
            key=f"{key}_watch",
            icon=":material/visibility_off:" if watching else ":material/visibility:",
            type="tertiary" if watching else "secondary",
            help=(
                "Stop keeping daily history of this " + kind
                if watching
                else f"Keep daily history of this {kind}: its numbers are recorded once a day."
            ),
            on_click=_toggle,
            args=(conn, kind, subject, not watching, operation, value),
        )
        if watching:
            st.badge("Watched", icon=":material/visibility:", color="green")
        history_link(kind, subject)
        flash = st.session_state.pop(_FLASH, None)
        if flash and flash[0] == subject:
            st.caption(escape_md(flash[1]))


def _stored(kind: Kind, subject: str) -> str:
    """The subject as the watchlist stores it (lower case, folded whitespace)."""
    from store import normalise_subject

    try:
        return normalise_subject(kind, subject)
    except Exception:  # a subject the store would refuse is simply not watched
        return subject


def demo_label() -> None:
    st.info(
        "**Demo history.** These trends were generated for the sandbox's demo account so you can see the "
        "page at work; they are not measurements. With your own API key, history starts from your "
        "first snapshot or the first reads of the domains and keywords you watch.",
        icon=":material/science:",
    )


# --- the Watchlist tab -----------------------------------------------------------------------------

ORIGIN_WORDS = {"own": "Your site", "added": "Added", "demo": "Demo"}
WATCHLIST_COLUMNS = {
    "kind": st.column_config.TextColumn("Kind"),
    "subject": st.column_config.TextColumn("Domain or keyword", pinned=True),
    "origin": st.column_config.TextColumn("Why it is watched"),
    "added_at": st.column_config.DatetimeColumn("Since", format="YYYY-MM-DD HH:mm"),
}


def _add(conn: Connection) -> None:
    kind: Kind = "keyword" if st.session_state.get("history_add_kind") == "Keyword" else "domain"
    typed = (st.session_state.get("history_add_text") or "").strip()
    if not typed:
        return
    try:
        subject = _checked(kind, typed)
        added = history.set_watched(conn, kind, subject, True)
    except InvalidInputError as exc:
        st.session_state[_FLASH] = ("", f"Not added: {exc}")
        return
    except Exception as exc:
        st.session_state[_FLASH] = ("", f"Could not change the watchlist: {getattr(exc, 'reason', exc)}")
        return
    st.session_state[_FLASH] = (
        "",
        f"Now watching {subject}." if added else f"{subject} was already watched.",
    )
    st.session_state["history_add_text"] = ""


def _checked(kind: Kind, typed: str) -> str:
    from store import normalise_subject

    return normalise_subject(kind, typed)


def _remove(conn: Connection, items: list[tuple[str, str]]) -> None:
    picked = st.session_state.get("history_remove")
    for kind, subject in items:
        if picked == f"{subject} ({kind})":
            history.set_watched(conn, kind, subject, False)  # type: ignore[arg-type]
            st.session_state[_FLASH] = ("", f"No longer watching {subject}; its history is kept.")


def watchlist_tab(conn: Connection, own: dict[str, str]) -> None:
    """Add and remove competitor domains and keywords; your own sites are always watched."""
    store = history.history_store()
    if store is None or not conn.has_key:
        unavailable_notice()
        return
    with st.form("history_add", border=True, enter_to_submit=True):
        cols = st.columns([1, 3, 1], vertical_alignment="bottom")
        cols[0].radio("Watch a", ["Domain", "Keyword"], key="history_add_kind", horizontal=True)
        cols[1].text_input(
            "Domain or keyword", key="history_add_text", placeholder="competitor.com or “web analytics”"
        )
        cols[2].form_submit_button("Add to watchlist", icon=":material/add:", on_click=_add, args=(conn,))
    flash = st.session_state.pop(_FLASH, None)
    if flash:
        st.caption(escape_md(flash[1]))
    items = store.watchlist(conn.fingerprint)
    if not items:
        st.info("Nothing is watched yet.", icon=":material/visibility:")
        return
    frame = pd.DataFrame(
        {
            "kind": [item.kind.capitalize() for item in items],
            "subject": [item.subject for item in items],
            "origin": [ORIGIN_WORDS.get(item.origin, item.origin) for item in items],
            "added_at": [item.added_at for item in items],
        }
    )
    table_with_export(
        frame,
        what="watchlist",
        key="history_watchlist",
        column_config=WATCHLIST_COLUMNS,
        column_order=list(WATCHLIST_COLUMNS),
    )
    removable = [(item.kind, item.subject) for item in items if item.origin != "own"]
    st.caption(
        f"Your sites ({len(own) or 'none'} in your site list) are always watched. Removing a domain or "
        "keyword stops new history for it; what was recorded stays."
    )
    if removable:
        cols = st.columns([3, 1], vertical_alignment="bottom")
        cols[0].selectbox("Stop watching", [f"{s} ({k})" for k, s in removable], key="history_remove")
        cols[1].button(
            "Remove", key="history_remove_button", on_click=_remove, args=(conn, removable), width="stretch"
        )
