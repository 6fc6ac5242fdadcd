"""Discovery and exchange answers → pandas DataFrames. Pure: no Streamlit, no network.

Missing signals stay missing (nullable dtypes, NA), never 0: a pending site without TrueDR must not
look like a site whose TrueDR is zero.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd

from client.growth_models import (
    Discovery,
    ExchangeCandidates,
)
from client.models import Lookup
from components.common.shaping import typed_frame

DISCOVERY_COLUMNS: dict[str, str] = {
    "domain": "string",
    "dr": "Int64",
    "true_dr": "Int64",
    "trust_score": "Int64",
    "confidence": "string",
    "traffic_validated": "boolean",
    "category": "string",
    "verified": "boolean",
    "title": "string",
}
CANDIDATE_COLUMNS: dict[str, str] = {
    **{k: v for k, v in DISCOVERY_COLUMNS.items() if k != "verified"},
    "opportunity": "string",
    "why": "string",
    "slug": "string",
}


def _lookup_row(site: Lookup, labels: Mapping[str, str]) -> dict[str, Any]:
    a = site.authority
    return {
        "domain": site.domain,
        "dr": a.dr,
        "true_dr": a.true_dr,
        "trust_score": a.trust_score,
        "confidence": a.confidence,
        "traffic_validated": a.traffic_validated,
        "category": labels.get(site.category, site.category) if site.category else None,
        "verified": site.verified,
        "title": site.title,
    }


def discovery_frame(found: Discovery, labels: Mapping[str, str] | None = None) -> pd.DataFrame:
    """One row per discovered site, in the service's order (TrueDR, then DR); categories by label."""
    return typed_frame([_lookup_row(s, labels or {}) for s in found.sites], DISCOVERY_COLUMNS)


def candidates_frame(found: ExchangeCandidates, labels: Mapping[str, str] | None = None) -> pd.DataFrame:
    """Exchange candidates with the kind of opportunity and why each fits."""
    rows = []
    for c in found.candidates:
        row = _lookup_row(c, labels or {})
        row.pop("verified")
        kind = c.opportunity.type if c.opportunity else None
        row.update(
            opportunity=kind.replace("_", " ") if kind else None,
            why=c.opportunity.reason if c.opportunity else None,
            slug=c.slug,
        )
        rows.append(row)
    return typed_frame(rows, CANDIDATE_COLUMNS)
