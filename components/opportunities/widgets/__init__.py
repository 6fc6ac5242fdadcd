"""The Opportunities page's Streamlit parts: which site and target (``choice``, kept in the address), the
list's reads through the app's one read path and the button that reads the missing top 10s (``reads``),
the ranked table with its filters and downloads (``table``), and acting on the chosen keywords
(``acting``): watching them for the site (``watching``) or tracking them for it (``tracking``)."""

from components.opportunities.widgets.acting import act_on_chosen
from components.opportunities.widgets.choice import opportunity_choice
from components.opportunities.widgets.reads import page_candidates, read_missing_button
from components.opportunities.widgets.table import opportunities_table

__all__ = [
    "act_on_chosen",
    "opportunities_table",
    "opportunity_choice",
    "page_candidates",
    "read_missing_button",
]
