"""Trust Map shaping: the map's referring domains → DataFrame, filters, DR bands and breakdowns.

Pure functions (no Streamlit, no network). Filters re-shape the frame the page already has, so
changing them never asks the API again. Unknown values stay missing (NA), never 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd

from client.errors import InvalidInputError
from client.inputs import normalise_domain
from client.models import ReferringDomain, TrustMap
from schema.history import SPAM_RISK_FROM

#: DR bands of the distribution chart: 0–9, 10–19, …, 90–100 (100 joins the top band).
BAND_WIDTH = 10
DR_BANDS: tuple[str, ...] = (*(f"{low}–{low + 9}" for low in range(0, 90, BAND_WIDTH)), "90–100")
#: How a missing linkType or status is named in breakdowns.
NOT_GIVEN = "not given"

MAP_COLUMNS: dict[str, str] = {
    "domain": "string",
    "url": "string",
    "dr": "Int64",
    "backlinks": "Int64",
    "link_type": "string",
    "status": "string",
    "importance": "Float64",
    "spam_score": "Float64",
    "spam_risk": "boolean",
}


def site_url(domain: str | None) -> str | None:
    """``https://domain`` when the API's name is a real registrable domain, else None (no link)."""
    if not domain:
        return None
    try:
        return f"https://{normalise_domain(domain)}"
    except InvalidInputError:
        return None


def _row(rd: ReferringDomain) -> dict[str, object]:
    spam = rd.spam_score
    return {
        "domain": rd.domain,
        "url": site_url(rd.domain),
        "dr": rd.dr,
        "backlinks": rd.backlinks,
        "link_type": rd.link_type,
        "status": rd.status,
        "importance": rd.importance,
        "spam_score": spam,
        "spam_risk": None if spam is None else spam >= SPAM_RISK_FROM,
    }


def map_frame(trust_map: TrustMap) -> pd.DataFrame:
    """One row per referring domain, in the service's order (by importance)."""
    frame = pd.DataFrame([_row(rd) for rd in trust_map.domains], columns=list(MAP_COLUMNS))
    return frame.astype(MAP_COLUMNS)


@dataclass(frozen=True)
class MapFilters:
    """What the page's filter widgets say. Empty ``link_types``/``statuses`` mean "all".

    A row whose DR (or spam score) is unknown cannot be shown to meet a DR floor (or a spam
    ceiling), so it is kept only while that filter is at its no-op end.
    """

    link_types: tuple[str, ...] = ()
    statuses: tuple[str, ...] = ()
    min_dr: int = 0
    max_spam: float = 100.0

    @property
    def active(self) -> bool:
        return bool(self.link_types or self.statuses) or self.min_dr > 0 or self.max_spam < 100


def filter_map(frame: pd.DataFrame, filters: MapFilters) -> pd.DataFrame:
    """The rows that meet every filter, in their original order."""
    keep = pd.Series(True, index=frame.index)
    if filters.link_types:
        keep &= frame["link_type"].isin(filters.link_types).fillna(False)
    if filters.statuses:
        keep &= frame["status"].isin(filters.statuses).fillna(False)
    if filters.min_dr > 0:
        keep &= (frame["dr"] >= filters.min_dr).fillna(False)
    if filters.max_spam < 100:
        keep &= (frame["spam_score"] <= filters.max_spam).fillna(False)
    return frame[keep.astype(bool)].reset_index(drop=True)


def choices(frame: pd.DataFrame, column: str, known: Sequence[str]) -> list[str]:
    """Filter options: the known values first, then any other value the service sent."""
    seen = [str(v) for v in frame[column].dropna().unique()]
    return [*known, *sorted(v for v in seen if v not in known)]


def dr_band(dr: int) -> str:
    return DR_BANDS[min(max(int(dr), 0) // BAND_WIDTH, len(DR_BANDS) - 1)]


def dr_band_counts(frame: pd.DataFrame) -> pd.DataFrame:
    """How many rows fall in each DR band (every band listed, empty ones as 0); unknown DR left out."""
    known = frame["dr"].dropna()
    counts = known.map(dr_band).value_counts()
    return pd.DataFrame(
        {"band": list(DR_BANDS), "count": [int(counts.get(band, 0)) for band in DR_BANDS]}
    ).astype({"band": "string", "count": "Int64"})


def breakdown(frame: pd.DataFrame, column: str) -> pd.DataFrame:
    """Rows per value of ``column`` (missing values counted as "not given"), largest first."""
    values = frame[column].astype("string").fillna(NOT_GIVEN)
    counts = values.value_counts(sort=False)
    out = pd.DataFrame({"value": counts.index.astype(str), "count": counts.to_numpy()})
    out = out.sort_values(["count", "value"], ascending=[False, True], kind="stable")
    return out.reset_index(drop=True).astype({"value": "string", "count": "Int64"})


def sample_note(shown: int, total: int | None) -> str:
    """How much of the site's link profile the map shows, in words for a chart caption."""
    if total is None:
        return f"A sample of {shown} referring domains (the service did not give the total)."
    return f"A sample of {shown} of {total:,} referring domains (the Trust Map holds at most 60)."


def map_note(shown: int, total: int | None, filtered: int | None = None) -> str:
    """The map's caption: ``sample_note``, then how many rows the filters leave when they are on
    (``filtered`` is None when no filter is set)."""
    note = sample_note(shown, total)
    if filtered is not None:
        note += f" Filters show {filtered} of them."
    return note
