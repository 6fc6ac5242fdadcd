"""The Coach's tables, Discover and Categories as a person sees them at common laptop widths, in headless
Chromium.

Every table must show all its columns inside the page at 1440 and 1280 px: a column scrolled off to the
right (the Coach's "Heuristic impact", "Why" and "Based on") is one nobody reads. What a narrow table
leaves out (why an action helps, how a plan step is done) must still read in full on the page.
"""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import urlencode

import pytest
from playwright.sync_api import Browser, Page

from client import ApiClient
from components.coach import rules as coach
from sandbox import DEMO_KEY, SandboxServer
from sandbox import data as sandbox_data
from tests.browser.tabs import TIMEOUT_MS, go_to, screenshot, settled

# The same measure of a drawn table as the site pages' check, so both judge "fits" alike.
from tests.browser.test_site_pages_browser import GRID_STATE
from tests.sandbox_picks import domain_where, listed_domains

pytestmark = pytest.mark.browser

#: The laptop widths the tables must fit (the viewport, sidebar included).
WIDTHS = (1440, 1280)
#: Demo sites with long and short evidence, one with every action (the longest action names), and a
#: site whose Trust Map is still being built (the audit then lists the lookup's backlinks, with their
#: anchors and linking pages).
COACH_SITES = ("acme-widgets.com", "stripe.com")
ALL_ACTIONS_SITE = domain_where(lambda lookup: len(coach.ranked_actions(lookup)) >= 5)
COLD_MAP_SITE = next(d for d in listed_domains() if sandbox_data.is_map_cold(d))
#: Where a Coach tab keeps a table folded away: the expander to open first.
FOLDED = {"Diagnose": "The evidence as a table", "Track": "The changes as a table"}
#: (address, the expander to open or None, how many tables it draws) for every table of this area.
TABLE_PAGES = (
    *(
        (f"coach?{urlencode({'domain': site, 'coach': tab})}", FOLDED.get(tab), count)
        for site in COACH_SITES
        for tab, count in (("Actions", 1), ("Diagnose", 1), ("Audit backlinks", 3), ("Fix", 1), ("Track", 1))
    ),
    *(
        (f"coach?{urlencode({'domain': ALL_ACTIONS_SITE, 'coach': tab})}", None, 1)
        for tab in ("Actions", "Fix")
    ),
    (f"coach?{urlencode({'domain': COLD_MAP_SITE, 'coach': 'Audit backlinks'})}", None, 2),
    ("discover", None, 1),
    ("discover?unverified=true&limit=50", None, 1),
    ("categories", None, 1),
)


@pytest.fixture(params=WIDTHS, ids=[f"{width}px" for width in WIDTHS])
def width(request: pytest.FixtureRequest) -> int:
    """Each laptop width in turn."""
    return int(request.param)


@pytest.fixture
def laptop(browser: Browser, width: int) -> Iterator[Page]:
    """A tab ``width`` wide; tall, so a page's tables are all drawn without scrolling."""
    page = browser.new_page(viewport={"width": width, "height": 2400})
    try:
        yield page
    finally:
        page.close()


def _open(page: Page, url: str, folded: str | None) -> list[dict]:
    """Open ``url`` (and the expander ``folded``), then the state of every table on screen (see
    ``GRID_STATE``; a table in a closed tab has no width)."""
    go_to(page, url)
    if folded:
        page.get_by_text(folded).first.click()
    page.locator('[data-testid="stDataFrame"] table[role=grid]').first.wait_for(
        state="attached", timeout=TIMEOUT_MS
    )
    settled(page, linger_ms=1000)
    states = [grid.evaluate(GRID_STATE) for grid in page.locator('[data-testid="stDataFrame"]').all()]
    return [s for s in states if s["width"] > 0]


@pytest.mark.parametrize(("address", "folded", "count"), TABLE_PAGES, ids=[a for a, _, _ in TABLE_PAGES])
def test_every_table_shows_all_its_columns_at_laptop_widths(
    app_url: str, laptop: Page, width: int, address: str, folded: str | None, count: int
) -> None:
    tables = _open(laptop, f"{app_url}/{address}", folded)
    assert len(tables) == count, f"{address} at {width}px drew {len(tables)} tables, not {count}"
    for table in tables:
        assert table["overflow"] <= 1, f"{address} at {width}px: {table} is wider than the page"
        assert len(table["drawn"]) == table["columns"], f"{address} at {width}px: columns cut off"


def _reads_in_full(page: Page, text: str, width: int) -> None:
    """``text`` is on the page as text (not only in a table cell), inside the page's width."""
    shown = page.locator('[data-testid="stMarkdownContainer"]', has_text=text).first
    shown.wait_for(timeout=TIMEOUT_MS)
    box = shown.bounding_box()
    assert box is not None and box["x"] + box["width"] <= width, f"{text!r} runs off the page"


def test_why_each_action_helps_and_how_each_step_is_done_read_in_full(
    app_url: str, laptop: Page, width: int, sandbox: SandboxServer
) -> None:
    site = ALL_ACTIONS_SITE
    with ApiClient(sandbox.base_url, DEMO_KEY) as client:
        lookup = client.lookup(site)
    _open(laptop, f"{app_url}/coach?{urlencode({'domain': site, 'coach': 'Actions'})}", None)
    for action in coach.ranked_actions(lookup):
        _reads_in_full(laptop, action.detail, width)
        _reads_in_full(laptop, action.impact, width)
    screenshot(laptop, f"coach-actions-{width}")
    _open(laptop, f"{app_url}/coach?{urlencode({'domain': site, 'coach': 'Fix'})}", None)
    for phase in coach.fix_plan(lookup, coach.DEFAULT_GOAL).phases:
        _reads_in_full(laptop, phase.detail, width)
