"""Keyword suggestions → a DataFrame in position bands, filtered and sorted. Pure functions."""

from __future__ import annotations

from collections.abc import Iterable

import pandas as pd

from analysis.shaping import typed_frame
from client.models import KeywordSuggestions

#: Position bands of the suggestion window (4–30): what page of Google the site is on.
BANDS: tuple[tuple[str, int, int], ...] = (
    ("4–10 (page 1)", 4, 10),
    ("11–20 (page 2)", 11, 20),
    ("21–30 (page 3)", 21, 30),
)
SUGGESTION_COLUMNS: dict[str, str] = {
    "keyword": "string",
    "position": "Int64",
    "band": "string",
    "search_volume": "Int64",
    "value_rank": "Int64",
}


def band_of(position: int | None) -> str | None:
    if position is None:
        return None
    for label, low, high in BANDS:
        if low <= position <= high:
            return label
    return None


def suggestions_frame(answer: KeywordSuggestions) -> pd.DataFrame:
    """Suggestions in the service's order (estimated traffic value), which ``value_rank`` keeps."""
    rows = [
        {
            "keyword": s.keyword,
            "position": s.position,
            "band": band_of(s.position),
            "search_volume": s.search_volume,
            "value_rank": i,
        }
        for i, s in enumerate(answer.suggestions, start=1)
    ]
    return typed_frame(rows, SUGGESTION_COLUMNS)


def filter_bands(frame: pd.DataFrame, bands: Iterable[str] | None) -> pd.DataFrame:
    """Only the rows in the chosen bands; no choice means every row."""
    chosen = list(bands or ())
    if not chosen:
        return frame
    return frame[frame["band"].isin(chosen).fillna(False)].reset_index(drop=True)


SORTS: dict[str, tuple[str, bool]] = {
    "Traffic value (service order)": ("value_rank", True),
    "Search volume": ("search_volume", False),
    "Position": ("position", True),
    "Keyword": ("keyword", True),
}


def sort_suggestions(frame: pd.DataFrame, how: str) -> pd.DataFrame:
    column, ascending = SORTS.get(how, SORTS["Traffic value (service order)"])
    return frame.sort_values(column, ascending=ascending, na_position="last", kind="stable").reset_index(
        drop=True
    )
