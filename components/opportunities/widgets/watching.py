"""Watch the keywords chosen in the table for the site: the History page's Watch, for several at once.

Each keyword goes through ``watch_subject`` (the service is asked it can measure it, today's position is
kept at once) inside ``audited_store_write``: the role is checked at the click, the audit row says
watched, already watched or refused, and a refusal is said in words. The click is a widget callback,
so a rerun never watches again. Viewers see the button disabled with the reason.
"""

from __future__ import annotations

import functools

import streamlit as st

from analysis.text import escape_md
from analysis.wording import counted
from components.core.auth import access
from components.core.cache.connection import Connection
from components.core.history import store as history
from components.core.writes.writes import audited_store_write
from components.history.watching import watch_subject

WATCH_KEY = "opportunities_watch"
#: The outcome of the last click, shown on the next run.
FLASH = "_opportunities_watch_flash"


def _watch(conn: Connection, site: str, keywords: tuple[str, ...]) -> None:
    lines: list[str] = []
    for keyword in keywords:
        label = f"“{keyword}” for {site}"
        try:
            outcome = audited_store_write(
                conn,
                "watch",
                label,
                functools.partial(watch_subject, conn, "keyword", keyword, site),
                changed=lambda outcome: outcome.added,
            )
        except Exception as exc:  # a failing database never breaks the page
            lines.append(f"Could not watch {label}: {getattr(exc, 'reason', exc)}")
            continue
        if outcome is None:  # refused by role (and audited): nothing else is tried
            lines.append(access.write_permission()[1] or access.EDITORS_ONLY)
            break
        lines.append(outcome.words)
    st.session_state[FLASH] = lines


def show_watch_outcome() -> None:
    """What the last click on Watch did, keyword by keyword (once)."""
    for line in st.session_state.pop(FLASH, []):
        st.caption(escape_md(line))


def watch_chosen(conn: Connection, site: str, chosen: list[str], locked: str | None) -> None:
    """The Watch for <site> button for the rows chosen in the table (editors only); ``locked`` is why this
    person may not write (None for an editor)."""
    if history.history_store() is None:
        return
    with st.container(horizontal=True, gap="small", vertical_alignment="center"):
        st.button(
            f"Watch for {escape_md(site)}",
            key=WATCH_KEY,
            icon=":material/visibility:",
            disabled=locked is not None or not chosen,
            help=locked
            or (
                f"Keep daily history of {counted(len(chosen), 'chosen keyword')} for {escape_md(site)}: "
                "positions, "
                "top 10s and when each becomes winnable."
                if chosen
                else "Choose rows in the table first (the boxes at their left)."
            ),
            on_click=_watch,
            args=(conn, site, tuple(chosen)),
        )
        if not locked:
            st.caption(
                f"{counted(len(chosen), 'keyword')} chosen: {escape_md(', '.join(chosen[:5]))}"
                + (" and more" if len(chosen) > 5 else "")
                if chosen
                else "Choose rows in the table (the boxes at their left) to watch or track them."
            )
