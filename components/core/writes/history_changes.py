"""Changes to the dashboard's own records in the history (notes, report comments and schedules, share
links, keyword tags, brand terms) through the one write path, and a form's words about them.

Each goes through ``audited_store_write`` (role check, one audit row); the form that asked keeps what
happened, in words, for the rerun that shows it (``tell_after_rerun``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import streamlit as st

from components.core.auth import access
from components.core.cache.connection import Connection
from components.core.writes.writes import audited_store_write

if TYPE_CHECKING:
    from store import HistoryStore


def audited_history_change(
    conn: Connection, operation: str, target: str, change: Callable[[HistoryStore, str], bool]
) -> bool | None:
    """A change to this account's own records in the history (a keyword's tags, a site's brand terms, a
    note) through ``audited_store_write``: whether it changed anything, None when the person may not
    write (audited as refused; ``refusal_words`` says why)."""
    from components.core.history import store as history

    return audited_store_write(
        conn, operation, target, lambda: history.change_history(conn, change), changed=bool
    )


def history_change_words(
    conn: Connection,
    operation: str,
    target: str,
    change: Callable[[HistoryStore, str], bool],
    said: tuple[str, str],
) -> str:
    """``audited_history_change`` in words: why not (``refusal_words``) when the person may not write,
    else ``said``'s first words when it changed something and its second when it found nothing to do."""
    done = audited_history_change(conn, operation, target, change)
    if done is None:
        return refusal_words()
    changed, unchanged = said
    return changed if done else unchanged


def refusal_words() -> str:
    """Why the current person may not change things, in their words (whom to ask)."""
    return access.write_permission()[1] or access.EDITORS_ONLY


def tell_after_rerun(key: str, change: Callable[[], str]) -> None:
    """A form's change: run it, keep what it says (or why it could not be done: a value the store
    refuses, a ValueError, or the database's reason) under ``key`` for the rerun that shows it, rerun."""
    try:
        st.session_state[key] = change()
    except ValueError as exc:
        st.session_state[key] = f"Not saved: {exc}."
    except Exception as exc:  # a failing database never breaks the page
        st.session_state[key] = f"Could not save: {getattr(exc, 'reason', exc)}"
    st.rerun()
