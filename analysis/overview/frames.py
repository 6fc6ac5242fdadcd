"""API models → pandas DataFrames. Pure functions, so every table and chart is testable without a browser.

Missing provider signals stay missing (pandas NA in nullable columns), never 0: a site with unknown
traffic must not look like a site with no traffic.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from analysis.shaping import typed_frame
from client.errors import ApiError, InvalidInputError
from client.inputs import ListEntry
from client.models import Backlink, Lookup

CHANGE_LABELS: tuple[tuple[str, str, str], ...] = (
    ("dr_weekly_change", "DR", "weekly"),
    ("true_dr_weekly_change", "TrueDR", "weekly"),
    ("dr_monthly_change", "DR", "monthly"),
    ("true_dr_monthly_change", "TrueDR", "monthly"),
)

BACKLINK_COLUMNS: dict[str, str] = {
    "source_domain": "string",
    "dr": "Int64",
    "follow": "boolean",
    "anchor": "string",
    "url": "string",
}

COMPARE_COLUMNS: dict[str, str] = {
    "domain": "string",
    "title": "string",
    "dr": "Int64",
    "true_dr": "Int64",
    "gap": "Int64",
    "trust_score": "Int64",
    "confidence": "string",
    "traffic_validated": "boolean",
    "traffic": "Int64",
    "referring_domains": "Int64",
    "backlinks": "Int64",
    "dr_weekly_change": "Float64",
    "true_dr_weekly_change": "Float64",
    "traffic_change": "Float64",
    "verified": "boolean",
    "error": "string",
}


def true_dr_gap(lookup: Lookup) -> int | None:
    """TrueDR minus DR, rounded (the coach's gap); None when either is unknown."""
    a = lookup.authority
    if a.dr is None or a.true_dr is None:
        return None
    return round(a.true_dr - a.dr)


def changes_frame(lookup: Lookup) -> pd.DataFrame:
    """The rating changes the service reported, one row each; unknown changes are left out."""
    rows = [
        {"metric": metric, "period": period, "change": float(value)}
        for attr, metric, period in CHANGE_LABELS
        if (value := getattr(lookup.changes, attr)) is not None
    ]
    return typed_frame(rows, {"metric": "string", "period": "string", "change": "Float64"})


def backlinks_frame(backlinks: Sequence[Backlink] | None) -> pd.DataFrame:
    rows = [
        {
            "source_domain": b.source_domain,
            "dr": b.dr,
            "follow": b.follow,
            "anchor": b.anchor,
            "url": b.url,
        }
        for b in backlinks or ()
    ]
    return typed_frame(rows, BACKLINK_COLUMNS)


def compare_row(domain: str, result: Lookup | ApiError) -> dict[str, object]:
    """One row of the comparison table; a failed lookup keeps its domain and says why.

    An entry that is not a domain (refused before any request) keeps its row as typed, marked skipped.
    """
    row: dict[str, object] = dict.fromkeys(COMPARE_COLUMNS)
    row["domain"] = domain
    if isinstance(result, InvalidInputError):
        row["error"] = f"Skipped: {result.message}"
        return row
    if isinstance(result, ApiError):
        row["error"] = result.message
        return row
    a, c, e = result.authority, result.changes, result.evidence
    row.update(
        domain=result.domain,
        title=result.title,
        dr=a.dr,
        true_dr=a.true_dr,
        gap=true_dr_gap(result),
        trust_score=a.trust_score,
        confidence=a.confidence,
        traffic_validated=a.traffic_validated,
        traffic=e.traffic,
        referring_domains=e.referring_domains,
        backlinks=e.backlinks,
        dr_weekly_change=c.dr_weekly_change,
        true_dr_weekly_change=c.true_dr_weekly_change,
        traffic_change=c.traffic_change,
        verified=result.verified,
    )
    return row


def compare_frame(results: Sequence[tuple[str, Lookup | ApiError]]) -> pd.DataFrame:
    """Side-by-side lookups, in the order asked, failures included."""
    frame = pd.DataFrame([compare_row(d, r) for d, r in results], columns=list(COMPARE_COLUMNS))
    return frame.astype(COMPARE_COLUMNS)


#: The comparison table's columns at first; the rest are one click away in its column menu.
COMPARE_ORDER = ["domain", "dr", "true_dr", "gap", "trust_score", "traffic", "referring_domains"]


def compare_order(failed: int) -> list[str]:
    """The comparison's shown columns: with ``failed`` entries, the Problem column right after the
    domain, so a failure is explained next to it, not off-screen."""
    order = list(COMPARE_ORDER)
    if failed:
        order.insert(1, "error")
    return order


def problems_note(failed: int, total: int) -> str:
    """How many of the ``total`` entries have a problem, and where to read why."""
    verb = "has" if failed == 1 else "have"
    return f"{failed} of {total} entries {verb} a problem; the Problem column says which and why."


def _as_typed(text: str, max_chars: int = 80) -> str:
    """Typed text as a Markdown code span: shown as it is, never as a link or formatting."""
    return "`" + text[:max_chars].replace("`", "'") + "`"


def merged_note(duplicates: Sequence[ListEntry], *, shown: int = 5) -> str:
    """Markdown naming the entries merged into an earlier one for the same site ("" when none were)."""
    if not duplicates:
        return ""
    pairs = [
        f"{_as_typed(d.text)} is the same site as {_as_typed(d.same_as or '')}" for d in duplicates[:shown]
    ]
    more = f", and {len(duplicates) - shown} more" if len(duplicates) > shown else ""
    count = "1 duplicate" if len(duplicates) == 1 else f"{len(duplicates)} duplicates"
    return f"Merged {count}, each site is shown once: {'; '.join(pairs)}{more}."
