"""One of your sites: trends, the private TrueDR breakdown, export (JSON and CSV) and badge verification.

The heading and each tab are drawn by ``components.sites.widgets.site_details``.
"""

from __future__ import annotations

from components.core.cache import data
from components.core.cache.connection import current_connection
from components.core.nav.pages import SITE, page_header
from components.core.nav.tabs import lazy_tabs
from components.sites.widgets import read_chosen_site
from components.sites.widgets.site_details import (
    TAB_KEY,
    export_tab,
    site_header,
    trends_tab,
    truedr_tab,
    verify_tab,
)

conn = current_connection()
page_header(
    SITE,
    "One of your sites: DR, TrueDR and traffic trends, the TrueDR breakdown, export and badge verification.",
)
domain, site = read_chosen_site(
    conn,
    data.site,
    icon=":material/dashboard:",
    not_found="Details are shown for your own sites only; submit a site on the My sites page.",
)

site_header(site)
lazy_tabs(
    {
        "Trends": lambda: trends_tab(site),
        "TrueDR": lambda: truedr_tab(conn, domain),
        "Export": lambda: export_tab(conn, domain),
        "Verify badge": lambda: verify_tab(conn, domain, site),
    },
    key=TAB_KEY,
)
