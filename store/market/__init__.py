"""The market view's figures, from the watched keywords' top 10s: visibility, share of voice, churn and
the top 10's DR spread. Pure (DataFrames in, DataFrames out), so the app's Market page and the
``python -m store visibility`` command compute the same numbers."""

from store.market.ctr import DEFAULT_CTR, CtrCurveError, ctr_curve, load_ctr_curve
from store.market.figures import (
    MARKET_COLUMNS,
    dr_spread,
    one_top10_per_keyword,
    serp_churn,
    visibility_and_share,
)

__all__ = [
    "DEFAULT_CTR",
    "MARKET_COLUMNS",
    "CtrCurveError",
    "ctr_curve",
    "dr_spread",
    "load_ctr_curve",
    "one_top10_per_keyword",
    "serp_churn",
    "visibility_and_share",
]
