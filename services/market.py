"""The market of one site's watched keywords, read from the history: the one function every report, feed
and command calls for visibility and share of voice (``market_as_shown``: ``site_market`` weighed by the
keywords' latest volumes as the Market page weighs them, so all of them share its daily roll-ups), with
the team's CTR curve as the settings give it (``team_ctr``). The figures are summed at the database
(``store.market``) and finished by ``analysis.market``, whose ``market_figures`` stays their definition
(the two paths are tested to agree).

The keyword set is named the way the Market page names it ("Watched for example.com", group "All
keywords"): ``keyword_set_words`` says which one a report or feed measured.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

import pandas as pd

from analysis.market import (
    ALL,
    BRAND,
    DEFAULT_CTR,
    NON_BRAND,
    SPLIT,
    CtrCurveError,
    MarketFigures,
    ctr_curve,
    dr_spread,
    market_of_sums,
    no_market,
    split_pairs,
    tagged_keywords,
)
from analysis.market.standing import volumes_of
from analysis.opportunities.series import drs_by_keyword, sorted_drs
from client.settings import SECRETS_FILES
from store.config import secrets_tables
from store.history import HistoryStore

GROUP_WORDS = {ALL: "all watched keywords", BRAND: "brand keywords", NON_BRAND: "non-brand keywords"}


def load_ctr_curve(files: tuple[Path, ...] = SECRETS_FILES) -> tuple[float, ...]:
    """``[visibility] ctr`` of the last secrets file that sets it, else the default; CtrCurveError when
    the one set is not a curve."""
    configured: Any = None
    for content in secrets_tables(files):
        section = content.get("visibility")
        if isinstance(section, dict) and "ctr" in section:
            configured = section["ctr"]
    return DEFAULT_CTR if configured is None else ctr_curve(configured)


@dataclass(frozen=True)
class TeamCtr:
    """The curve the figures weigh positions with, and why it is the default when a team's own curve is
    set but cannot be used (None when the settings were used as they are)."""

    curve: tuple[float, ...]
    problem: str | None = None


def team_ctr(files: tuple[Path, ...] = SECRETS_FILES) -> TeamCtr:
    """The team's curve; the default, with the reason in plain words, when the one set cannot be used
    (pages say so; reports, feeds and alerts go on with the default rather than not at all)."""
    try:
        return TeamCtr(load_ctr_curve(files))
    except CtrCurveError as exc:
        return TeamCtr(DEFAULT_CTR, str(exc))


def group_words(group: str) -> str:
    """A keyword group in words, as alerts and reports say it ("brand keywords")."""
    return GROUP_WORDS.get(group, f"keywords tagged “{group}”")


def keyword_set_words(site: str | None, group: str = ALL) -> str:
    """Which keywords a figure measures, in the Market page's terms: "all keywords watched for
    example.com", "brand keywords watched for example.com", "all watched keywords"."""
    if site is None:
        return group_words(group) if group == ALL else f"watched {group_words(group)}"
    return f"{'all keywords' if group == ALL else group_words(group)} watched for {site}"


def _group_keys(
    store: HistoryStore, account: str, site: str | None, since: date | None, until: date | None, group: str
) -> tuple[set[str] | None, set[tuple[str, str]] | None]:
    """The keywords (a tag's), or the (site, keyword) pairs (brand, non-brand), of ``group``; None for
    both with every keyword. UnknownGroup for a group there is not."""
    if group == ALL:
        return None, None
    if group in SPLIT:
        pairs = store.market.pairs(account, site, since, until)
        return None, split_pairs(pairs, group, store.groups.brand_terms(account))
    return tagged_keywords(group, store.groups.keyword_tags(account)), None


def _none_chosen(keywords: set[str] | None, pairs: set[tuple[str, str]] | None) -> bool:
    """Whether ``_group_keys`` chose no keyword at all (a tag nobody has, a group with no pair), as
    opposed to every keyword (None)."""
    return (keywords is not None and not keywords) or (pairs is not None and not pairs)


def search_volumes(store: HistoryStore, account: str, since: date | None) -> dict[str, float]:
    """Each keyword's weight for the volume-weighted visibility, as ``analysis.market.standing.
    search_volumes`` gives it from the keyword history from ``since`` on, read at the database."""
    latest = store.latest_values.read(account, ("impressions", "search_volume"), since)
    return volumes_of(latest["impressions"], latest["search_volume"])


def site_market(
    store: HistoryStore,
    account: str,
    site: str | None,
    *,
    since: date | None,
    until: date | None,
    ctr: tuple[float, ...],
    group: str = ALL,
    volumes: Mapping[str, float] | None = None,
) -> MarketFigures:
    """Visibility and share of voice of the keywords watched for ``site`` (every watched keyword when
    None) in ``group``, from ``since`` to ``until`` (None: without that bound), under ``ctr``: what the
    Market page shows for the same choices. UnknownGroup for a group there is not.

    Summed at the database (``store.market``), only the days the daily roll-ups do not hold yet
    (``store.rollups``), and finished by ``analysis.market``: the same frame the pandas path
    (``market_figures`` over ``serp_history`` rows) gives, without reading every row of the period."""
    keywords, pairs = _group_keys(store, account, site, since, until, group)
    if _none_chosen(keywords, pairs):
        return no_market()
    per_domain, per_day = store.market_days.sums(
        account, site, since=since, until=until, curve=ctr, volumes=volumes, keywords=keywords, pairs=pairs
    )
    return market_of_sums(per_domain, per_day, ctr)


def market_as_shown(
    store: HistoryStore,
    account: str,
    site: str | None,
    *,
    since: date | None,
    until: date | None,
    ctr: tuple[float, ...],
    group: str = ALL,
) -> MarketFigures:
    """``site_market`` weighed by the keywords' latest search volumes from ``since`` on, as the Market page
    shows it: what a page, a report, a feed and a command ask for. One keyword set with one curve and the
    same volumes is one roll-up key (``store.rollups.days``), so whichever of them reads a day first sums
    it and the others read it kept: a report that weighed nothing had a key of its own and summed its
    month again after the page's "Watched for" its site (about 4.5 s at 5,000 keywords). Every watched
    keyword, what the page opens on, is another keyword set. A figure that shows no weighing is the same
    either way."""
    volumes = search_volumes(store, account, since)
    return site_market(store, account, site, since=since, until=until, ctr=ctr, group=group, volumes=volumes)


def site_dr_spread(
    store: HistoryStore,
    account: str,
    site: str | None,
    *,
    since: date | None,
    until: date | None,
    group: str = ALL,
) -> pd.DataFrame:
    """The top-10 DR per day and keyword (``analysis.market.dr_spread``'s columns) of the same keywords
    as ``site_market``, computed at the database. UnknownGroup for a group there is not."""
    keywords, pairs = _group_keys(store, account, site, since, until, group)
    if _none_chosen(keywords, pairs):
        return dr_spread(pd.DataFrame(columns=["day", "keyword", "position", "domain", "dr"]))
    return store.dr_days.spread(account, site, since=since, until=until, keywords=keywords, pairs=pairs)


def group_keywords(
    store: HistoryStore,
    account: str,
    site: str | None,
    *,
    since: date | None,
    until: date | None,
    group: str = ALL,
) -> list[str]:
    """The keywords of ``group`` watched for ``site`` (all when None) with a top 10 from ``since`` to
    ``until``, sorted: the keywords of ``site_market``'s figures, read down the top 10s' index
    (``store.market.pairs``) instead of from every row of the period. UnknownGroup for a group there
    is not."""
    keywords, pairs = _group_keys(store, account, site, since, until, group)
    found = store.market.pairs(account, site, since, until) if pairs is None else pairs
    return sorted({keyword for _site, keyword in found if keywords is None or keyword in keywords})


def site_top10_drs(
    store: HistoryStore,
    account: str,
    site: str | None,
    *,
    excluding: str,
    keywords: Collection[str] | None = None,
    since: date | None = None,
    until: date | None = None,
) -> Mapping[str, pd.DataFrame]:
    """Per keyword watched for ``site`` (all when None; only ``keywords`` when given), its top 10's median
    and lowest DR by day without ``excluding``'s own results, from ``since`` to ``until`` (None: the whole
    history): what ``analysis.opportunities.series.top10_dr_by_keyword`` gives for the same rows, computed
    at the database (only the days' DRs cross into Python). A keyword without a rated top 10 is absent."""
    if keywords is not None and not keywords:
        return {}
    kept = None
    if site is not None:  # the kept sums, read straight into the series (no frame of 1.8 million rows)
        kept = store.dr_days.series(
            account, site, since=since, until=until, keywords=keywords, excluding=excluding
        )
    if kept is not None:
        return sorted_drs(kept.keywords, kept.days, kept.drs)
    spread = store.market.dr_spread(
        account, site, since=since, until=until, keywords=keywords, excluding=excluding
    )
    return drs_by_keyword(spread)
