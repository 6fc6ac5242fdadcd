"""The market view's alert rules (pure: frames in, findings out), edge-triggered like the others.

- ``visibility_fell``: an own site's visibility for a keyword group fell by at least the threshold
  week over week (the day against the day nearest 7 days before), told on the day the fall first
  reaches it. A day counts only when the group had a recorded top 10 (a failed read is no 0), and the
  two days are compared on the keywords recorded on both: a keyword whose top 10 began to be kept
  during the week (newly watched) or was not read on one of them moves the day's figure, but is no fall.
- ``competitor_top3``: a watched competitor is in positions 1–3 of a watched keyword's top 10 and was
  not on the keyword's previous recorded day; each keyword's top 10 counts once, however many of your
  sites watch it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date

import pandas as pd

from analysis.market import DEFAULT_CTR, market_figures, one_top10_per_keyword, visibility_and_share
from analysis.wording import in_days
from services.alerts.rules import Row, latest_before, on_day, on_its_chart, threshold_of, week_before
from services.market import group_words
from store.alerts.catalog import Finding, RuleSetting

TOP3 = 3


@dataclass(frozen=True)
class GroupSeries:
    """A keyword group's days for one site: each day's visibility over that day's keywords, which
    keywords those were, and the group's top 10s (to compare two days on the keywords of both)."""

    rows: list[Row]
    top10s: pd.DataFrame


def visibility_series(
    serps: pd.DataFrame,
    site: str,
    groups: Sequence[str],
    tags: Mapping[str, tuple[str, ...]],
    brand_terms: Mapping[str, tuple[str, ...]],
    ctr: Sequence[float] = DEFAULT_CTR,
) -> dict[str, GroupSeries]:
    """Per group, the site's visibility on each day its keywords (those watched for ``site``) had a top
    10: 0 on a day the site was in none of them. A group holding the same keywords as one before it
    (non-brand, when no keyword is brand) is left out: one fall is told once."""
    series: dict[str, GroupSeries] = {}
    seen: set[frozenset[str]] = set()
    for group in groups:
        market = market_figures(serps, group, tags, brand_terms, ctr)
        top10s, figures = market.top10s, market.figures
        keywords = frozenset(top10s["keyword"])
        if top10s.empty or keywords in seen:
            continue
        seen.add(keywords)
        top10s = top10s.assign(day=pd.to_datetime(top10s["day"]).dt.date)
        recorded = top10s.groupby("day")["keyword"].agg(frozenset)
        mine_rows = figures[figures["domain"] == site]
        mine = pd.Series(mine_rows["visibility"].to_numpy(), index=mine_rows["day"].dt.date)
        rows: list[Row] = [
            {"day": day, "visibility": float(mine.get(day, 0.0)), "keywords": recorded[day]}
            for day in sorted(recorded.index)
        ]
        series[group] = GroupSeries(rows, top10s)
    return series


@dataclass(frozen=True)
class _Fall:
    before: float
    after: float
    since: date
    days: int

    @property
    def points(self) -> float:
        return self.before - self.after


def _week_fall(series: GroupSeries, site: str, now: Row, ctr: Sequence[float]) -> _Fall | None:
    """The site's visibility on ``now``'s day against the day nearest a week before it, both over the
    keywords recorded on both days (None when there is no such day or no such keyword)."""
    base = week_before(series.rows, now["day"])
    if base is None:
        return None
    common = base["keywords"] & now["keywords"]
    top10s = series.top10s
    pair = top10s[top10s["day"].isin([base["day"], now["day"]]) & top10s["keyword"].isin(list(common))]
    if pair.empty:
        return None
    figures = visibility_and_share(pair, ctr)  # the group's top 10s are already one per keyword
    mine = figures[figures["domain"] == site]
    visibility = dict(zip(pd.to_datetime(mine["day"]).dt.date, mine["visibility"], strict=True))
    before, after = float(visibility.get(base["day"], 0.0)), float(visibility.get(now["day"], 0.0))
    return _Fall(before, after, base["day"], (now["day"] - base["day"]).days)


def visibility_findings(
    site: str,
    series: Mapping[str, GroupSeries],
    days: Sequence[date],
    settings: Mapping[str, RuleSetting],
    ctr: Sequence[float] = DEFAULT_CTR,
) -> list[Finding]:
    threshold = threshold_of(settings, "visibility_fell")
    if threshold is None:
        return []
    found = []
    for group, one in series.items():
        for day in days:
            now = on_day(one.rows, day)
            fall = _week_fall(one, site, now, ctr) if now is not None else None
            if fall is None or fall.points < threshold:
                continue
            previous = latest_before(one.rows, day)
            earlier = _week_fall(one, site, previous, ctr) if previous is not None else None
            if earlier is not None and earlier.points >= threshold:
                continue  # the same fall, told on the day it first reached the threshold
            before, after = f"{fall.before:.1f}%", f"{fall.after:.1f}%"
            found.append(
                on_its_chart(
                    "visibility_fell",
                    site,
                    day,
                    "market",
                    title=f"Visibility of {site} for {group_words(group)} fell by {fall.points:.1f} points "
                    f"{in_days(fall.days)} ({before} → {after})",
                    before=before,
                    after=after,
                    key=group,
                    since=fall.since,
                    metric=group,
                    site=site,
                )
            )
    return found


def competitor_findings(
    serps: pd.DataFrame, competitors: Sequence[str], days: Sequence[date], settings: Mapping[str, RuleSetting]
) -> list[Finding]:
    if threshold_of(settings, "competitor_top3") is None or not competitors or serps.empty:
        return []
    sites = serps.groupby("keyword")["site"].min()  # the site a keyword's alert opens the Market page on
    top10s = one_top10_per_keyword(serps)
    top10s = top10s.assign(day=pd.to_datetime(top10s["day"]).dt.date)
    watched = top10s[top10s["domain"].isin(list(competitors))]
    recorded = top10s.groupby("keyword")["day"].apply(lambda d: sorted(set(d)))
    found = []
    for keyword, rows in watched.groupby("keyword"):
        keyword_days = recorded[keyword]
        places = {(row.day, row.domain): int(row.position) for row in rows.itertuples(index=False)}
        for day in days:
            earlier = [d for d in keyword_days if d < day]
            if day not in keyword_days or not earlier:
                continue
            for competitor in competitors:
                now, before = places.get((day, competitor)), places.get((earlier[-1], competitor))
                if now is None or now > TOP3 or (before is not None and before <= TOP3):
                    continue
                was = f"#{before}" if before is not None else "not in the top 10"
                found.append(
                    Finding(
                        rule="competitor_top3",
                        subject=str(keyword),
                        day=day,
                        title=f"{competitor} entered the top 3 for “{keyword}” ({was} → #{now})",
                        chart="market_churn",
                        chart_subject=str(sites[keyword]),
                        before=was,
                        after=f"#{now}",
                        key=competitor,
                        since=earlier[-1],
                        site=str(sites[keyword]),
                    )
                )
    return found
