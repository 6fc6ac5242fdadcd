"""Keyword API models → pandas DataFrames, and the plain-language reading of a report. Pure functions.

A SERP row whose DR the service could not resolve keeps DR as NA: it is shown as unknown and left out
of every median or minimum computed here, because counting it as 0 would make a keyword look easier
than it is.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

import pandas as pd

from client.errors import ApiError, InvalidInputError
from client.inputs import normalise_keyword
from client.models import KeywordReport, KeywordSuggestions, SerpResult, TrackedKeywords
from components.common.shaping import typed_frame
from components.common.text import fmt_number, safe_http_url

#: The service's tier rule (contract notes): boost when the gap is ≤ 0, advanced up to 10, else ultra.
ADVANCED_MAX_GAP = 10
TIER_LABELS = {
    "boost": "boost (you clear the bar)",
    "advanced": "advanced (within 10 DR)",
    "ultra": "ultra (more than 10 DR short)",
}

SERP_COLUMNS: dict[str, str] = {
    "position": "Int64",
    "domain": "string",
    "dr": "Int64",
    "title": "string",
    "url": "string",
    "tracked_slug": "string",
}

RANKING_COLUMNS: dict[str, str] = {
    "keyword": "string",
    "gap": "Float64",
    "tier": "string",
    "median_dr": "Float64",
    "min_dr": "Float64",
    "your_dr": "Int64",
    "known_results": "Int64",
    "unknown_dr": "Int64",
    "source": "string",
    "error": "string",
}

DISTRIBUTION_COLUMNS: dict[str, str] = {
    "keyword": "string",
    "position": "Int64",
    "domain": "string",
    "dr": "Int64",
}

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

TRACKED_COLUMNS: dict[str, str] = {
    "keyword": "string",
    "user_position": "Int64",
    "position_change": "Int64",
    "gap": "Float64",
    "tier": "string",
    "median_dr": "Float64",
    "min_dr": "Float64",
    "user_dr": "Int64",
    "impressions": "Int64",
    "gsc_position": "Float64",
    "search_volume": "Int64",
    "cpc": "Float64",
    "prev_position": "Int64",
    "last_checked_at": "datetime64[ns, UTC]",
    "id": "string",
}


def _scalar(value: object) -> object:
    """Extra fields go into tables only as plain values; nested ones are shown as text."""
    if value is None or isinstance(value, str | int | float | bool):
        return value
    return str(value)


# --- one report ---------------------------------------------------------------------------------


def known_drs(results: Iterable[SerpResult]) -> list[int]:
    """The DRs the service resolved; unknown ones are left out, never counted as 0."""
    return [row.dr for row in results if row.dr is not None]


def known_median(values: Iterable[float | None]) -> float | None:
    """Median of the known values, None when nothing is known."""
    known = [float(v) for v in values if v is not None and not pd.isna(v)]
    return float(statistics.median(known)) if known else None


def report_median(report: KeywordReport) -> float | None:
    """The service's medianDr, or the median of the resolved rows when the service sent none."""
    return report.median_dr if report.median_dr is not None else known_median(known_drs(report.results))


def report_min(report: KeywordReport) -> float | None:
    if report.min_dr is not None:
        return report.min_dr
    known = known_drs(report.results)
    return float(min(known)) if known else None


def serp_frame(report: KeywordReport) -> pd.DataFrame:
    """The top 10 in position order; extra fields the service adds become extra columns.

    Only http(s) result URLs are kept, so a table link can never run script.
    """
    rows: list[dict[str, object]] = []
    extras: dict[str, None] = {}
    for result in sorted(report.results, key=lambda r: r.position):
        row: dict[str, object] = {
            "position": result.position,
            "domain": result.domain,
            "dr": result.dr,
            "title": result.title,
            "url": safe_http_url(result.url),
            "tracked_slug": result.tracked_slug,
        }
        for name, value in (result.model_extra or {}).items():
            extras.setdefault(name, None)
            row[name] = _scalar(value)
        rows.append(row)
    frame = pd.DataFrame(rows, columns=[*SERP_COLUMNS, *extras])
    return frame.astype(SERP_COLUMNS)


def present_columns(frame: pd.DataFrame, optional: Iterable[str]) -> list[str]:
    """The frame's columns minus the optional ones that hold no value at all (nothing to show)."""
    optional = set(optional)
    return [c for c in frame.columns if c not in optional or frame[c].notna().any()]


Level = Literal["success", "info", "warning"]


@dataclass(frozen=True)
class Verdict:
    """What a report means for the user's site, in words a marketer acts on."""

    level: Level
    headline: str
    detail: str


def verdict(report: KeywordReport) -> Verdict | None:
    """The reading of the user's gap to the top 10; None when no domain was given."""
    user = report.user
    if user is None:
        return None
    median = report_median(report)
    lowest = report_min(report)
    if user.dr is None or median is None:
        return Verdict(
            "info",
            "No verdict: the DR needed is unknown",
            "The service could not resolve enough ratings to measure the gap for this keyword.",
        )
    gap = user.gap if user.gap is not None else median - user.dr
    median_text, gap_text = fmt_number(median), fmt_number(abs(gap))
    beats_weakest = lowest is not None and user.dr >= lowest
    weakest = (
        f" The weakest page in the top 10 has DR {fmt_number(lowest)}, so authority alone does not "
        "shut you out."
        if beats_weakest
        else ""
    )
    if gap <= 0:
        return Verdict(
            "success",
            "Winnable on authority",
            f"Your DR {user.dr} clears the median DR of the top 10 ({median_text})"
            + (f" by {gap_text} point{'' if abs(gap) == 1 else 's'}" if gap < 0 else "")
            + ". Content quality and search intent decide this one, not links.",
        )
    if gap <= ADVANCED_MAX_GAP:
        return Verdict(
            "info",
            f"Within reach: {gap_text} DR short",
            f"The median DR of the top 10 is {median_text} and yours is {user.dr}. A few strong, relevant "
            f"links plus a better page than the current results can close the gap.{weakest}",
        )
    return Verdict(
        "warning",
        f"A long climb: {gap_text} DR short",
        f"The median DR of the top 10 is {median_text} and yours is {user.dr}. Expect to need a sustained "
        f"link-building effort, or pick a less contested keyword first.{weakest}",
    )


# --- several reports ----------------------------------------------------------------------------


@dataclass(frozen=True)
class KeywordList:
    """Pasted keywords, normalised and de-duplicated (case-insensitively, first spelling kept)."""

    keywords: tuple[str, ...]
    rejected: tuple[tuple[str, str], ...]


def parse_keyword_list(text: str, *, limit: int | None = None) -> KeywordList:
    """One keyword per line; blank lines are skipped, refusals kept with the reason."""
    seen: dict[str, str] = {}
    rejected: list[tuple[str, str]] = []
    for line in (text or "").splitlines():
        if not line.strip():
            continue
        try:
            keyword = normalise_keyword(line)
        except InvalidInputError as exc:
            rejected.append((line.strip(), exc.message))
            continue
        seen.setdefault(keyword.casefold(), keyword)
    keywords = tuple(seen.values())
    if limit is not None and len(keywords) > limit:
        rejected.extend((k, f"Only the first {limit} keywords are compared.") for k in keywords[limit:])
        keywords = keywords[:limit]
    return KeywordList(keywords=keywords, rejected=tuple(rejected))


Outcome = KeywordReport | ApiError | str


def _source(report: KeywordReport) -> str | None:
    if report.cached is None:
        return None
    return "from cache" if report.cached else "live SERP"


def ranking_row(keyword: str, outcome: Outcome) -> dict[str, object]:
    """One keyword's line in the ranking; a failed or skipped keyword keeps its line and says why."""
    row: dict[str, object] = dict.fromkeys(RANKING_COLUMNS)
    row["keyword"] = keyword
    if isinstance(outcome, ApiError):
        row["error"] = outcome.message
        return row
    if isinstance(outcome, str):
        row["error"] = outcome
        return row
    median = report_median(outcome)
    user = outcome.user
    gap = user.gap if user is not None else None
    if gap is None and user is not None and user.dr is not None and median is not None:
        gap = round(median - user.dr, 1)
    known = known_drs(outcome.results)
    row.update(
        keyword=outcome.keyword,
        gap=gap,
        tier=user.tier if user is not None else None,
        median_dr=median,
        min_dr=report_min(outcome),
        your_dr=user.dr if user is not None else None,
        known_results=len(known),
        unknown_dr=len(outcome.results) - len(known),
        source=_source(outcome),
    )
    return row


def ranking_frame(outcomes: Sequence[tuple[str, Outcome]]) -> pd.DataFrame:
    """Keywords, most winnable first: smallest gap (or, without a domain, lowest median DR).

    Keywords without a measure keep their place at the end, failures included.
    """
    frame = pd.DataFrame([ranking_row(k, o) for k, o in outcomes], columns=list(RANKING_COLUMNS))
    frame = frame.astype(RANKING_COLUMNS)
    order_by = "gap" if frame["gap"].notna().any() else "median_dr"
    frame = frame.sort_values(order_by, na_position="last", kind="stable").reset_index(drop=True)
    frame.insert(0, "rank", pd.array(range(1, len(frame) + 1), dtype="Int64"))
    frame.loc[frame[order_by].isna(), "rank"] = pd.NA
    return frame


def distribution_frame(reports: Sequence[KeywordReport]) -> pd.DataFrame:
    """Every top-10 row of every report, long format, for a per-keyword distribution plot."""
    rows = [
        {"keyword": report.keyword, "position": r.position, "domain": r.domain, "dr": r.dr}
        for report in reports
        for r in sorted(report.results, key=lambda r: r.position)
    ]
    return typed_frame(rows, DISTRIBUTION_COLUMNS)


# --- suggestions --------------------------------------------------------------------------------


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


# --- tracked keywords ---------------------------------------------------------------------------


def tracked_frame(listing: TrackedKeywords) -> pd.DataFrame:
    """The stored snapshots, one row per tracked keyword, in the service's order.

    ``position_change`` is positive when the site moved up (from position 12 to 9 is +3).
    """
    rows: list[dict[str, object]] = []
    for item in listing.keywords:
        s = item.snapshot
        now = s.user_position if s else None
        before = s.prev_position if s else None
        rows.append(
            {
                "keyword": item.keyword,
                "median_dr": s.median_dr if s else None,
                "min_dr": s.min_dr if s else None,
                "user_dr": s.user_dr if s else None,
                "gap": s.gap if s else None,
                "tier": s.tier if s else None,
                "search_volume": s.search_volume if s else None,
                "cpc": s.cpc if s else None,
                "user_position": now,
                "prev_position": before,
                "position_change": before - now if now is not None and before is not None else None,
                "impressions": item.impressions,
                "gsc_position": item.gsc_position,
                "last_checked_at": item.last_checked_at,
                "id": item.id,
            }
        )
    frame = pd.DataFrame(rows, columns=list(TRACKED_COLUMNS))
    frame["last_checked_at"] = pd.to_datetime(frame["last_checked_at"], utc=True)
    return frame.astype(TRACKED_COLUMNS)


@dataclass(frozen=True)
class Usage:
    """How full the site's tracked list is and how much of the check allowance is spent."""

    tracked: int
    limit: int | None
    checks_used: int | None
    checks_limit: int | None

    @property
    def at_limit(self) -> bool:
        return self.limit is not None and self.tracked >= self.limit

    @property
    def checks_left(self) -> int | None:
        if self.checks_limit is None or self.checks_used is None:
            return None
        return max(0, self.checks_limit - self.checks_used)


def usage(listing: TrackedKeywords) -> Usage:
    q = listing.quota
    return Usage(
        tracked=len(listing.keywords),
        limit=listing.limit,
        checks_used=q.used if q else None,
        checks_limit=q.limit if q else None,
    )
