"""The Market page's Streamlit parts: the choices and figures every tab shares (``selection``), and one
module per tab (``standing``: visibility and share of voice; ``serp``: churn and DR over time;
``winnable``: when each watched keyword becomes winnable)."""

from analysis.links import MARKET_CHARTS, MARKET_TAB_PARAM
from components.market.widgets.groups import groups_tab
from components.market.widgets.selection import GROUPS_TAB, MarketView, market_view
from components.market.widgets.serp import churn_tab, difficulty_tab
from components.market.widgets.standing import share_tab, visibility_tab
from components.market.widgets.winnable import WINNABLE_TAB, winnable_tab

#: The tabs an alert's link names are the links' own words (``analysis.links``).
TAB_KEY = MARKET_TAB_PARAM
VISIBILITY_TAB = MARKET_CHARTS["market"]
SHARE_TAB = "Share of voice"
CHURN_TAB = MARKET_CHARTS["market_churn"]
DIFFICULTY_TAB = "Top-10 DR"
NOTES_TAB = "Notes"

__all__ = [
    "CHURN_TAB",
    "DIFFICULTY_TAB",
    "GROUPS_TAB",
    "NOTES_TAB",
    "SHARE_TAB",
    "TAB_KEY",
    "VISIBILITY_TAB",
    "WINNABLE_TAB",
    "MarketView",
    "churn_tab",
    "difficulty_tab",
    "groups_tab",
    "market_view",
    "share_tab",
    "visibility_tab",
    "winnable_tab",
]
