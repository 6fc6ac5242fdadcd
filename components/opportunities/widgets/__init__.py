"""The Opportunities page's Streamlit parts: which site and target (``choice``), the list's reads through
the app's one read path and the button that reads the missing top 10s (``reads``), the ranked table with
its filters and downloads (``table``), and watching the chosen keywords for the site (``watching``)."""

from components.opportunities.widgets.choice import opportunity_choice
from components.opportunities.widgets.reads import page_candidates, read_missing_button
from components.opportunities.widgets.table import opportunities_table
from components.opportunities.widgets.watching import watch_chosen

__all__ = [
    "opportunities_table",
    "opportunity_choice",
    "page_candidates",
    "read_missing_button",
    "watch_chosen",
]
