"""The opportunities queue's columns as a page, a report or a readable CSV labels them (the frame keeps
its field names: the raw CSV and the scripts read those). Pure: a mapping, no maths."""

from __future__ import annotations

import pandas as pd

OPPORTUNITY_LABELS: dict[str, str] = {
    "keyword": "Keyword",
    "position": "Position now",
    "striking_distance": "Striking distance (4–20)",
    "volume": "Monthly volume",
    "volume_source": "Volume from",
    "site_dr": "Your DR",
    "median_dr": "Top-10 median DR",
    "min_dr": "Top-10 lowest DR",
    "gap": "DR gap to the median",
    "lowest_gap": "DR gap to the lowest",
    "ctr_now": "CTR now (%)",
    "ctr_target": "CTR at target (%)",
    "clicks_now": "Clicks now",
    "clicks_target": "Clicks at target",
    "clicks_gained": "Clicks gained",
    "difficulty": "Difficulty (DR points lacking)",
    "score": "Opportunity score",
}


def labelled(scored: pd.DataFrame) -> pd.DataFrame:
    """``scored`` with its columns under their labels (columns without one keep their name)."""
    return scored.rename(columns=OPPORTUNITY_LABELS)
