"""One account's history rows held in memory as DataFrames, answering every read of the History and
Market pages (``components.core.history.source.HistorySource``) as the store would: what the benchmarks
compare the store with, and what the tests feed the pages' figures. Pure: no Streamlit.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date

import pandas as pd

from analysis.figures.history_evidence import in_window
from analysis.figures.history_frames import best_positions, empty, keyword_summary
from analysis.market import (
    DEFAULT_CTR,
    MarketFigures,
    dr_spread,
    in_group,
    market_figures,
    one_top10_per_keyword,
)
from analysis.market.standing import search_volumes
from analysis.opportunities.series import top10_dr_by_keyword
from components.core.history.source import WatchTuple
from schema.history import DOMAIN_COLUMNS, KEYWORD_COLUMNS, LINK_COLUMNS, SERP_COLUMNS, TRUST_TOTAL_COLUMNS
from store.notes import NOTE_COLUMNS


def _day_values(frame: pd.DataFrame) -> pd.Series:
    return pd.to_datetime(frame["day"]).dt.date


@dataclass
class FrameSource:
    """The same reads answered from frames in memory (one account's rows, any order)."""

    domains: pd.DataFrame = field(default_factory=lambda: empty(DOMAIN_COLUMNS))
    keywords: pd.DataFrame = field(default_factory=lambda: empty(KEYWORD_COLUMNS))
    #: (domain, day) → that day's Trust Map sample.
    links: dict[tuple[str, date], pd.DataFrame] = field(default_factory=dict)
    #: domain → its Trust Map totals by day.
    totals: dict[str, pd.DataFrame] = field(default_factory=dict)
    #: The watchlist as (kind, subject, origin, site).
    watch: list[WatchTuple] = field(default_factory=list)
    #: The watched keywords' top 10s (``SERP_COLUMNS``).
    serps: pd.DataFrame = field(default_factory=lambda: empty(SERP_COLUMNS))
    #: keyword → its tags; own site → its brand terms.
    tags: dict[str, tuple[str, ...]] = field(default_factory=dict)
    brands: dict[str, tuple[str, ...]] = field(default_factory=dict)
    #: Editors' notes (``store.notes.NOTE_COLUMNS``).
    chart_notes: pd.DataFrame = field(default_factory=lambda: empty(NOTE_COLUMNS))

    def __post_init__(self) -> None:
        self._domain_days = _day_values(self.domains) if not self.domains.empty else None
        self._keyword_days = _day_values(self.keywords) if not self.keywords.empty else None

    def domain_history(self, domains: Sequence[str], since: date | None) -> pd.DataFrame:
        if self._domain_days is None:
            return empty(DOMAIN_COLUMNS)
        keep = self.domains["domain"].isin(list(domains))
        if since is not None:
            keep &= self._domain_days >= since
        rows = self.domains[keep].assign(day=self._domain_days[keep])
        return rows.sort_values(["day", "domain"], kind="stable").reset_index(drop=True)

    def trust_map_days(self, domain: str) -> list[date]:
        return sorted(day for (name, day) in self.links if name == domain)

    def trust_map_links(self, domain: str, day: date) -> pd.DataFrame:
        found = self.links.get((domain, day))
        return empty(LINK_COLUMNS) if found is None else found.copy()

    def trust_map_totals(self, domain: str, since: date | None) -> pd.DataFrame:
        found = self.totals.get(domain)
        if found is None:
            return empty(TRUST_TOTAL_COLUMNS)
        days = _day_values(found)
        return found[days >= since] if since is not None else found.copy()

    def keyword_history(self, site: str | None, since: date | None) -> pd.DataFrame:
        if self._keyword_days is None:
            return empty(KEYWORD_COLUMNS)
        keep = pd.Series(True, index=self.keywords.index)
        if site is not None:
            keep &= self.keywords["site"] == site
        if since is not None:
            keep &= self._keyword_days >= since
        rows = self.keywords[keep].assign(day=self._keyword_days[keep])
        return rows.sort_values(["day", "keyword"], kind="stable").reset_index(drop=True)

    def keyword_best(self, site: str) -> pd.DataFrame:
        return best_positions(self.keyword_history(site, None))

    def keyword_summary(self, site: str, since: date | None, until: date | None) -> pd.DataFrame:
        """By the definition itself, over the period's rows in memory (the store counts at the database)."""
        rows = in_window(self.keyword_history(site, since), until)
        return keyword_summary(rows, self.keyword_best(site))

    def keyword_days(
        self, site: str, keywords: tuple[str, ...], since: date | None, until: date | None
    ) -> pd.DataFrame:
        rows = in_window(self.keyword_history(site, since), until)
        return rows[rows["keyword"].isin(list(keywords))].reset_index(drop=True) if not rows.empty else rows

    def serp_history(self, site: str | None, since: date | None) -> pd.DataFrame:
        if self.serps.empty:
            return empty(SERP_COLUMNS)
        keep = pd.Series(True, index=self.serps.index)
        if site is not None:
            keep &= self.serps["site"] == site
        if since is not None:
            keep &= _day_values(self.serps) >= since
        return self.serps[keep].reset_index(drop=True)

    def serp_days(self, site: str | None, days: tuple[date, ...]) -> pd.DataFrame:
        rows = self.serp_history(site, None)
        return rows[_day_values(rows).isin(set(days))].reset_index(drop=True) if not rows.empty else rows

    def latest_top10s(self, site: str, keywords: tuple[str, ...], since: date) -> pd.DataFrame:
        rows = self.serp_history(site, since)
        rows = rows[rows["keyword"].isin(list(keywords))]
        latest = rows.groupby("keyword")["day"].transform("max")
        return rows[rows["day"] == latest].reset_index(drop=True)

    def dr_spread(self, site: str | None, since: date | None, group: str) -> pd.DataFrame:
        serps = self.serp_history(site, since)
        return dr_spread(market_figures(serps, group, self.tags, self.brands, DEFAULT_CTR).top10s)

    def top10_drs(
        self, site: str | None, excluding: str, keywords: tuple[str, ...]
    ) -> Mapping[str, pd.DataFrame]:
        """By the definition itself (the store computes the same at the database)."""
        serps = self.serp_history(site, None)
        return top10_dr_by_keyword(serps[serps["keyword"].isin(list(keywords))], excluding)

    def top10_keywords(self, site: str | None, since: date | None, group: str) -> list[str]:
        serps = in_group(self.serp_history(site, since), group, self.tags, self.brands)
        return sorted(set(one_top10_per_keyword(serps)["keyword"]))

    def keyword_tags(self) -> dict[str, tuple[str, ...]]:
        return dict(self.tags)

    def market(
        self, site: str | None, since: date | None, group: str, ctr: tuple[float, ...]
    ) -> MarketFigures:
        """By the definition itself, over the rows in memory (the store sums the same at the database)."""
        volumes = search_volumes(self.keyword_history(None, since))
        return market_figures(self.serp_history(site, since), group, self.tags, self.brands, ctr, volumes)

    def notes(self, since: date | None) -> pd.DataFrame:
        return self.chart_notes.copy()

    def brand_terms(self) -> dict[str, tuple[str, ...]]:
        return dict(self.brands)

    def watch_items(self) -> list[WatchTuple]:
        return sorted(self.watch, key=lambda item: (item[2] != "own", item[1], item[0], item[3]))
