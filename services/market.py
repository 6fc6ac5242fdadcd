"""The market of one site's watched keywords, read from the history: the one function every report, feed
and command calls for visibility and share of voice (``site_market``), with the team's CTR curve as the
settings give it (``team_ctr``). The figures themselves are ``analysis.market.market_figures``, which the
Market page calls on the same rows.

The keyword set is named the way the Market page names it ("Watched for example.com", group "All
keywords"): ``keyword_set_words`` says which one a report or feed measured.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from analysis.market import ALL, BRAND, DEFAULT_CTR, NON_BRAND, CtrCurveError, MarketFigures, ctr_curve
from analysis.market import market_figures as figures_of
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


def site_market(
    store: HistoryStore,
    account: str,
    site: str | None,
    *,
    since: date,
    until: date,
    ctr: tuple[float, ...],
    group: str = ALL,
    volumes: Mapping[str, float] | None = None,
) -> MarketFigures:
    """Visibility and share of voice of the keywords watched for ``site`` (every watched keyword when
    None) in ``group``, from ``since`` to ``until``, under ``ctr``: what the Market page shows for the
    same choices. UnknownGroup for a group there is not."""
    serps = store.queries.serp_history(account, site, since=since, until=until)
    return figures_of(
        serps, group, store.groups.keyword_tags(account), store.groups.brand_terms(account), ctr, volumes
    )
