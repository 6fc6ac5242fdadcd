"""Your sites' pages and the Trust Map as a person sees them at common laptop widths, in headless Chromium.

Every table must show all its columns inside the page at 1440 and 1280 px: a column scrolled off to the
right (the index audit's Coverage reason, "Duplicate wi…") hides the very thing the table is for.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from client import ApiClient
from sandbox import DEMO_KEY, SandboxServer
from sandbox.accounts import ACCOUNTS
from tests.browser.tabs import (
    GRID_STATE,
    TABLE,
    TIMEOUT_MS,
    BrowserProfile,
    assert_tables_fit,
    drawn_tables,
    go_to,
    go_to_each,
    screenshot,
    settled,
)

pytestmark = pytest.mark.browser

SITE = ACCOUNTS[DEMO_KEY].sites[0]
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


@pytest.mark.parametrize("address", TABLE_PAGES)
def test_every_table_shows_all_its_columns_at_laptop_widths(
    app_url: str, laptops: dict[int, Page], address: str
) -> None:
    go_to_each(laptops.values(), f"{app_url}/{address}")
    for width, page in laptops.items():
        assert_tables_fit(drawn_tables(page), f"{address} at {width}px")


def test_the_coverage_reason_of_a_page_not_indexed_reads_in_full(
    app_url: str, laptops: dict[int, Page], sandbox: SandboxServer
) -> None:
    with ApiClient(sandbox.base_url, DEMO_KEY) as client:
        audit = client.gsc_audit(SITE).audit
    assert audit is not None and audit.not_indexed
    longest = max((p.coverage or "" for p in audit.not_indexed), key=len)
    go_to_each(laptops.values(), f"{app_url}/search-console?domain={SITE}&gsc_tab=Index+audit")
    for width, page in laptops.items():
        page.get_by_text("Sampled: not indexed").wait_for(timeout=TIMEOUT_MS)
        drawn_tables(page)
        grid = page.locator(TABLE).filter(has_text="Coverage").first
        state = grid.evaluate(GRID_STATE)
        assert "Coverage" in state["drawn"] and state["overflow"] <= 1, f"at {width}px: {state}"
        assert longest in grid.evaluate("g => g.textContent"), f"at {width}px {longest!r} is not drawn"
        page.set_viewport_size({"width": width, "height": 900})
        try:
            page.get_by_text("Sampled: not indexed").evaluate("e => e.scrollIntoView({block: 'center'})")
            settled(page, linger_ms=500)
            screenshot(page, f"search-console-coverage-{width}", full_page=False)
        finally:
            page.set_viewport_size({"width": width, "height": 2400})  # the shared tab stays tall


def test_badges_in_sandbox_mode_preview_offline_and_give_public_snippets(
    app_url: str, browser: BrowserProfile
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
