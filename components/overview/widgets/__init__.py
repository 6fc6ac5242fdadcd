"""Streamlit pieces of the Domain overview: the metric cards and heading other pages show too
(``cards``), one site in full (``single``) and several side by side (``compare``).

The cards are re-exported here, as the names the other pages use.
"""

from __future__ import annotations

from components.overview.widgets.cards import (
    authority_cards,
    compare_details,
    evidence_cards,
    signed,
    site_heading,
    site_in_brief,
)

__all__ = [
    "authority_cards",
    "compare_details",
    "evidence_cards",
    "signed",
    "site_heading",
    "site_in_brief",
]
