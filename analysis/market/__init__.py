"""The market view's figures, from the watched keywords' top 10s: visibility, share of voice, churn and
the top 10's DR spread, and which domains they compare. Pure (DataFrames in, DataFrames out):
``market_figures`` is the one definition of visibility and share of voice that the Market page, the
reports, the feeds, the ``python -m store visibility`` command and the alerts use; reading a site's
keywords from the history for it is ``services.market.market_as_shown``."""

from analysis.market.ctr import DEFAULT_CTR, CtrCurveError, ctr_curve
from analysis.market.figures import (
    MARKET_COLUMNS,
    MarketFigures,
    MarketTop10s,
    dr_spread,
    market_figures,
    market_of_sums,
    no_market,
    one_top10_per_keyword,
    serp_churn,
    visibility_and_share,
)
from analysis.market.groups import (
    ALL,
    BRAND,
    NON_BRAND,
    SPLIT,
    UnknownGroup,
    group_names,
    in_group,
    split_pairs,
    tagged_keywords,
)

__all__ = [
    "ALL",
    "BRAND",
    "DEFAULT_CTR",
    "MARKET_COLUMNS",
    "NON_BRAND",
    "SPLIT",
    "CtrCurveError",
    "MarketFigures",
    "MarketTop10s",
    "UnknownGroup",
    "ctr_curve",
    "dr_spread",
    "group_names",
    "in_group",
    "market_figures",
    "market_of_sums",
    "no_market",
    "one_top10_per_keyword",
    "serp_churn",
    "split_pairs",
    "tagged_keywords",
    "visibility_and_share",
]
