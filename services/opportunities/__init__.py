"""The opportunities list of one of an account's own sites, from what the service already gives: the one
function the page, the report section and ``python -m store opportunities`` all call.

- From the history: the site's DR by day, each watched keyword's recorded top 10 (its median and lowest
  DR without the site's own results) and position, and when each watched keyword becomes winnable at
  the site's pace (``analysis.opportunities.project``, for the median and for the lowest DR).
- From the service: the site's keyword suggestions (positions 4–30 with their search volume) and its
  tracked keywords (positions, Search Console impressions, stored difficulty snapshots): two calls.
- A keyword whose top 10 is neither recorded nor in a stored snapshot costs one keyword report
  (``calls_needed`` says how many before any is spent), read at the service's rate limit, at most
  ``max_calls`` of them; a read that fails is that keyword's failure, in the app's words
  (``analysis.error_wording``), never a zero: the keyword stays in the list without a score.

The numbers are ``analysis.opportunities.score_opportunities`` under the team's CTR curve.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pandas as pd

from analysis.opportunities import OPPORTUNITY_COLUMNS, Projection, projection_words, score_opportunities
from analysis.opportunities.score import INPUT_COLUMNS, TARGET_POSITION
from client.bulk import Pacer
from services.opportunities.reads import (
    KEYWORD_REPORT,
    RECORDED,
    STORED_SNAPSHOT,
    Candidates,
    KeywordReads,
    NotAsked,
    calls_needed,
    read_candidates,
    read_top10s,
)
from store.history import HistoryStore

__all__ = [
    "COLUMNS",
    "KEYWORD_REPORT",
    "PROJECTION_COLUMNS",
    "RECORDED",
    "STORED_SNAPSHOT",
    "Candidates",
    "KeywordReads",
    "NotAsked",
    "Opportunities",
    "calls_needed",
    "gather_opportunities",
    "read_candidates",
    "read_top10s",
    "score_candidates",
]

#: Each projection's columns, for the median DR and for the lowest (``median_state``, ``lowest_band``, …):
#: the state, its sentence, the month (YYYY-MM) and its band ("YYYY-MM to YYYY-MM"); "" for a keyword
#: that is not watched (no history to project from).
PROJECTION_FIELDS = ("state", "words", "month", "band")
PROJECTION_COLUMNS = tuple(
    f"{target}_{name}" for target in ("median", "lowest") for name in PROJECTION_FIELDS
)
#: The list's columns: the score and its parts, where the top 10 came from, why a keyword has no top 10
#: (the failure in words; "" when read), and the projections.
COLUMNS = (*OPPORTUNITY_COLUMNS, "top10_from", "problem", *PROJECTION_COLUMNS)


@dataclass(frozen=True)
class Opportunities:
    """The list (``COLUMNS``, highest score first, keywords without a score last), the projections of
    the watched keywords, the sources that could not be read, and the keyword reports spent."""

    site: str
    target: int
    scored: pd.DataFrame
    projections: dict[str, dict[str, Projection]]
    problems: list[str]
    calls: int
    failed: tuple[str, ...] = ()
    over_limit: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        """Every source and every keyword report asked for was read (keywords left unread by the limit
        of calls are not failures: they were not asked)."""
        return not self.problems and not self.failed

    def problem_lines(self) -> list[str]:
        """Each source or keyword that could not be read, in words."""
        problems = self.scored.set_index("keyword")["problem"]
        return [*self.problems, *(f"“{keyword}”: {problems[keyword]}" for keyword in self.failed)]


def _no_progress(_line: str) -> None:
    return None


def _projection_cells(projections: dict[str, Projection] | None) -> dict[str, str]:
    cells = dict.fromkeys(PROJECTION_COLUMNS, "")
    for target, projection in (projections or {}).items():
        cells[f"{target}_state"] = projection.state
        cells[f"{target}_words"] = projection_words(projection)
        if projection.day is not None and projection.band_days is not None:
            early, late = projection.band_days
            cells[f"{target}_month"] = f"{projection.day:%Y-%m}"
            cells[f"{target}_band"] = f"{early:%Y-%m} to {late:%Y-%m}"
    return cells


def score_candidates(
    candidates: Candidates, ctr: tuple[float, ...], target: int = TARGET_POSITION
) -> pd.DataFrame:
    """The list (``COLUMNS``) from the candidates as they stand."""
    rows = [{**row, "site_dr": candidates.site_dr} for row in candidates.rows.values()]
    frame = pd.DataFrame(rows, columns=[*INPUT_COLUMNS, "top10_from", "problem"])
    scored = score_opportunities(frame, ctr, target)
    extra = frame.set_index("keyword")[["top10_from", "problem"]]
    cells = pd.DataFrame(
        [_projection_cells(candidates.projections.get(keyword)) for keyword in scored["keyword"]],
        columns=list(PROJECTION_COLUMNS),
    )
    joined = scored.join(extra, on="keyword")
    return pd.concat([joined.reset_index(drop=True), cells], axis=1).loc[:, list(COLUMNS)]


def gather_opportunities(
    store: HistoryStore,
    client: KeywordReads,
    account: str,
    site: str,
    *,
    ctr: tuple[float, ...],
    target: int = TARGET_POSITION,
    max_calls: int | None = None,
    progress: Callable[[str], None] | None = None,
    candidates: Candidates | None = None,
    pacer: Pacer | None = None,
) -> Opportunities:
    """The opportunities list of ``site`` (one of ``account``'s own sites): ``candidates`` as
    ``read_candidates`` gave them (read now when None), the missing top 10s read (at most
    ``max_calls``), scored for ``target`` under ``ctr``."""
    found = candidates if candidates is not None else read_candidates(store, client, account, site)
    calls = read_top10s(found, client, max_calls=max_calls, progress=progress or _no_progress, pacer=pacer)
    scored = score_candidates(found, ctr, target)
    return Opportunities(
        site,
        target,
        scored,
        found.projections,
        list(found.problems),
        calls,
        tuple(found.failed),
        tuple(found.over_limit),
    )
