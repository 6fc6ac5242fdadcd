"""The discovery inputs Discover and Link exchanges share: the ratings columns of a found site, a
minimum rating, how many results to ask for (each kept in the URL), and the count of what is left."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from analysis.wording import counted
from client.growth_inputs import MAX_FIND_LIMIT
from components.core.ui.tables import SITE_RATING_COLUMNS

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
    st.caption(f"{counted(len(frame), noun)}, {order}.")
