"""Visibility, share of voice, churn and DR spread of the watched keywords' top 10s (vectorised pandas).

Input: ``HistoryStore.queries.serp_history`` frames (site, keyword, day, position, domain, dr). A keyword
watched for several sites has the same top 10 under each; ``one_top10_per_keyword`` keeps one, so a
keyword counts once however many sites watch it.

With c(p) the CTR curve (``analysis.market.ctr``) and K the keywords with a top 10 on a day:
- visibility % of a domain = mean over K of c(p)/c(1) × 100, where p is the domain's best position in
  that keyword's top 10 (a keyword whose top 10 lacks the domain counts 0);
- volume-weighted visibility % = Σ V·c(p) / (c(1)·Σ V) × 100, only when every keyword of K has a
  known monthly search volume V (else NaN: a partial weighting would mislead);
- share of voice % of a domain = Σ c(p) over K ÷ the same sum over every domain in those top 10s × 100,
  so the shares of one day add up to 100.
A day is computed from the keywords recorded that day only: a failed read leaves its keyword out of
that day rather than counting it as "not ranking".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date

import pandas as pd

from analysis.market.ctr import DEFAULT_CTR
from analysis.market.groups import in_group
from schema.history import MARKET_DAY_SUMS, MARKET_DOMAIN_SUMS, SPREAD_COLUMNS

MARKET_COLUMNS = ("day", "domain", "visibility", "weighted_visibility", "share_of_voice", "keywords")
CHURN_COLUMNS = ("keyword", "change", "domain", "position", "dr")
_TOP10 = ("day", "keyword", "position", "domain", "dr")


def one_top10_per_keyword(serps: pd.DataFrame) -> pd.DataFrame:
    """One top 10 per keyword and day (the first site's, by site name), without the site column."""
    if serps.empty:
        return serps.loc[:, list(_TOP10)]
    # The sites as sorted integer codes: a group's smallest code is its first site by name, and an integer
    # minimum runs in pandas' compiled code (a text minimum runs once per group in Python).
    codes = pd.Series(pd.factorize(serps["site"], sort=True)[0], index=serps.index)
    first_site = codes.groupby([serps["day"], serps["keyword"]]).transform("min")
    kept = serps.loc[codes == first_site, list(_TOP10)]
    return kept.sort_values(["day", "keyword", "position"], kind="stable").reset_index(drop=True)


def _weights(top10s: pd.DataFrame, ctr: Sequence[float]) -> pd.DataFrame:
    """Each (day, keyword, domain) once, at its best position, with the position's CTR c(p)."""
    curve = pd.Series(list(ctr), index=range(1, len(ctr) + 1), dtype="float64")
    ranked = top10s.loc[top10s["position"].between(1, len(ctr)), ["day", "keyword", "domain", "position"]]
    best = ranked.sort_values("position", kind="stable").drop_duplicates(["day", "keyword", "domain"])
    return best.assign(clicks=best["position"].astype("int64").map(curve).to_numpy())


def market_sums(
    top10s: pd.DataFrame, ctr: Sequence[float], volumes: Mapping[str, float] | None = None
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The sums the figures are made of (``MARKET_DOMAIN_SUMS`` per day and domain, ``MARKET_DAY_SUMS``
    per day), from ``one_top10_per_keyword`` rows: what ``store.market`` sums at the database for the
    same rows, so both paths end in ``figures_from_sums``."""
    volume = pd.Series(dict(volumes or {}), dtype="float64")
    weights = _weights(top10s, ctr)
    weights = weights.assign(volume_clicks=weights["clicks"] * weights["keyword"].map(volume).to_numpy())
    per_domain = weights.groupby(["day", "domain"], as_index=False)[["clicks", "volume_clicks"]].sum(
        min_count=1
    )
    day_keywords = top10s.drop_duplicates(["day", "keyword"])[["day", "keyword"]]
    day_keywords = day_keywords.assign(volume=day_keywords["keyword"].map(volume).to_numpy())
    per_day = day_keywords.groupby("day").agg(
        keywords=("keyword", "size"), volume=("volume", "sum"), volumes_known=("volume", "count")
    )
    # Each day as its place among the days, so "the day before" is the place before (whatever the days' type).
    place = day_keywords["day"].map({day: n for n, day in enumerate(per_day.index)}).to_numpy()
    now = pd.DataFrame({"place": place, "keyword": day_keywords["keyword"].to_numpy()})
    kept = now.merge(now.assign(place=now["place"] + 1), on=["place", "keyword"])["place"].value_counts()
    kept.index = per_day.index[kept.index.to_numpy()]
    per_day["kept"] = kept.reindex(per_day.index, fill_value=0).astype("int64")
    return per_domain.loc[:, list(MARKET_DOMAIN_SUMS)], per_day.reset_index().loc[:, list(MARKET_DAY_SUMS)]


def empty_figures() -> pd.DataFrame:
    return pd.DataFrame({name: pd.Series(dtype="float64") for name in MARKET_COLUMNS}).astype(
        {"day": "datetime64[ns]", "domain": "object", "keywords": "int64"}
    )


def figures_from_sums(per_domain: pd.DataFrame, per_day: pd.DataFrame, ctr: Sequence[float]) -> pd.DataFrame:
    """Per day and domain: visibility %, volume-weighted visibility % (NaN unless every keyword of the
    day has a volume), share of voice % and the number of keywords of the day; by day, then share of
    voice (largest first). The definition's arithmetic, whichever path summed."""
    if per_domain.empty:
        return empty_figures()
    first = float(ctr[0])
    days, figures = per_day.set_index("day"), per_domain.copy()
    day_keywords = figures["day"].map(days["keywords"]).astype("int64")
    day_clicks = figures.groupby("day")["clicks"].transform("sum")
    figures["visibility"] = figures["clicks"] / (first * day_keywords) * 100
    figures["share_of_voice"] = figures["clicks"] / day_clicks * 100
    figures["keywords"] = day_keywords
    complete = (days["volumes_known"] == days["keywords"]) & (days["volume"].astype("float64") > 0)
    usable = figures["day"].map(complete).astype(bool)
    total_volume = figures["day"].map(days["volume"]).astype("float64")
    # Only the complete days are divided: an incomplete day has nothing to divide by, and stays NaN.
    weighted = figures["volume_clicks"][usable] / (first * total_volume[usable]) * 100
    figures["weighted_visibility"] = weighted.reindex(figures.index).astype("float64")
    ordered = figures.sort_values(["day", "share_of_voice", "domain"], ascending=[True, False, True])
    return ordered.loc[:, list(MARKET_COLUMNS)].reset_index(drop=True)


def visibility_and_share(
    top10s: pd.DataFrame,
    ctr: Sequence[float] = DEFAULT_CTR,
    volumes: Mapping[str, float] | None = None,
) -> pd.DataFrame:
    """Per day and domain: visibility %, volume-weighted visibility % (NaN unless every keyword of the
    day has a volume), share of voice % and the number of keywords of the day; by day, then share of
    voice (largest first). ``top10s`` as ``one_top10_per_keyword`` gives it."""
    if top10s.empty:
        return empty_figures()
    return figures_from_sums(*market_sums(top10s, ctr, volumes), ctr)


@dataclass(frozen=True)
class MarketFigures:
    """A keyword set's market over a period: its figures (``MARKET_COLUMNS``, by day, then share of
    voice) and its days (``MARKET_DAY_SUMS``: the keywords with a top 10 each day, and how many of them
    the day before had too), whichever path computed them."""

    figures: pd.DataFrame
    days: pd.DataFrame

    @property
    def empty(self) -> bool:
        return self.days.empty


@dataclass(frozen=True)
class MarketTop10s(MarketFigures):
    """The same, with the top 10s they were computed from in memory (one per keyword and day)."""

    top10s: pd.DataFrame


def market_of_sums(per_domain: pd.DataFrame, per_day: pd.DataFrame, ctr: Sequence[float]) -> MarketFigures:
    """The market whose sums (``MARKET_DOMAIN_SUMS``, ``MARKET_DAY_SUMS``) were made elsewhere (at the
    database, by ``store.market``)."""
    return MarketFigures(
        figures_from_sums(per_domain, per_day, ctr), per_day if not per_day.empty else _empty_days()
    )


def no_market() -> MarketFigures:
    """The market of no keyword (a group with none of them)."""
    return MarketFigures(empty_figures(), _empty_days())


def market_figures(
    serps: pd.DataFrame,
    group: str,
    tags: Mapping[str, tuple[str, ...]],
    brand_terms: Mapping[str, tuple[str, ...]],
    ctr: Sequence[float],
    volumes: Mapping[str, float] | None = None,
) -> MarketTop10s:
    """Visibility and share of voice of every domain in the top 10s of ``group``'s keywords among
    ``serps`` (``serp_history`` rows: the keywords watched for one site, or all of them), weighed by the
    team's CTR curve: the one definition the Market page, the reports, the feeds, the ``visibility``
    command and the alerts all use (``store.market`` sums the same at the database, tested to agree).
    UnknownGroup for a group there is not."""
    top10s = one_top10_per_keyword(in_group(serps, group, tags, brand_terms))
    if top10s.empty:
        return MarketTop10s(empty_figures(), _empty_days(), top10s)
    per_domain, per_day = market_sums(top10s, ctr, volumes)
    return MarketTop10s(figures_from_sums(per_domain, per_day, ctr), per_day, top10s)


def _empty_days() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "day": pd.Series(dtype="datetime64[ns]"),
            "keywords": pd.Series(dtype="int64"),
            "volume": pd.Series(dtype="float64"),
            "volumes_known": pd.Series(dtype="int64"),
            "kept": pd.Series(dtype="int64"),
        }
    )


def serp_churn(top10s: pd.DataFrame, before: date, after: date) -> pd.DataFrame:
    """Who entered and who left each keyword's top 10 between two days (keywords with a top 10 on both):
    an entry at its position and DR on ``after``, an exit at its position and DR on ``before``; by
    keyword, then change and position."""
    day = pd.to_datetime(top10s["day"])
    earlier = top10s.loc[day == pd.Timestamp(before)]
    later = top10s.loc[day == pd.Timestamp(after)]
    both = set(earlier["keyword"]) & set(later["keyword"])
    earlier, later = earlier[earlier["keyword"].isin(both)], later[later["keyword"].isin(both)]
    entered = later.merge(
        earlier[["keyword", "domain"]], how="left", on=["keyword", "domain"], indicator=True
    )
    left = earlier.merge(later[["keyword", "domain"]], how="left", on=["keyword", "domain"], indicator=True)
    changes = pd.concat(
        [
            entered.loc[entered["_merge"] == "left_only"].assign(change="entered"),
            left.loc[left["_merge"] == "left_only"].assign(change="left"),
        ],
        ignore_index=True,
    )
    if changes.empty:
        return pd.DataFrame(columns=list(CHURN_COLUMNS))
    ordered = changes.sort_values(["keyword", "change", "position"], kind="stable")
    return ordered.loc[:, list(CHURN_COLUMNS)].reset_index(drop=True)


def dr_spread(top10s: pd.DataFrame) -> pd.DataFrame:
    """Per day and keyword: the top 10's median, lowest and highest DR, the spread (highest − lowest)
    and how many results had a DR (unresolved ones are left out, never counted as 0)."""
    rated = top10s.dropna(subset=["dr"]).astype({"dr": "float64"})
    if rated.empty:
        return pd.DataFrame(columns=list(SPREAD_COLUMNS))
    stats = rated.groupby(["day", "keyword"])["dr"].agg(["median", "min", "max", "count"]).reset_index()
    stats.columns = ["day", "keyword", "median_dr", "min_dr", "max_dr", "rated"]
    stats["spread"] = stats["max_dr"] - stats["min_dr"]
    return stats.loc[:, list(SPREAD_COLUMNS)]
