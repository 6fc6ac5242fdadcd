"""Tracked keywords, the edits: the add form, refresh or remove one (with a confirmation), and what the
last edit did.

Each edit is asked for in a widget callback and sent once by the page (``pieces``: the requests); the
controls are drawn disabled while one waits, and for a key that may not write.
"""

from __future__ import annotations

import streamlit as st

from analysis.keywords.frames.tracked import Usage
from analysis.text import escape_md
from client.errors import ConflictError, NotFoundError
from client.models import TrackedKeywords
from components.core.cache import data
from components.core.cache.connection import Connection
from components.core.ui.sidebar import RESULT_PREFIX
from components.core.writes.writes import WriteOutcome, peek_flash, show_flash
from components.keywords.widgets.pieces import (
    LIVE_SERP_NOTE,
    TRACKED_SLOT,
    refusal_context,
    request_add,
    request_refresh,
    request_remove,
)

ADD_KEY = "track"
PICK_KEY = "tracked_pick"
CONFIRM_KEY = RESULT_PREFIX + "tracked_confirm_remove"


def prefill_keyword_to_add() -> None:
    """Before the field is drawn: a keyword sent here by a link ("Track it") fills it once, and a
    successful add empties it (a failed one keeps the text). It is not bound to the URL: a link to
    this page must never carry a half-typed action."""
    if ADD_KEY in st.query_params:
        st.session_state[ADD_KEY] = st.query_params[ADD_KEY]
        del st.query_params[ADD_KEY]
    last = peek_flash(TRACKED_SLOT)
    if last is not None and last.ok and not last.duplicate and last.operation == "add_tracked_keyword":
        st.session_state[ADD_KEY] = ""


def _request_add(slug: str, domain: str) -> None:
    """Form submit: ask for the add of what was typed (sent once, after this callback)."""
    request_add(slug, domain, st.session_state.get(ADD_KEY) or "")


def _ask_remove(slug: str, target_id: str) -> None:
    st.session_state[CONFIRM_KEY] = (slug, target_id)


def _cancel_remove() -> None:
    st.session_state.pop(CONFIRM_KEY, None)


def _confirm_remove(slug: str, target_id: str, keyword: str) -> None:
    st.session_state.pop(CONFIRM_KEY, None)
    request_remove(slug, target_id, keyword)


def show_outcome(conn: Connection, slug: str, limit: int | None) -> WriteOutcome | None:
    """The last write's message; a refusal that means the list is stale re-reads it."""
    outcome = show_flash(TRACKED_SLOT, subject="this keyword")
    if outcome is None or outcome.error is None:
        return outcome
    context = refusal_context(outcome.error, limit)
    if context:
        st.caption(context)
    if isinstance(outcome.error, NotFoundError | ConflictError):
        data.forget(conn, "tracked_keywords", slug)
    return outcome


def add_form(slug: str, domain: str, use: Usage, busy: bool, locked: str | None) -> None:
    """The keyword field and its Track button (disabled at the limit, while busy or read-only)."""
    with st.form("track_form"):
        # Never disabled: Streamlit drops the value a disabled field was submitted with, and the
        # typed text must survive a failed add. The submit button is what waits.
        st.text_input("Keyword to track", key=ADD_KEY, placeholder="e.g. privacy friendly analytics")
        st.form_submit_button(
            "Track keyword",
            icon=":material/add_chart:",
            on_click=_request_add,
            args=(slug, domain),
            disabled=busy or use.at_limit or locked is not None,
            help=locked,
            type="primary",
        )
        cost = ""
        if use.checks_limit:
            cost = f" Spends 1 of your monthly checks ({use.checks_left} left)."
        st.caption(("The site is at its limit: remove a keyword first." if use.at_limit else "") + cost)


def manage(listing: TrackedKeywords, slug: str, use: Usage, busy: bool, locked: str | None) -> None:
    """Pick a tracked keyword, then refresh its snapshot or remove it (after a confirmation)."""
    keywords = {k.id: k.keyword for k in listing.keywords}
    if not keywords:
        st.caption("Nothing to refresh or remove yet.")
        return
    target_id = st.selectbox(
        "Tracked keyword", list(keywords), format_func=keywords.__getitem__, key=PICK_KEY, disabled=busy
    )
    if target_id is None:
        return
    keyword = keywords[target_id]
    cols = st.columns(2)
    cols[0].button(
        "Refresh snapshot",
        key="refresh_button",
        icon=":material/refresh:",
        on_click=request_refresh,
        args=(slug, target_id, keyword),
        disabled=busy or locked is not None,
        width="stretch",
        help=locked or "Re-measure the top 10 now. " + LIVE_SERP_NOTE,
    )
    cols[1].button(
        "Remove…",
        key="remove_button",
        icon=":material/delete:",
        on_click=_ask_remove,
        args=(slug, target_id),
        disabled=busy or locked is not None,
        help=locked,
        width="stretch",
    )
    if use.checks_limit:
        st.caption(f"A refresh spends 1 of your monthly checks ({use.checks_left} left).")
    if locked is None and st.session_state.get(CONFIRM_KEY) == (slug, target_id):
        with st.container(border=True):
            st.warning(
                f"Stop tracking **“{escape_md(keyword)}”**? Its stored snapshot is deleted; adding it "
                "again later starts a new one.",
                icon=":material/delete_forever:",
            )
            yes, no = st.columns(2)
            yes.button(
                "Yes, remove it",
                key="confirm_remove",
                type="primary",
                on_click=_confirm_remove,
                args=(slug, target_id, keyword),
                disabled=busy,
                width="stretch",
            )
            no.button("Cancel", key="cancel_remove", on_click=_cancel_remove, disabled=busy, width="stretch")
