"""Streamlit pieces of history: one module per History tab, and the shared ``pieces`` (the Watch
button and History link other pages show, the notices, the inputs several tabs share).

``domain_trends`` (Domain trends), ``churn`` (Trust Map churn), ``keywords`` (Keyword positions) and
``watchlist`` (Watchlist); ``notes`` (the charts' notes and their switches, and the Notes tab the Market
page shows).
"""

from __future__ import annotations

from analysis.links import CHURN_TAB, DOMAIN_TAB, KEYWORD_TAB
from components.history.widgets.churn import churn_tab
from components.history.widgets.domain_trends import domain_trends_tab
from components.history.widgets.keywords import keywords_tab
from components.history.widgets.pieces import (
    TAB_KEY,
    WATCHLIST_TAB,
    demo_label,
    guarded,
    history_link,
    own_sites,
    page_history,
    unavailable_notice,
    watch_controls,
)
from components.history.widgets.watchlist import watchlist_tab

__all__ = [
    "CHURN_TAB",
    "DOMAIN_TAB",
    "KEYWORD_TAB",
    "TAB_KEY",
    "WATCHLIST_TAB",
    "churn_tab",
    "demo_label",
    "domain_trends_tab",
    "guarded",
    "history_link",
    "keywords_tab",
    "own_sites",
    "page_history",
    "unavailable_notice",
    "watch_controls",
    "watchlist_tab",
]
