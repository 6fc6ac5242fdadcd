"""Keyword suggestions: keywords a domain already ranks 4 to 30 for, the ones closest to paying off."""

from __future__ import annotations

from components.core.cache.connection import current_connection
from components.core.nav.pages import KEYWORD_SUGGESTIONS, page_header
from components.core.nav.shared_inputs import domain_or_demo
from components.keywords.widgets.suggestions import DEMO_DOMAINS, show_suggestions

page_header(
    KEYWORD_SUGGESTIONS,
    "Non-brand keywords a domain (yours or a competitor's) already ranks at positions 4 to 30 for, "
    "ordered by estimated traffic value. Suggestions spend no quota units.",
)
domain_or_demo(
    current_connection(),
    help_text="Any domain, subdomain or URL: your own site or a competitor's.",
    show=show_suggestions,
    demos=DEMO_DOMAINS,
    demo_key="demo_sg",
)
