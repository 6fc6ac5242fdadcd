"""What the history holds for one own site's opportunities, read once for the list
(``services.opportunities``) and for the report's What's next section (``services.reports.next_steps``):
the site's DR days, its watched keywords' top 10s, its tracked keywords' days (kept under the site's
slug) and which keywords are watched for it; up to a day when a report looks back from its period's end.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

import pandas as pd

from client.errors import InvalidInputError
from client.inputs import slug_for
from schema.history import KEYWORD_COLUMNS
from store.history import HistoryStore


@dataclass(frozen=True)
class SiteHistory:
    domain_rows: pd.DataFrame
    serp_rows: pd.DataFrame
    tracked_rows: pd.DataFrame
    #: (site, keyword) of each keyword watched for the site, as ``outlooks`` takes them.
    watched: list[tuple[str, str]]


def _until(frame: pd.DataFrame, last: date | None) -> pd.DataFrame:
    if last is None or frame.empty:
        return frame
    return frame[pd.to_datetime(frame["day"]).dt.date <= last].reset_index(drop=True)


def site_history(store: HistoryStore, account: str, site: str, until: date | None = None) -> SiteHistory:
    """``site``'s history for its opportunities (every day, or up to ``until``)."""
    try:  # tracked keywords are kept under the site's slug; a name that has none has none kept
        tracked = store.queries.keyword_history(account, slug_for(site))
    except InvalidInputError:
        tracked = pd.DataFrame({name: pd.Series(dtype="object") for name in KEYWORD_COLUMNS})
    watched = [
        (site, item.subject)
        for item in store.watchlist.entries(account)
        if item.kind == "keyword" and item.site == site
    ]
    return SiteHistory(
        _until(store.queries.domain_history(account, [site]), until),
        _until(store.queries.serp_history(account, site), until),
        _until(tracked, until),
        watched,
    )
