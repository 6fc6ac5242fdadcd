"""The sentence under top-10 charts whose period reaches days kept one a week (``services.retention``):
the Market page and the History page's keywords call it; the report says the same words."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date

import streamlit as st

from components.core.cache.connection import Connection
from components.core.history import store as history
from services.retention import weekly_points_note


def weekly_points_caption(conn: Connection, since: date | None) -> None:
    """Say, in a caption, that the period's older top 10s are weekly points; nothing when they are not."""
    store = history.history_store()
    if store is None or not conn.has_key:
        return
    account = conn.fingerprint
    today = history.history_day(conn)
    note = history.cached_read(
        account,
        f"weekly-points:{today.isoformat()}:{since}",
        lambda: weekly_points_note(store, account, today, since),
    )
    if note:
        st.caption(note)


def with_weekly_points(conn: Connection, render: Callable[[], None]) -> Callable[[], None]:
    """``render``, then the caption for all the history (a tab that chooses its period within)."""

    def run() -> None:
        render()
        weekly_points_caption(conn, None)

    return run
