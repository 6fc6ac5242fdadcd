"""Categories shaping: the /categories answer as a (value, label) table. Pure, no Streamlit."""

from __future__ import annotations

import pandas as pd

from analysis.shaping import typed_frame
from client.models import Categories


def categories_frame(categories: Categories) -> pd.DataFrame:
    """One row per category in the service's order; a missing label stays missing."""
    rows = [{"value": c.value, "label": c.label} for c in categories.categories]
    return typed_frame(rows, {"value": "string", "label": "string"})


def max_per_site_text(categories: Categories) -> str:
    """The submission limit in words (plain text: the caller escapes nothing of the API's here)."""
    limit = categories.max_per_site
    if limit is None:
        return "The service did not say how many categories one site may have."
    return f"A site can have up to {limit} categor{'y' if limit == 1 else 'ies'}."
