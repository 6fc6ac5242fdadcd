"""Every page of the app as a browser opens it: its URL path and query, the element that shows it has
rendered, and what it draws on its first view. The benchmarks open these pages; the tests check that
every page of the registry has one and that each draws what it says it draws.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

#: What a page draws on its first view, which sets the floor P3 holds its cold paint against: a plotly
#: chart (the stack floor page), a data grid but no chart (the table floor page), or neither (the bare
#: page). tests/apptest/test_bench_pages.py checks each page's class against what it draws.
Draws = Literal["chart", "table", "text"]


@dataclass(frozen=True)
class PageVisit:
    """A page as a benchmark opens it: URL path and query, and what shows it has rendered."""

    name: str
    path: str
    query: str = ""
    ready: str = ".js-plotly-plot .main-svg"
    #: What the page draws on its first view as a benchmark opens it (Live mode against the sandbox,
    #: an empty history database).
    draws: Draws = "chart"
    #: The page's title in the sidebar navigation (for page switches); empty for a second view of a page.
    title: str = ""
    #: The page's own heading when it differs from its sidebar title.
    heading: str = ""

    def url(self, base: str) -> str:
        return f"{base}/{self.path}" + (f"?{self.query}" if self.query else "")

    def fresh(self, selector: str) -> str:
        """``selector`` in an element of the current run: Streamlit keeps the last page's elements
        (marked stale) on screen until the new run replaces them, and they must not count. Layout
        blocks (tabs) carry no such mark: they are taken as they are."""
        return selector if "stTabs" in selector else f'[data-stale="false"] {selector}'

    @property
    def shown_heading(self) -> str:
        return self.heading or self.title


#: Every page with the view a marketer opens first. Extend this list when a page lands.
PAGE_VISITS: tuple[PageVisit, ...] = (
    # The default page lives at the root: "/overview" is "Page not found" (a dialog over the main page).
    PageVisit("overview", "", "domain=stripe.com", title="Domain overview"),
    PageVisit("overview-compare", "", "compare=true&domains=stripe.com%0Ahubspot.com%0Aexample.com"),
    PageVisit("trust-map", "trust-map", "domain=stripe.com", title="Trust Map"),
    PageVisit(
        "site-check",
        "site-check",
        "domain=example.com",
        ready='[data-testid="stButton"]',
        title="Site check",
        draws="text",
    ),
    PageVisit(
        "bulk-dr", "bulk-dr", "", ready='[data-testid="stTextArea"]', title="Bulk DR checker", draws="text"
    ),
    PageVisit(
        "badges",
        "badges",
        "domain=stripe.com",
        ready='[data-testid="stCode"]',
        title="Badges & snippets",
        draws="text",
    ),
    PageVisit(
        "categories", "categories", "", ready='[data-testid="stDataFrame"]', title="Categories", draws="table"
    ),
    PageVisit(
        "keyword-research",
        "keyword-research",
        "keyword=crm+software&domain=example.com",
        title="Keyword research",
    ),
    PageVisit(
        "keyword-suggestions", "keyword-suggestions", "domain=hubspot.com", title="Keyword suggestions"
    ),
    PageVisit(
        "tracked-keywords",
        "tracked-keywords",
        "domain=example.com",
        ready='[data-testid="stDataFrame"]',
        title="Tracked keywords",
        draws="table",
    ),
    # Your first site's keywords from its suggestions and tracked keywords, ranked: a table, no chart.
    PageVisit(
        "opportunities",
        "opportunities",
        "",
        ready='[data-testid="stDataFrame"]',
        title="Opportunities",
        draws="table",
    ),
    PageVisit("discover", "discover", "", title="Discover sites", heading="Discover trusted sites"),
    PageVisit(
        "exchanges",
        "exchanges",
        "domain=example.com",
        ready='[data-testid="stDataFrame"]',
        title="Link exchanges",
        draws="table",
    ),
    PageVisit("my-sites", "my-sites", "", title="My sites"),
    PageVisit("site", "site", "domain=example.com", title="Site details"),
    PageVisit("ai-visibility", "ai-visibility", "domain=example.com", title="AI visibility"),
    PageVisit("search-console", "search-console", "domain=example.com", title="Search Console"),
    PageVisit("monitor", "monitor", "", title="Monitor"),
    # A benchmark's history database starts empty: the History page says how it fills (no chart yet).
    PageVisit("history", "history", "", ready='[data-testid="stTabs"]', title="History", draws="text"),
    # A benchmark's history watches no keyword: the Market page says how to start.
    PageVisit("market", "market", "", ready='[data-testid="stAlert"]', title="Market", draws="text"),
    # A benchmark's history holds no site of its own yet: the Reports page says how they get there.
    PageVisit("reports", "reports", "", ready='[data-testid="stAlert"]', title="Reports", draws="text"),
    # A benchmark's history holds no alerts: the Open tab says so.
    PageVisit("alerts", "alerts", "", ready='[data-testid="stTabs"]', title="Alerts", draws="text"),
    # A benchmark's history database starts empty: the Activity page says what will appear there.
    PageVisit("activity", "activity", "", ready='[data-testid="stAlert"]', title="Activity", draws="text"),
    PageVisit("coach", "coach", "domain=example.com", title="Coach"),
)
