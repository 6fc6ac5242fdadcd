"""Market: your sites' visibility and share of voice against every domain in your watched keywords'
top 10s, who entered and left those top 10s, whether each keyword is getting harder, and when each
becomes winnable at your site's pace.

The rows come from the history store (``history.page_source``), the figures from ``analysis.market`` (the
same numbers ``python -m store visibility`` prints); no API call. Each tab is drawn by its module in
``components.market.widgets``.
"""

from __future__ import annotations

import streamlit as st

from analysis.market import group_names
from components.core.cache.connection import current_connection
from components.core.history import store as history
from components.core.nav.pages import MARKET, page_header
from components.core.nav.tabs import lazy_tabs
from components.history.widgets import guarded, own_sites, page_history
from components.history.widgets.notes import notes_tab
from components.history.widgets.retention import weekly_points_caption
from components.market.widgets import (
    CHURN_TAB,
    DIFFICULTY_TAB,
    GROUPS_TAB,
    NOTES_TAB,
    SHARE_TAB,
    TAB_KEY,
    VISIBILITY_TAB,
    WINNABLE_TAB,
    churn_tab,
    difficulty_tab,
    groups_tab,
    market_view,
    share_tab,
    visibility_tab,
    winnable_tab,
)

conn = current_connection()
page_header(
    MARKET,
    "How visible your sites are for the keywords you watch, against every domain in their top 10s: "
    "visibility and share of voice over time, who entered and left, whether a keyword is getting harder, "
    "and when it becomes winnable at your site's pace.",
)
source = page_history(conn)
maybe_view = market_view(source, own_sites(conn), history.history_day(conn))
if maybe_view is None:
    st.stop()
view = maybe_view  # known from here on, also inside the tabs' lambdas
if view.empty:  # a brand or non-brand group without a keyword: where to set the brand terms
    lazy_tabs({GROUPS_TAB: guarded(lambda: groups_tab(conn, source))}, key=TAB_KEY)
    st.stop()
lazy_tabs(
    {
        VISIBILITY_TAB: guarded(lambda: visibility_tab(view)),
        SHARE_TAB: guarded(lambda: share_tab(view)),
        CHURN_TAB: guarded(lambda: churn_tab(view)),
        DIFFICULTY_TAB: guarded(lambda: difficulty_tab(view)),
        WINNABLE_TAB: guarded(lambda: winnable_tab(view)),
        GROUPS_TAB: guarded(lambda: groups_tab(conn, source)),
        NOTES_TAB: guarded(
            lambda: notes_tab(
                conn,
                source,
                view.until,
                [*view.own, *view.competitors, *view.keywords()],
                group_names(source.keyword_tags()),
            )
        ),
    },
    key=TAB_KEY,
)
guarded(lambda: weekly_points_caption(conn, view.since))()  # under the charts: weekly points before
