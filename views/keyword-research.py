"""Keyword research: the DR needed to rank in the live US Google top 10, for one keyword or several.

One keyword is drawn by ``components.keywords.widgets.research``, several by ``…widgets.comparison``.
"""

from __future__ import annotations

import streamlit as st

from components.core.cache.connection import current_connection
from components.core.nav.pages import KEYWORD_RESEARCH, page_header
from components.core.nav.shared_inputs import domain_input
from components.core.ui.demo_picker import demo_picker
from components.keywords.widgets.comparison import compare_keywords
from components.keywords.widgets.research import DEMO_KEYWORDS, MAX_KEYWORDS, single_keyword, use_keyword

conn = current_connection()
page_header(
    KEYWORD_RESEARCH,
    "The DR you need to rank in the live US Google top 10 for a keyword. Research spends no quota units; "
    "it needs a running growth program.",
)

compare_mode = st.toggle("Compare several keywords", key="kw_compare", bind="query-params")
left, right = st.columns([3, 2])
with right:
    domain_text = domain_input(
        label="Your domain (optional)",
        help_text="With a domain you also get its DR, the gap to the top 10, the tier and a verdict.",
    )
with left:
    if compare_mode:
        keywords_text = st.text_area(
            "Keywords to compare",
            key="keywords",
            bind="query-params",
            placeholder="web analytics\nprivacy friendly analytics\ncookieless tracking",
            help=f"One per line, up to {MAX_KEYWORDS}.",
        )
    else:
        keyword_text = st.text_input(
            "Keyword",
            key="keyword",
            bind="query-params",
            placeholder="web analytics",
            help="A search query as people type it into Google (US, English).",
        )

if compare_mode:
    compare_keywords(conn, keywords_text or "", domain_text)
elif keyword_text and keyword_text.strip():
    single_keyword(conn, keyword_text, domain_text)
else:
    demo_picker(conn, DEMO_KEYWORDS, key_prefix="demo_kw", label="Try a demo keyword:", on_pick=use_keyword)
