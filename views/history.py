"""History: how watched domains, their Trust Maps and your tracked keywords moved over time.

The rows come from the history store through a small source object (``history.page_source``), so
the page never names the database; when the database cannot be used the page says why and stops.
Each tab is drawn by its module in ``components.history.widgets``.
"""

from __future__ import annotations

from components.core.cache.connection import current_connection
from components.core.history import store as history
from components.core.nav.pages import HISTORY, page_header
from components.core.nav.tabs import lazy_tabs
from components.history.widgets import (
    CHURN_TAB,
    DOMAIN_TAB,
    KEYWORD_TAB,
    TAB_KEY,
    WATCHLIST_TAB,
    churn_tab,
    domain_trends_tab,
    guarded,
    keywords_tab,
    own_sites,
    page_history,
    watchlist_tab,
)
from components.history.widgets.retention import with_weekly_points

conn = current_connection()
page_header(
    HISTORY,
    "How your sites, your competitors and your keywords moved: DR and TrueDR over months, referring "
    "domains gained and lost, positions over time. Kept once a day for what you watch.",
)
source = page_history(conn)
own = own_sites(conn)
today = history.history_day(conn)
lazy_tabs(
    {
        DOMAIN_TAB: guarded(lambda: domain_trends_tab(conn, source, own, today)),
        CHURN_TAB: guarded(lambda: churn_tab(source, own)),
        KEYWORD_TAB: guarded(with_weekly_points(conn, lambda: keywords_tab(source, own, today))),
        WATCHLIST_TAB: guarded(lambda: watchlist_tab(conn, own)),
    },
    key=TAB_KEY,
)
