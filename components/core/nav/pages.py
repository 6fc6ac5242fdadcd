"""The page registry: every page of the app defined once (file, title, icon, url path, section).

``app.py`` builds ``st.navigation`` from ``SECTIONS``, and every link between pages names an entry
here (``link_to(TRUST_MAP, …)``), never a path string, so renaming or adding a page touches one line.

A page's file is ``views/<url_path>.py``: the file is named like its url path so that AppTest's
``switch_page`` finds it by path before the first run. (Not ``pages/``: Streamlit 1.67 runs a
``pages/`` file without ``app.py`` on a fresh server's first deep link, skipping the sidebar and the
connection settings.)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import streamlit as st

from analysis.links import ALERTS_PATH, HISTORY_PATH, MARKET_PATH, OPPORTUNITIES_PATH


@dataclass(frozen=True)
class AppPage:
    """One page of the app; ``file`` is the path ``st.page_link`` and ``st.switch_page`` accept."""

    url_path: str
    title: str
    icon: str
    section: str
    default: bool = False

    @property
    def file(self) -> str:
        return f"views/{self.url_path}.py"

    def st_page(self) -> st.Page:
        """A fresh ``st.Page`` for this run's navigation (an ``st.Page`` is built inside a run)."""
        return st.Page(
            self.file, title=self.title, icon=self.icon, url_path=self.url_path, default=self.default
        )


# --- Authority -------------------------------------------------------------------------------------
OVERVIEW = AppPage("overview", "Domain overview", ":material/travel_explore:", "Authority", default=True)
TRUST_MAP = AppPage("trust-map", "Trust Map", ":material/hub:", "Authority")
SITE_CHECK = AppPage("site-check", "Site check", ":material/gpp_good:", "Authority")
BULK_DR = AppPage("bulk-dr", "Bulk DR checker", ":material/checklist:", "Authority")
BADGES = AppPage("badges", "Badges & snippets", ":material/verified:", "Authority")
CATEGORIES = AppPage("categories", "Categories", ":material/category:", "Authority")
# --- Keywords --------------------------------------------------------------------------------------
KEYWORD_RESEARCH = AppPage("keyword-research", "Keyword research", ":material/query_stats:", "Keywords")
KEYWORD_SUGGESTIONS = AppPage(
    "keyword-suggestions", "Keyword suggestions", ":material/lightbulb:", "Keywords"
)
TRACKED_KEYWORDS = AppPage("tracked-keywords", "Tracked keywords", ":material/track_changes:", "Keywords")
OPPORTUNITIES = AppPage(OPPORTUNITIES_PATH, "Opportunities", ":material/trending_up:", "Keywords")
# --- Growth ----------------------------------------------------------------------------------------
DISCOVER = AppPage("discover", "Discover sites", ":material/explore:", "Growth")
EXCHANGES = AppPage("exchanges", "Link exchanges", ":material/handshake:", "Growth")
# --- My sites --------------------------------------------------------------------------------------
MY_SITES = AppPage("my-sites", "My sites", ":material/web:", "My sites")
SITE = AppPage("site", "Site details", ":material/dashboard:", "My sites")
AI_VISIBILITY = AppPage("ai-visibility", "AI visibility", ":material/smart_toy:", "My sites")
SEARCH_CONSOLE = AppPage("search-console", "Search Console", ":material/query_stats:", "My sites")
MONITOR = AppPage("monitor", "Monitor", ":material/monitor_heart:", "My sites")
# --- History ---------------------------------------------------------------------------------------
HISTORY = AppPage(HISTORY_PATH, "History", ":material/history:", "History")
MARKET = AppPage(MARKET_PATH, "Market", ":material/leaderboard:", "History")
REPORTS = AppPage("reports", "Reports", ":material/description:", "History")
ALERTS = AppPage(ALERTS_PATH, "Alerts", ":material/notifications:", "History")
# --- Team ------------------------------------------------------------------------------------------
ACTIVITY = AppPage("activity", "Activity", ":material/manage_history:", "Team")
# --- Coach -----------------------------------------------------------------------------------------
COACH = AppPage("coach", "Coach", ":material/psychology:", "Coach")

#: Every page in navigation order.
ALL: tuple[AppPage, ...] = (
    OVERVIEW,
    TRUST_MAP,
    SITE_CHECK,
    BULK_DR,
    BADGES,
    CATEGORIES,
    KEYWORD_RESEARCH,
    KEYWORD_SUGGESTIONS,
    TRACKED_KEYWORDS,
    OPPORTUNITIES,
    DISCOVER,
    EXCHANGES,
    MY_SITES,
    SITE,
    AI_VISIBILITY,
    SEARCH_CONSOLE,
    MONITOR,
    HISTORY,
    MARKET,
    REPORTS,
    ALERTS,
    ACTIVITY,
    COACH,
)

#: The navigation's sections in order, each with its pages in order.
SECTIONS: dict[str, tuple[AppPage, ...]] = {}
for _page in ALL:
    SECTIONS[_page.section] = (*SECTIONS.get(_page.section, ()), _page)
del _page


def navigation() -> dict[str, list[st.Page]]:
    """The argument ``st.navigation`` takes: section name → this run's ``st.Page`` objects."""
    return {section: [page.st_page() for page in entries] for section, entries in SECTIONS.items()}


def link_to(
    page: AppPage,
    *,
    label: str | None = None,
    icon: str | None = None,
    query_params: Mapping[str, str] | None = None,
    help: str | None = None,
) -> None:
    """``st.page_link`` to ``page``, labelled with its title and icon unless the link says otherwise.

    Every registry page is in the navigation, so the link always resolves. Call it inside a column's
    ``with`` block to place it there.
    """
    st.page_link(
        page.file,
        label=label or page.title,
        icon=icon or page.icon,
        query_params=dict(query_params or {}),
        help=help,
    )


def page_header(page: AppPage, caption: str | None = None, *, title: str | None = None) -> None:
    """The top of a page: its registry title (or a longer ``title``) and what the page is for."""
    st.title(title or page.title, anchor=False)
    if caption:
        st.caption(caption)
