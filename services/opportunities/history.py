"""What the history holds for one own site's opportunities, read once for the list
(``services.opportunities``) and for the report's What's next section (``services.reports.next_steps``):
the site's DR days, its watched keywords' top-10 DRs by day (computed at the database, never their rows
read into memory), its tracked keywords (kept under the site's slug) as last recorded and which keywords
are watched for it; up to a day when a report looks back from its period's end.

The tracked keywords are ``opportunity_rows`` of only the rows it reads (each keyword's latest, and its
latest with a volume or impressions: ``store.latest``), not of every day of every keyword: at 5,000
keywords a year holds 1.8 million of those rows.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date

import pandas as pd

from analysis.opportunities import opportunity_rows
from client.errors import InvalidInputError
from client.inputs import slug_for
from schema.history import KEYWORD_COLUMNS
from services.market import site_top10_drs
from store.history import HistoryStore


@dataclass(frozen=True)
class SiteHistory:
    domain_rows: pd.DataFrame
    #: Each watched keyword's top-10 median and lowest DR by day without the site's own results (site →
    #: keyword → series, as ``outlooks_of`` takes them), computed at the database.
    top10s: dict[str, Mapping[str, pd.DataFrame]]
    #: The site's tracked keywords as last recorded (``opportunity_rows``: ``INPUT_COLUMNS``).
    tracked: pd.DataFrame
    #: (site, keyword) of each keyword watched for the site, as ``outlooks`` takes them.
    watched: list[tuple[str, str]]


def _until(frame: pd.DataFrame, last: date | None) -> pd.DataFrame:
    if last is None or frame.empty:
        return frame
    return frame[pd.to_datetime(frame["day"]).dt.date <= last].reset_index(drop=True)


def site_history(store: HistoryStore, account: str, site: str, until: date | None = None) -> SiteHistory:
    """``site``'s history for its opportunities (every day, or up to ``until``)."""
    try:  # tracked keywords are kept under the site's slug; a name that has none has none kept
        tracked = store.latest.keyword_rows(account, slug_for(site), until)
    except InvalidInputError:
        tracked = pd.DataFrame({name: pd.Series(dtype="object") for name in KEYWORD_COLUMNS})
    watched = [
        (site, item.subject)
        for item in store.watchlist.entries(account)
        if item.kind == "keyword" and item.site == site
    ]
    keywords = sorted({keyword for _site, keyword in watched})
    return SiteHistory(
        _until(store.queries.domain_history(account, [site]), until),
        {site: site_top10_drs(store, account, site, excluding=site, keywords=keywords, until=until)},
        opportunity_rows(tracked),
        watched,
    )
