"""History: how watched domains, their Trust Maps and your tracked keywords moved over time.

The rows come from the history store through a small source object (``history.page_source``), so
the page never names the database; when the database cannot be used the page says why and stops.
Each tab is drawn by its module in ``components.history.widgets``.
"""

from __future__ import annotations

import streamlit as st

from components.core import history
from components.core.connection import current_connection
from components.core.pages import HISTORY, page_header
from components.core.tabs import lazy_tabs
from components.history.widgets import (
    CHURN_TAB,
    DOMAIN_TAB,
    KEYWORD_TAB,
    TAB_KEY,
    WATCHLIST_TAB,
    churn_tab,
    demo_label,
    domain_trends_tab,
    guarded,
    keywords_tab,
    own_sites,
    unavailable_notice,
    watchlist_tab,
)

conn = current_connection()
page_header(
    HISTORY,
    "How your sites, your competitors and your keywords moved: DR and TrueDR over months, referring "
    "domains gained and lost, positions over time. Kept once a day for what you watch.",
)
is_demo = history.ensure_demo_history(conn)
maybe_source = history.page_source(conn)
if maybe_source is None:
    unavailable_notice()
    st.stop()
source = maybe_source  # known from here on, also inside the tabs' lambdas
if is_demo:
    demo_label()
own = own_sites(conn)
today = history.history_day(conn)
lazy_tabs(
    {
        DOMAIN_TAB: guarded(lambda: domain_trends_tab(conn, source, own, today)),
        CHURN_TAB: guarded(lambda: churn_tab(source, own)),
        KEYWORD_TAB: guarded(lambda: keywords_tab(source, own, today)),
        WATCHLIST_TAB: guarded(lambda: watchlist_tab(conn, own)),
    },
    key=TAB_KEY,
)
