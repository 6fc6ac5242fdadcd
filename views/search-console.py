"""Search Console: performance against the previous period, and the index audit (latest, or run one).

The notice for a site without a connected property and both tabs are drawn by
``components.sites.widgets.search_console``.
"""

from __future__ import annotations

from components.core.cache.connection import current_connection
from components.core.nav.pages import SEARCH_CONSOLE, page_header
from components.core.nav.tabs import lazy_tabs
from components.sites.widgets import chosen_site
from components.sites.widgets.search_console import (
    TAB_KEY,
    audit_tab,
    performance_tab,
    stop_unless_connected,
)

conn = current_connection()
page_header(
    SEARCH_CONSOLE,
    "Clicks, impressions, CTR and position from Google Search Console, and the index audit of your site.",
)
domain = chosen_site(
    conn,
    icon=":material/query_stats:",
    help_text="One of your sites with a connected Search Console property.",
)
stop_unless_connected(conn, domain)
lazy_tabs(
    {"Performance": lambda: performance_tab(conn, domain), "Index audit": lambda: audit_tab(conn, domain)},
    key=TAB_KEY,
)
