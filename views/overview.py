"""Domain overview: one site's lookup as cards, evidence and charts, or several sites side by side.

One site is drawn by ``components.overview.widgets.single``, the comparison by
``components.overview.widgets.compare``.
"""

from __future__ import annotations

import streamlit as st

from components.core.cache.connection import current_connection
from components.core.nav.pages import OVERVIEW, page_header
from components.core.nav.shared_inputs import domain_or_demo
from components.overview.widgets.compare import MAX_COMPARE, compare
from components.overview.widgets.single import single_site

DEMO_DOMAINS = ("stripe.com", "example.com", "hubspot.com", "github.com")

conn = current_connection()
page_header(
    OVERVIEW, "DR, TrueDR, trust and the evidence behind them for listed sites. Lookups spend no quota."
)

compare_mode = st.toggle("Compare several domains", key="compare", bind="query-params")
if compare_mode:
    compare_text = st.text_area(
        "Domains to compare",
        key="domains",
        bind="query-params",
        placeholder="stripe.com\nhubspot.com\nexample.com",
        help=f"One per line or separated by commas; URLs and subdomains are fine. Up to {MAX_COMPARE}.",
    )
    compare(conn, compare_text or "")
else:
    domain_or_demo(
        conn,
        help_text="A domain, subdomain or URL; it is rated as its registrable domain.",
        show=single_site,
        demos=DEMO_DOMAINS,
        demo_key="demo",
        start_on_demo_site=True,
    )
