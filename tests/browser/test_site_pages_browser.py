"""Your sites' pages and the Trust Map as a person sees them at common laptop widths, in headless Chromium.

Every table must show all its columns inside the page at 1440 and 1280 px: a column scrolled off to the
right (the index audit's Coverage reason, "Duplicate wi…") hides the very thing the table is for.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page

from client import ApiClient
from sandbox import DEMO_KEY, SandboxServer
from sandbox.accounts import ACCOUNTS
from tests.browser.tabs import TIMEOUT_MS, go_to, screenshot, settled

pytestmark = pytest.mark.browser

SITE = ACCOUNTS[DEMO_KEY].sites[0]
#: The laptop widths the tables must fit (the viewport, sidebar included).
WIDTHS = (1440, 1280)
#: Each page (and tab) of this area that shows tables, as its address.
TABLE_PAGES = (
    f"search-console?domain={SITE}&gsc_tab=Index+audit",
    f"search-console?domain={SITE}",
    f"site?domain={SITE}&site_tab=TrueDR",
    f"site?domain={SITE}&site_tab=Export",
    "my-sites",
    "monitor",
    "trust-map?domain=stripe.com",
    f"ai-visibility?domain={SITE}&ai_tab=Answers",
    f"ai-visibility?domain={SITE}&ai_tab=Competitors",
    f"ai-visibility?domain={SITE}&ai_tab=Sources",
)
#: Per drawn table: its column labels, the headers the grid actually draws, and whether its content is
#: wider than the table (then columns sit off to the right, behind a horizontal scroll).
GRID_STATE = """grid => {
  const table = grid.querySelector('table[role=grid]');
  const scroller = grid.querySelector('.dvn-scroller');
  return {
    width: grid.getBoundingClientRect().width,
    columns: table ? Number(table.getAttribute('aria-colcount')) : 0,
    drawn: [...grid.querySelectorAll('th[role=columnheader]')].map(th => th.textContent),
    overflow: scroller ? scroller.scrollWidth - scroller.clientWidth : 0,
  };
}"""


@pytest.fixture
def tabs(browser: Browser) -> Iterator[dict[int, Page]]:
    """One tab per width; tall, so a page's tables are all drawn without scrolling."""
    opened = {width: browser.new_page(viewport={"width": width, "height": 2400}) for width in WIDTHS}
    try:
        yield opened
    finally:
        for tab in opened.values():
            tab.close()


def _tables(page: Page) -> list[dict]:
    """The state of every table that is on screen (a table in a closed tab has no width)."""
    page.locator('[data-testid="stDataFrame"] table[role=grid]').first.wait_for(
        state="attached", timeout=TIMEOUT_MS
    )
    settled(page, linger_ms=1000)
    states = [grid.evaluate(GRID_STATE) for grid in page.locator('[data-testid="stDataFrame"]').all()]
    return [s for s in states if s["width"] > 0]


@pytest.mark.parametrize("address", TABLE_PAGES)
def test_every_table_shows_all_its_columns_at_laptop_widths(
    app_url: str, tabs: dict[int, Page], address: str
) -> None:
    for width, page in tabs.items():
        go_to(page, f"{app_url}/{address}")
        tables = _tables(page)
        assert tables, f"{address} at {width}px drew no table"
        for table in tables:
            assert table["overflow"] <= 1, f"{address} at {width}px: {table} is wider than the page"
            assert len(table["drawn"]) == table["columns"], f"{address} at {width}px: columns cut off"


def test_the_coverage_reason_of_a_page_not_indexed_reads_in_full(
    app_url: str, tabs: dict[int, Page], sandbox: SandboxServer
) -> None:
    with ApiClient(sandbox.base_url, DEMO_KEY) as client:
        audit = client.gsc_audit(SITE).audit
    assert audit is not None and audit.not_indexed
    longest = max((p.coverage or "" for p in audit.not_indexed), key=len)
    for width, page in tabs.items():
        go_to(page, f"{app_url}/search-console?domain={SITE}&gsc_tab=Index+audit")
        page.get_by_text("Sampled: not indexed").wait_for(timeout=TIMEOUT_MS)
        _tables(page)
        grid = page.locator('[data-testid="stDataFrame"]').filter(has_text="Coverage").first
        state = grid.evaluate(GRID_STATE)
        assert "Coverage" in state["drawn"] and state["overflow"] <= 1, f"at {width}px: {state}"
        assert longest in grid.evaluate("g => g.textContent"), f"at {width}px {longest!r} is not drawn"
        page.set_viewport_size({"width": width, "height": 900})
        page.get_by_text("Sampled: not indexed").evaluate("e => e.scrollIntoView({block: 'center'})")
        settled(page, linger_ms=500)
        screenshot(page, f"search-console-coverage-{width}", full_page=False)


def test_badges_in_sandbox_mode_preview_offline_and_give_public_snippets(
    app_url: str, browser: Browser
) -> None:
    page = browser.new_page(viewport={"width": 1440, "height": 1400})
    try:
        go_to(page, f"{app_url}/badges?domain=example.com")
        page.get_by_text("Sandbox demo data").click()  # what a newcomer without a key sees
        page.get_by_text("Demo snippets.").wait_for(timeout=TIMEOUT_MS)
        image = page.locator('[data-testid="stImage"] img').first
        image.wait_for(timeout=TIMEOUT_MS)
        page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=image.element_handle())
        settled(page)
        code = "\n".join(page.locator('[data-testid="stCode"]').all_inner_texts())
        assert "https://verifieddr.com/badge/example-com.svg" in code  # the address a person may paste
        assert "127.0.0.1" not in code and "localhost" not in code
        screenshot(page, "badges-sandbox", full_page=False)
    finally:
        page.close()
