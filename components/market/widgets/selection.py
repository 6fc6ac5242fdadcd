"""What every tab of the Market page shares: the keywords compared (all watched ones, or those watched
for one of your sites), the period, the CTR curve, and the figures computed once per rerun from the
recorded top 10s: summed at the database (``HistorySource.market``, ``services.market.market_as_shown``) and
finished by ``analysis.market``; the top 10s themselves are read only for the two days the churn tab
compares."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

import pandas as pd
import streamlit as st

from analysis.figures import history_frames
from analysis.links import (
    MARKET_CHARTS,
    MARKET_FROM_PARAM,
    MARKET_GROUP_PARAM,
    MARKET_SITE_PARAM,
    MARKET_TAB_PARAM,
    MARKET_TO_PARAM,
)
from analysis.market import (
    ALL,
    BRAND,
    NON_BRAND,
    SPLIT,
    MarketFigures,
    UnknownGroup,
    dr_spread,
    group_names,
    in_group,
    no_market,
    one_top10_per_keyword,
)
from analysis.market import standing as frames
from analysis.market.markers import keyword_set_markers
from analysis.text import escape_md
from components.core.history.source import HistorySource
from components.core.nav import page_visits
from components.history.widgets.notes import chart_markers
from components.history.widgets.pieces import period_picker
from components.market.frames import FiguresMemo
from services.market import team_ctr

ALL_KEYWORDS = "All watched keywords"
SITE_KEY = MARKET_SITE_PARAM
GROUP_KEY = MARKET_GROUP_PARAM
PERIOD_KEY = "market_period"
#: The two days an alert's link compared, for the churn tab to open on.
LINKED_WINDOW = "_market_linked_window"
#: The tab where keywords are tagged and brand terms set.
GROUPS_TAB = "Keyword groups"
GROUP_WORDS = {ALL: "All keywords", BRAND: "Brand keywords", NON_BRAND: "Non-brand keywords"}


@dataclass(frozen=True)
class MarketView:
    """One rerun's market: the top 10s of the chosen keywords and period, and their figures."""

    source: HistorySource
    since: date | None
    until: date
    market: MarketFigures
    group: str
    own: list[str]
    competitors: list[str]
    domains: list[str]
    ctr: tuple[float, ...]
    #: The site whose watched keywords these are; None for every watched keyword.
    site: str | None = None

    @property
    def figures(self) -> pd.DataFrame:
        return self.market.figures

    @property
    def empty(self) -> bool:
        return self.market.empty

    @property
    def days(self) -> list[date]:
        """The days with a top 10 of these keywords, oldest first."""
        return [day.date() for day in pd.to_datetime(self.market.days["day"]).sort_values()]

    def _group_top10s(self, raw: pd.DataFrame) -> pd.DataFrame:
        """One top 10 per keyword and day of the view's group among ``raw`` (top-10 rows)."""
        tags, brands = self.source.keyword_tags(), self.source.brand_terms()

        def compute() -> pd.DataFrame:
            try:
                return one_top10_per_keyword(in_group(raw, self.group, tags, brands))
            except UnknownGroup:  # a tag removed since this session picked it
                return one_top10_per_keyword(raw.iloc[0:0])

        key = (self.group, tuple(sorted(tags.items())), tuple(sorted(brands.items())))
        return _TOP10S.get(raw, key, compute)

    def keywords(self) -> list[str]:
        """The keywords with a top 10 in the period (of the view's site and group), read down the top 10s'
        index (``HistorySource.top10_keywords``) for the tabs that list them (When winnable, notes)."""
        try:
            return self.source.top10_keywords(self.site, self.since, self.group)
        except UnknownGroup:  # a tag removed since this session picked it
            return []

    def spread(self) -> pd.DataFrame:
        """The top-10 DR per day and keyword, computed where the rows are (``analysis.market.dr_spread``)."""
        try:
            return self.source.dr_spread(self.site, self.since, self.group)
        except UnknownGroup:  # a tag removed since this session picked it
            return dr_spread(one_top10_per_keyword(self.source.serp_days(self.site, ())))

    def top10s_on(self, *days: date) -> pd.DataFrame:
        """The top 10s of ``days`` only (one per keyword and day): what comparing two days reads."""
        return self._group_top10s(self.source.serp_days(self.site, tuple(sorted(days))))

    def markers(self, key: str, subjects: list[str]) -> pd.DataFrame | None:
        """The markers of one of the page's charts (under its own switch): notes, Google's updates and
        the days the group's keywords changed."""
        return chart_markers(
            self.source,
            key=key,
            since=self.since,
            until=self.until,
            subjects=subjects,
            group=self.group,
            extra=keyword_set_markers(self.market.days, self.group),
        )

    @property
    def file_subject(self) -> str:
        """What a download's file name says its table holds: whose keywords, and which group."""
        return f"{self.site or 'all-sites'} {self.group}"

    @property
    def lines(self) -> pd.DataFrame:
        return frames.complete_lines(self.figures, self.domains)

    @property
    def standing(self) -> pd.DataFrame:
        return frames.standing(self.figures, self.own, self.competitors)


def _ctr() -> tuple[float, ...]:
    chosen = team_ctr()
    if chosen.problem:
        st.warning(
            f"The CTR curve in the settings cannot be used ({chosen.problem}); the default one is used."
        )
    return chosen.curve


#: The top 10s of the last few reads: a warm rerun of a tab that shows them reads the very frame it read
#: before (the store's answers are kept for a minute), so they are taken, not made again from a year of rows.
_TOP10S: FiguresMemo[pd.DataFrame] = FiguresMemo()


def _market(
    source: HistorySource, site: str | None, since: date | None, group: str, ctr: tuple[float, ...]
) -> MarketFigures:
    """The group's figures (volume-weighted too where every keyword of a day has a known volume)."""
    try:
        return source.market(site, since, group, ctr)
    except UnknownGroup:  # a tag removed since this session picked it
        return no_market()


def _keyword_sites(source: HistorySource) -> list[str]:
    return sorted(
        {site for kind, _subject, _origin, site in source.watch_items() if kind == "keyword" and site}
    )


def _take_link(sites: list[str], groups: list[str]) -> None:
    """On arrival through a link (an alert's Chart): the site, group and the two days it names."""
    if not page_visits.arriving():
        return
    site, group = st.query_params.get(MARKET_SITE_PARAM), st.query_params.get(MARKET_GROUP_PARAM)
    if site in sites:
        st.session_state[SITE_KEY] = site
    if group in groups:
        st.session_state[GROUP_KEY] = group
    if st.query_params.get(MARKET_TAB_PARAM) != MARKET_CHARTS["market_churn"]:
        return
    try:
        window = (
            date.fromisoformat(st.query_params.get(MARKET_FROM_PARAM, "")),
            date.fromisoformat(st.query_params.get(MARKET_TO_PARAM, "")),
        )
    except ValueError:
        return
    st.session_state[LINKED_WINDOW] = window


def _split_empty_words(group: str, whose: str, sites: list[str], brands: dict[str, tuple[str, ...]]) -> str:
    """Why the brand (or non-brand) group of keywords with recorded top 10s holds none of them."""
    set_terms = any(brands.get(site) for site in sites)
    terms = (
        "its site's brand terms"
        if set_terms
        else "its site's brand terms (none are set, so each site's name is used)"
    )
    said = (
        f"No keyword of {whose} matches {terms}, so none is a brand keyword."
        if group == BRAND
        else f"Every keyword of {whose} matches {terms}, so none is a non-brand keyword."
    )
    return f"{said} Set a site's brand terms on the **{GROUPS_TAB}** tab."


def market_view(source: HistorySource, own: dict[str, str], today: date) -> MarketView | None:
    """The choices on top of the page and the market they select; None (with a note) when there is
    nothing to compare yet. A brand or non-brand group that holds none of the keywords gives a market
    without top 10s (with a note saying why): its page still offers the tab that sets brand terms."""
    sites = _keyword_sites(source)
    if not sites:
        st.info(
            "No keyword is watched yet. Watch keywords for your site on **Keyword research** (or with "
            "`python -m store watch add keyword …`): each day their whole top 10 is kept, and this page "
            "compares every domain in them.",
            icon=":material/visibility:",
        )
        return None
    tags, brands = source.keyword_tags(), source.brand_terms()
    _take_link(sites, group_names(tags))
    left, middle, right = st.columns([2, 2, 3])
    with left:
        chosen = st.selectbox(
            "Keywords",
            [ALL_KEYWORDS, *sites],
            format_func=lambda s: s if s == ALL_KEYWORDS else f"Watched for {s}",
            key=SITE_KEY,
        )
    with middle:
        group = st.selectbox(
            "Group",
            group_names(tags),
            format_func=lambda g: GROUP_WORDS.get(g, f"Tagged “{g}”"),
            key=GROUP_KEY,
        )
    with right:
        period = period_picker(PERIOD_KEY)
    site = None if chosen == ALL_KEYWORDS else chosen
    ctr = _ctr()
    since = history_frames.since(period, today)
    market = _market(source, site, since, group, ctr)
    watch = source.watch_items()
    mine = [site] if site else [s for s in own if s in sites] or list(own)
    competitors = frames.watched_competitors(watch, own)
    if market.empty:
        whose = "the watched keywords" if site is None else f"the keywords watched for {site}"
        if group in SPLIT and not _market(source, site, since, ALL, ctr).empty:
            words = _split_empty_words(group, escape_md(whose), [site] if site else sites, brands)
            st.info(words, icon=":material/sell:")
            return MarketView(source, since, today, market, group, mine, competitors, [], ctr, site)
        whose = whose if group == ALL else f"{whose} in the group “{group}”"
        st.info(
            f"No top 10 is recorded for {escape_md(whose)} "
            "in this period. The daily snapshot keeps each watched keyword's top 10.",
            icon=":material/hourglass_empty:",
        )
        return None
    domains = frames.compared_domains(market.figures, mine, competitors)
    return MarketView(source, since, today, market, group, mine, competitors, domains, ctr, site)
