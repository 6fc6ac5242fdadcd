"""What every tab of the Market page shares: the keywords compared (all watched ones, or those watched
for one of your sites), the period, the CTR curve, and the figures computed once per rerun from the
recorded top 10s (``analysis.market``)."""

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
from analysis.market import ALL, BRAND, NON_BRAND, UnknownGroup, group_names, market_figures
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
GROUP_WORDS = {ALL: "All keywords", BRAND: "Brand keywords", NON_BRAND: "Non-brand keywords"}


@dataclass(frozen=True)
class MarketView:
    """One rerun's market: the top 10s of the chosen keywords and period, and their figures."""

    source: HistorySource
    since: date | None
    until: date
    top10s: pd.DataFrame
    group: str
    figures: pd.DataFrame
    own: list[str]
    competitors: list[str]
    domains: list[str]
    ctr: tuple[float, ...]

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
            extra=keyword_set_markers(self.top10s, self.group),
        )

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


#: The figures of the last few reads: a warm rerun reads the very frame it read before (the store's
#: answers are kept for a minute), so its figures are taken, not computed again from a year of rows.
_MEMO: FiguresMemo[tuple[pd.DataFrame, pd.DataFrame]] = FiguresMemo()


def _figures(
    raw: pd.DataFrame,
    group: str,
    tags: dict[str, tuple[str, ...]],
    brands: dict[str, tuple[str, ...]],
    ctr: tuple[float, ...],
    volumes: dict[str, float],
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The group's top 10s (one per keyword and day) and their figures (volume-weighted too where every
    keyword of a day has a known volume)."""

    def compute() -> tuple[pd.DataFrame, pd.DataFrame]:
        try:
            market = market_figures(raw, group, tags, brands, ctr, volumes)
        except UnknownGroup:  # a tag removed since this session picked it
            market = market_figures(raw.iloc[0:0], ALL, tags, brands, ctr, volumes)
        return market.top10s, market.figures

    key = (
        group,
        tuple(sorted(tags.items())),
        tuple(sorted(brands.items())),
        ctr,
        tuple(sorted(volumes.items())),
    )
    return _MEMO.get(raw, key, compute)


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


def market_view(source: HistorySource, own: dict[str, str], today: date) -> MarketView | None:
    """The choices on top of the page and the market they select; None (with a note) when there is
    nothing to compare yet."""
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
    raw = source.serp_history(site, since)
    volumes = frames.search_volumes(source.keyword_history(None, since))
    top10s, figures = _figures(raw, group, tags, brands, ctr, volumes)
    if top10s.empty:
        whose = "the watched keywords" if site is None else f"the keywords watched for {site}"
        whose = whose if group == ALL else f"{whose} in the group “{group}”"
        st.info(
            f"No top 10 is recorded for {escape_md(whose)} "
            "in this period. The daily snapshot keeps each watched keyword's top 10.",
            icon=":material/hourglass_empty:",
        )
        return None
    watch = source.watch_items()
    mine = [site] if site else [s for s in own if s in sites] or list(own)
    competitors = frames.watched_competitors(watch, own)
    domains = frames.compared_domains(figures, mine, competitors)
    return MarketView(source, since, today, top10s, group, figures, mine, competitors, domains, ctr)
