"""The opportunities queue's numbers: for each keyword, where the site stands, what the top 10 asks in
DR, the clicks reaching the target position would bring under the team's CTR curve, and a score that
ranks the keywords with its parts beside it. Pure (frames in, frames out); the labels a page or a
report shows for these columns are in ``analysis.opportunities.labels``.

With V a keyword's monthly volume, c(p) the CTR curve (``analysis.market.ctr``, % of searches at
positions 1 to 10; beyond 10, or not ranking, 0), p the current position and t the target position:
- clicks now = V × c(p) / 100, clicks at target = V × c(t) / 100, clicks gained = the difference, never
  below 0 (a keyword already at or above the target has nothing to gain from reaching it);
- difficulty = the DR points the site lacks against the top 10's median DR (the gap), 0 when it lacks
  none;
- score = V × (c(t) − c(p)) ÷ max(difficulty, 1), i.e. the clicks gained in % points of volume per DR
  point the site lacks. The floor of 1: a keyword the site already matches has nothing in the way, and
  dividing by its difficulty of 0 would make its score infinite (and a negative gap would flip its
  sign); floored, every such keyword is divided by the same 1 and its clicks decide its rank, above
  any keyword with the same clicks that asks for DR the site does not have.
A keyword without a volume, or without a DR of the site or of its top 10, has no score (absent, never
0): ranking it would be ranking a guess.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

import numpy as np
import pandas as pd

from analysis.market.ctr import DEFAULT_CTR

#: The position a keyword is scored for reaching, unless the team asks for another.
TARGET_POSITION = 3
#: "Striking distance": positions from which a page is near the first page's top.
STRIKING_DISTANCE = (4, 20)
#: What a row of ``score_opportunities`` needs: the keyword, the site's position (None: not ranking),
#: its monthly volume and where that comes from, the top 10's median and lowest DR, the site's DR.
INPUT_COLUMNS = ("keyword", "position", "volume", "volume_source", "median_dr", "min_dr", "site_dr")
#: Where a volume comes from (``volume_source``).
SEARCH_VOLUME, IMPRESSIONS = "search volume", "Search Console impressions"
OPPORTUNITY_COLUMNS = (
    "keyword",
    "position",
    "striking_distance",
    "volume",
    "volume_source",
    "site_dr",
    "median_dr",
    "min_dr",
    "gap",
    "lowest_gap",
    "ctr_now",
    "ctr_target",
    "clicks_now",
    "clicks_target",
    "clicks_gained",
    "difficulty",
    "score",
)


def ctr_at(positions: pd.Series, ctr: Sequence[float] = DEFAULT_CTR) -> pd.Series:
    """The curve's CTR (% of searches) at each position; 0 beyond the curve's last position or when
    the site does not rank (a missing position)."""
    curve = pd.Series(list(ctr), index=range(1, len(ctr) + 1), dtype="float64")
    numbers = pd.to_numeric(positions, errors="coerce").astype("Float64")
    return numbers.map(curve.to_dict()).astype("Float64").fillna(0.0).astype("float64")


def score_opportunities(
    rows: pd.DataFrame, ctr: Sequence[float] = DEFAULT_CTR, target: int = TARGET_POSITION
) -> pd.DataFrame:
    """Every keyword of ``rows`` (``INPUT_COLUMNS``) with its clicks, gaps and score
    (``OPPORTUNITY_COLUMNS``), highest score first, keywords without a score last."""
    if not 1 <= target <= len(ctr):
        raise ValueError(f"the target position must be between 1 and {len(ctr)}")
    frame = rows.loc[:, list(INPUT_COLUMNS)].copy()
    for column in ("volume", "median_dr", "min_dr", "site_dr"):
        frame[column] = pd.to_numeric(frame[column], errors="coerce").astype("float64")
    frame["position"] = pd.to_numeric(frame["position"], errors="coerce").astype("Int64")
    low, high = STRIKING_DISTANCE
    frame["striking_distance"] = frame["position"].between(low, high).fillna(False).astype(bool)
    frame["gap"] = frame["median_dr"] - frame["site_dr"]
    frame["lowest_gap"] = frame["min_dr"] - frame["site_dr"]
    frame["ctr_now"] = ctr_at(frame["position"], ctr)
    frame["ctr_target"] = float(ctr[target - 1])
    gained_share = (frame["ctr_target"] - frame["ctr_now"]).clip(lower=0.0)
    frame["clicks_now"] = frame["volume"] * frame["ctr_now"] / 100
    frame["clicks_target"] = frame["volume"] * frame["ctr_target"] / 100
    frame["clicks_gained"] = frame["volume"] * gained_share / 100
    frame["difficulty"] = frame["gap"].clip(lower=0.0)
    frame["score"] = frame["volume"] * gained_share / np.maximum(frame["difficulty"], 1.0)
    ordered = frame.sort_values(["score", "clicks_gained", "keyword"], ascending=[False, False, True])
    return ordered.loc[:, list(OPPORTUNITY_COLUMNS)].reset_index(drop=True)


def filter_opportunities(
    scored: pd.DataFrame,
    *,
    striking_only: bool = False,
    max_gap: float | None = None,
    keywords: Collection[str] | None = None,
) -> pd.DataFrame:
    """The queue narrowed: striking distance only, a gap to the median DR of at most ``max_gap`` (a
    keyword of unknown gap is left out then), the keywords of one group (``keywords``, as the market's
    groups name them)."""
    kept = pd.Series(True, index=scored.index)
    if striking_only:
        kept &= scored["striking_distance"]
    if max_gap is not None:
        kept &= (scored["gap"] <= max_gap).fillna(False)
    if keywords is not None:
        kept &= scored["keyword"].isin(list(keywords))
    return scored.loc[kept].reset_index(drop=True)


def opportunity_rows(keyword_rows: pd.DataFrame) -> pd.DataFrame:
    """``INPUT_COLUMNS`` from the history's keyword rows (``schema.history.KEYWORD_COLUMNS``): each
    keyword's latest row, its position, top-10 median and lowest DR and the site's DR as then recorded;
    its volume the latest known monthly search volume, else its latest Search Console impressions
    (28 days), as the market's volume weighting takes them (``volume_source`` says which)."""
    if keyword_rows.empty:
        return pd.DataFrame({name: pd.Series(dtype="object") for name in INPUT_COLUMNS})
    ordered = keyword_rows.sort_values("day", kind="stable")
    latest = ordered.drop_duplicates("keyword", keep="last").set_index("keyword")
    volume = pd.Series(np.nan, index=latest.index, dtype="float64")
    source = pd.Series(None, index=latest.index, dtype="object")
    for column, name in (("impressions", IMPRESSIONS), ("search_volume", SEARCH_VOLUME)):  # volume wins
        known = ordered.dropna(subset=[column]).drop_duplicates("keyword", keep="last")
        values = pd.Series(known[column].astype("float64").to_numpy(), index=known["keyword"].to_numpy())
        volume.loc[values.index] = values
        source.loc[values.index] = name
    return pd.DataFrame(
        {
            "keyword": latest.index.astype(str),
            "position": latest["position"].to_numpy(),
            "volume": volume.to_numpy(),
            "volume_source": source.to_numpy(),
            "median_dr": latest["median_dr"].to_numpy(),
            "min_dr": latest["min_dr"].to_numpy(),
            "site_dr": latest["user_dr"].to_numpy(),
        }
    ).reset_index(drop=True)
