"""My sites: the sites of this key with their metrics, and submitting a new one (with a site check).

Both tabs are drawn by ``components.sites.widgets.my_sites``.
"""

from __future__ import annotations

from components.core.cache.connection import current_connection
from components.core.nav import pages
from components.core.nav.tabs import lazy_tabs
from components.sites.widgets.my_sites import TAB_KEY, submit_tab, your_sites_tab

conn = current_connection()
pages.page_header(
    pages.MY_SITES, "The sites of this API key with the metrics the service keeps, and submitting a new one."
)
lazy_tabs(
    {"Your sites": lambda: your_sites_tab(conn), "Submit a site": lambda: submit_tab(conn)}, key=TAB_KEY
)
