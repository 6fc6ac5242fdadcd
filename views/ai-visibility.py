"""AI visibility: whether ChatGPT, Perplexity and Google AI Mode mention your site.

The summary cards and each tab are drawn by ``components.sites.widgets.ai_visibility``.
"""

from __future__ import annotations

from components.core.cache import data
from components.core.cache.connection import current_connection
from components.core.nav.pages import AI_VISIBILITY, page_header
from components.core.nav.tabs import lazy_tabs
from components.core.writes.writes import show_flash
from components.sites.widgets import read_chosen_site
from components.sites.widgets.ai_visibility import (
    SLOT,
    TAB_KEY,
    answers_tab,
    competitors_tab,
    overview_tab,
    questions_tab,
    sources_tab,
    summary,
)

conn = current_connection()
page_header(
    AI_VISIBILITY,
    "Whether ChatGPT, Perplexity and Google AI Mode mention your site when asked the questions you track, "
    "and which brands and pages they cite instead.",
)
domain, view = read_chosen_site(
    conn,
    data.ai_visibility,
    icon=":material/smart_toy:",
    not_found="AI visibility is tracked for your own sites only; submit a site on the My sites page.",
)

show_flash(SLOT, subject="your questions")
summary(view)
lazy_tabs(
    {
        "Overview": lambda: overview_tab(view),
        "Answers": lambda: answers_tab(view, domain),
        "Competitors": lambda: competitors_tab(view, domain),
        "Sources": lambda: sources_tab(view, domain),
        "Questions": lambda: questions_tab(conn, view, domain),
    },
    key=TAB_KEY,
)
