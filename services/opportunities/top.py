"""The top of one own site's opportunities list, for the Coach's next actions: the highest-scored
keywords that would gain clicks at the target, when the other watched keywords become winnable, how many
keywords the list could not rank for want of a top 10, and which of its listing reads were not made.

The same list as the Opportunities page and ``python -m store opportunities`` (``score_candidates``
over the same candidates, under the team's CTR curve), cut to its first rows: the Coach reads nothing
of its own, so what it says matches the page for the same site and target.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from analysis.opportunities.score import TARGET_POSITION
from services.opportunities import Candidates, score_candidates

#: How many opportunities the Coach's Actions tab lists.
COACH_LISTED = 3


@dataclass(frozen=True)
class TopOpportunities:
    """The first ``rows`` of the list (its columns, ``services.opportunities.COLUMNS``) that would gain
    clicks at ``target``, of ``ranked`` such keywords; ``lacking`` keywords have no top 10 yet (unread or
    failed), so no score; ``unasked`` names the listing reads not made (the list is the history's then)."""

    site: str
    target: int
    rows: pd.DataFrame
    ranked: int
    lacking: int
    unasked: tuple[str, ...]
    problems: tuple[str, ...]
    #: The keywords watched for the site that are not among ``rows``, in the list's order, with when
    #: each becomes winnable against its top 10's median DR (the list's ``median_words``).
    watched: tuple[tuple[str, str], ...] = ()


def top_opportunities(
    candidates: Candidates,
    ctr: tuple[float, ...],
    target: int = TARGET_POSITION,
    count: int = COACH_LISTED,
) -> TopOpportunities:
    """The first ``count`` rows of the list with clicks to gain (a keyword already at or above the
    target has none: it is no next action), in the list's own order."""
    scored = score_candidates(candidates, ctr, target)
    gaining = scored[scored["score"].notna() & (scored["clicks_gained"] > 0)].reset_index(drop=True)
    lacking = len(candidates.unread()) + len(candidates.failed)
    shown = gaining.head(count)
    outlooks = scored[(scored["median_words"] != "") & ~scored["keyword"].isin(shown["keyword"])]
    return TopOpportunities(
        candidates.site,
        target,
        shown.reset_index(drop=True),
        len(gaining),
        lacking,
        tuple(candidates.unasked),
        tuple(candidates.problems),
        tuple(zip(outlooks["keyword"], outlooks["median_words"], strict=True)),
    )
