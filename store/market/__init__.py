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
from store.market.groups import ALL, BRAND, NON_BRAND, UnknownGroup, group_names, in_group

__all__ = [
    "ALL",
    "BRAND",
    "DEFAULT_CTR",
    "MARKET_COLUMNS",
    "NON_BRAND",
    "CtrCurveError",
    "UnknownGroup",
    "ctr_curve",
    "dr_spread",
    "group_names",
    "in_group",
    "load_ctr_curve",
    "one_top10_per_keyword",
    "serp_churn",
    "visibility_and_share",
]
