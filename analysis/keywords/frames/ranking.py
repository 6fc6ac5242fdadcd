"""Several keyword reports side by side: the pasted list, the ranking by gap and the distribution, and
what the comparison says about them in words. Pure."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd

from analysis.error_wording import describe_error
from analysis.keywords.frames.report import (
    gap_words,
    known_drs,
    present_columns,
    report_median,
    report_min,
)
from analysis.shaping import typed_frame
from client.errors import ApiError, InvalidInputError
from client.inputs import normalise_keyword
from client.models import KeywordReport

RANKING_COLUMNS: dict[str, str] = {
    "keyword": "string",
    "gap": "Float64",
    "gap_words": "string",
    "tier": "string",
    "median_dr": "Float64",
    "min_dr": "Float64",
    "your_dr": "Int64",
    "known_results": "Int64",
    "unknown_dr": "Int64",
    "source": "string",
    "error": "string",
}

#: Your DR (the same on every line) is said once under the table, and the count of results with a DR
#: is what "DR unknown" leaves: so that the table fits the page, both wait in its column menu.
RANKING_HIDDEN = ("your_dr", "known_results")
#: Ranking columns left out when no keyword has a value in them.
RANKING_OPTIONAL = ("gap", "gap_words", "tier", "error")

DISTRIBUTION_COLUMNS: dict[str, str] = {
    "keyword": "string",
    "position": "Int64",
    "domain": "string",
    "dr": "Int64",
}


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
        gap_words=gap_words(gap),
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


def failure_words(err: ApiError) -> str:
    """A keyword's failure as its line in the ranking says it: the error's title and advice."""
    view = describe_error(err)
    return f"{view.title}: {view.advice}"


def ranking_column_order(ranking: pd.DataFrame) -> list[str]:
    """The ranking's columns as shown: hidden and empty optional ones left out; when a keyword failed,
    its Problem comes right after the keyword (a failure is explained next to it, not off-screen)."""
    order = present_columns(ranking.drop(columns=list(RANKING_HIDDEN)), RANKING_OPTIONAL)
    if ranking["error"].notna().any():
        order.remove("error")
        order.insert(2, "error")
    return order


def asked_words(fresh: int, total: int) -> str:
    """How many of the compared keywords were asked of the service just now (``fresh`` of ``total``)."""
    if fresh == total:
        return f"All {total} keywords were asked just now."
    return f"{fresh} of {total} keywords were asked just now; the others came from this app's cache."


def ranking_note(user_dr: int | None, *, has_domain: bool, tier_note: str) -> str:
    """The caption under the ranking: what it is ranked by, and what a domain would add."""
    yours = f"Your DR: {user_dr}. " if has_domain and user_dr is not None else ""
    return (
        yours
        + ("Ranked by gap (median DR − your DR), smallest first. " if has_domain else "Ranked by median DR. ")
        + "Unknown DRs are left out of every median and minimum. "
        + (tier_note if has_domain else "Add your domain to rank by your gap.")
    )
