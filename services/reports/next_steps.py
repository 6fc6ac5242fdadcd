"""The report's "What's next" section: the site's tracked keywords worth the most clicks for the DR they
ask, and when each keyword watched for it becomes winnable, as they stood on the period's last day.

From the history only (a report makes no API call): the numbers are the ones the opportunities list
(``services.opportunities``, ``python -m store opportunities``) and the Market page's When winnable tab
compute, by the same functions (``analysis.opportunities``: ``score_opportunities`` under the team's
CTR curve, ``outlooks``), on the rows recorded up to the period's end, so a report of a past month says
what was true then.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from analysis.opportunities import TARGET_POSITION, score_opportunities
from analysis.opportunities.outlook import outlook_table, outlooks_of
from services.opportunities.history import site_history
from store.history import HistoryStore
from store.reports.period import Period

#: How many opportunities the report lists (the highest scores).
OPPORTUNITIES_LISTED = 5
#: How many watched keywords' outlooks the report lists (the nearest; it says of how many).
OUTLOOKS_LISTED = 20


@dataclass(frozen=True)
class NextSteps:
    """The highest-scored tracked keywords (``OPPORTUNITY_COLUMNS``) of how many were scored, for
    reaching ``target``; and the nearest watched keywords' outlooks (``OUTLOOK_COLUMNS``), nearest
    first, of how many were projected."""

    opportunities: pd.DataFrame
    scored: int
    target: int
    outlooks: pd.DataFrame
    projected: int = 0

    @property
    def empty(self) -> bool:
        return self.opportunities.empty and self.outlooks.empty


def next_steps(
    store: HistoryStore,
    account: str,
    site: str,
    period: Period,
    ctr: tuple[float, ...],
    target: int = TARGET_POSITION,
) -> NextSteps:
    """What the history up to ``period``'s end says ``site`` should go for next."""
    recorded = site_history(store, account, site, until=period.end)
    scored = score_opportunities(recorded.tracked, ctr, target)
    scored = scored.dropna(subset=["score"])
    found = outlooks_of(recorded.domain_rows, recorded.top10s, recorded.watched)
    table = outlook_table(found)
    return NextSteps(
        scored.head(OPPORTUNITIES_LISTED).reset_index(drop=True),
        len(scored),
        target,
        table.head(OUTLOOKS_LISTED).reset_index(drop=True),
        len(table),
    )
