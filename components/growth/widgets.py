"""Streamlit pieces of the growth pages: the ratings columns, the filter inputs and the result count
of discovery, and the link-exchange writes.

Each write is sent once per user action (``components.core.writes``). A preview is a dry run
(nothing is sent, so no cached read changes); approving sends exactly the previewed draft. Call
them from widget callbacks or form submits only, never in the page body.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from client.growth_inputs import MAX_FIND_LIMIT
from client.outreach import ExchangeDraft
from components.core.connection import Connection
from components.core.tables import SITE_RATING_COLUMNS
from components.core.writes import WriteOutcome, write_once

#: A found site's ratings as Discover and Link exchanges show them (beside each page's own columns).
RATINGS_COLUMNS = {
    **SITE_RATING_COLUMNS,
    "confidence": st.column_config.TextColumn("Confidence"),
    "category": st.column_config.TextColumn("Category"),
}


def rating_floor(label: str, *, key: str) -> int | None:
    """A minimum rating (0–100) for the discovery filters, kept in the URL; None when left empty."""
    value = st.number_input(
        label, min_value=0, max_value=100, value=None, step=5, key=key, bind="query-params"
    )
    return None if value is None else int(value)


def result_limit(label: str, *, key: str, default: int, step: int = 1, help: str | None = None) -> int:
    """How many results to ask for, 1 to the service's limit, kept in the URL; ``default`` when emptied."""
    value = st.number_input(
        label,
        min_value=1,
        max_value=MAX_FIND_LIMIT,
        value=default,
        step=step,
        key=key,
        bind="query-params",
        help=help,
    )
    return int(value or default)


def result_count(frame: pd.DataFrame, *, noun: str, order: str, none_left: str) -> None:
    """How many sites the filters leave (``3 sites, best first.``); when none, ``none_left`` says what
    to relax and the page stops: there is nothing to chart or pick from."""
    if frame.empty:
        st.info(none_left, icon=":material/filter_alt_off:")
        st.stop()
    st.caption(f"{len(frame)} {noun}{'s' if len(frame) != 1 else ''}, {order}.")


def preview_exchange(conn: Connection, domain: str, target: str, subject: str, message: str) -> WriteOutcome:
    """A dry run: nothing is sent, so no read changes."""
    return write_once(conn, "preview_exchange", domain, target, subject, message, success="Preview ready.")


def approve_exchange(conn: Connection, draft: ExchangeDraft) -> WriteOutcome:
    to = draft.preview.to
    name = to.domain if to and to.domain else draft.target
    return write_once(conn, "approve_exchange", draft, success=f"Proposal sent to {name}.")
