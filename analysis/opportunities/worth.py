"""What reaching the targets is worth: a site's visibility and share of voice on a day's top 10s of some
keywords as recorded, and as they would be if the site stood at the target position in each. Pure; the
figures are the market's one definition (``analysis.market.visibility_and_share``), on top 10s moved
the way a climb moves them.

A climb to the target puts the site there and moves every result from the target down one place (the
tenth leaves the top 10); the site's own lower result, if any, leaves its old place. A keyword where the
site already stands at the target or above is left as it is.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

import pandas as pd

from analysis.market import DEFAULT_CTR, visibility_and_share


@dataclass(frozen=True)
class Worth:
    """The site's figures over ``keywords`` top 10s (of their latest recorded day), now and at target."""

    keywords: int
    visibility_now: float
    visibility_then: float
    share_now: float
    share_then: float


def reached(top10s: pd.DataFrame, site: str, keywords: Collection[str], target: int) -> pd.DataFrame:
    """``top10s`` (one top 10 per keyword and day) with ``site`` climbed to ``target`` in ``keywords``."""
    moved: list[pd.DataFrame] = []
    for (_day, keyword), rows in top10s.groupby(["day", "keyword"], sort=False):
        if keyword not in keywords:
            moved.append(rows)
            continue
        mine = rows.loc[rows["domain"] == site, "position"]
        if len(mine) and float(mine.min()) <= target:
            moved.append(rows)
            continue
        others = rows[rows["domain"] != site]
        lower = others["position"] >= target
        others = others.assign(position=others["position"].where(~lower, others["position"] + 1))
        others = others[others["position"] <= len(DEFAULT_CTR)]
        climbed = rows.head(1).assign(domain=site, position=target)
        moved.append(pd.concat([others, climbed], ignore_index=True))
    if not moved:
        return top10s
    return pd.concat(moved, ignore_index=True).sort_values(["day", "keyword", "position"], kind="stable")


def _site_figures(top10s: pd.DataFrame, site: str, ctr: Sequence[float]) -> tuple[float, float]:
    figures = visibility_and_share(top10s, ctr)
    mine = figures[figures["domain"] == site]
    if mine.empty:
        return 0.0, 0.0
    return float(mine["visibility"].iloc[-1]), float(mine["share_of_voice"].iloc[-1])


def worth_of_reaching(
    top10s: pd.DataFrame,
    site: str,
    keywords: Collection[str],
    target: int,
    ctr: Sequence[float] = DEFAULT_CTR,
) -> Worth | None:
    """The site's visibility and share of voice over ``keywords``' latest recorded top 10s, now and with
    the site at ``target`` in each; None when none of them has a recorded top 10."""
    chosen = top10s[top10s["keyword"].isin(list(keywords))]
    if chosen.empty:
        return None
    latest = chosen.groupby("keyword")["day"].transform("max")
    day_of_each = chosen[chosen["day"] == latest].assign(day=chosen["day"].max())  # one day: the latest
    now = _site_figures(day_of_each, site, ctr)
    then = _site_figures(reached(day_of_each, site, set(keywords), target), site, ctr)
    return Worth(int(day_of_each["keyword"].nunique()), now[0], then[0], now[1], then[1])
