"""Streamlit pieces of the growth pages: the discovery inputs Discover and Link exchanges share
(``filters``), the link-exchange writes with what this session knows about them (``proposals``), and
the Link exchanges page's parts (``exchanges``).

The shared inputs and the writes are re-exported here.
"""

from __future__ import annotations

from components.growth.widgets.filters import RATINGS_COLUMNS, rating_floor, result_count, result_limit
from components.growth.widgets.proposals import (
    APPROVE_SLOT,
    LAST_CONTACT,
    PREVIEW_SLOT,
    PREVIEWED,
    PROPOSED,
    TEXT_CHANGED,
    PreviewedProposal,
    approve_exchange,
    approve_proposal,
    preview_exchange,
    preview_proposal,
    previewed_proposal,
    proposed_partners,
    show_text_changed,
)

__all__ = [
    "APPROVE_SLOT",
    "LAST_CONTACT",
    "PREVIEWED",
    "PREVIEW_SLOT",
    "PROPOSED",
    "RATINGS_COLUMNS",
    "TEXT_CHANGED",
    "PreviewedProposal",
    "approve_exchange",
    "approve_proposal",
    "preview_exchange",
    "preview_proposal",
    "previewed_proposal",
    "proposed_partners",
    "rating_floor",
    "result_count",
    "result_limit",
    "show_text_changed",
]
