"""The research pages as a person sees them: served by Streamlit, driven in headless Debian Chromium.

One app process for the module (Live mode against the session sandbox, tests/browser/conftest.py), one
check per page that its main chart and table (or, where a page has none, its main element) render.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Page

from client import ApiClient
from sandbox import DEMO_KEY, SandboxServer
from sandbox.data import SUSPICIOUS_SITE
from tests.browser.tabs import TIMEOUT_MS, BrowserProfile, go_to, new_tab, screenshot, settled

pytestmark = pytest.mark.browser
#: The bulk checker's cost is read before a run (3 domains, 3 units): an app of the module's own, whose
#: cache no other module filled.
OWN_APP = True


@pytest.fixture
def page(browser: BrowserProfile) -> Iterator[Page]:
    """A tall tab, so each page's charts and table are drawn in one screenshot."""
    tab = new_tab(browser, height=1800)
    try:
        yield tab
    finally:
        tab.close()


def test_trust_map_renders_its_charts_and_table(app_url: str, page: Page, sandbox: SandboxServer) -> None:
    with ApiClient(sandbox.base_url, DEMO_KEY) as client:
        total = client.trust_map("stripe.com").total_domains
    go_to(page, f"{app_url}/trust-map?domain=stripe.com")
    page.locator('[data-testid="stDataFrame"]').first.wait_for(timeout=TIMEOUT_MS)
    page.locator(".js-plotly-plot .main-svg").nth(3).wait_for(timeout=TIMEOUT_MS)
    settled(page)
    assert page.locator(".js-plotly-plot").count() == 4
    assert page.get_by_text(f"A sample of 60 of {total:,} referring domains").is_visible()
    screenshot(page, "trust_map")


def test_site_check_asks_then_shows_the_verdict(app_url: str, page: Page) -> None:
    go_to(page, f"{app_url}/site-check?domain={SUSPICIOUS_SITE}")
    page.get_by_role("button", name="Read the report (spends 1 quota unit)").click()
    page.locator("h3", has_text="Suspicious").wait_for(timeout=TIMEOUT_MS)
    page.get_by_text("Why", exact=True).wait_for(timeout=TIMEOUT_MS)
    page.locator('[data-testid="stMetric"]').nth(9).wait_for(timeout=TIMEOUT_MS)  # the signal cards
    settled(page)
    screenshot(page, "site_check")


def test_bulk_checker_runs_and_renders_chart_and_table(app_url: str, page: Page) -> None:
    go_to(page, f"{app_url}/bulk-dr")
    area = page.get_by_role("textbox", name="Domains")
    area.fill("stripe.com\ngithub.com, example.com\nlocalhost")
    area.press("Control+Enter")
    start = page.get_by_role("button", name="Check 3 domains (spends 3 quota units)")
    start.wait_for(timeout=TIMEOUT_MS)
    start.click()
    page.locator(".js-plotly-plot .main-svg").first.wait_for(timeout=TIMEOUT_MS)
    page.get_by_text("Rated 3 of 3 domains", exact=False).wait_for(timeout=TIMEOUT_MS)
    settled(page)
    assert page.locator('[data-testid="stDataFrame"]').count() == 2  # skipped entries, results
    screenshot(page, "bulk_dr")


def test_badges_preview_images_and_show_code(app_url: str, page: Page) -> None:
    go_to(page, f"{app_url}/badges?domain=example.com")
    image = page.locator('[data-testid="stImage"] img').first
    image.wait_for(timeout=TIMEOUT_MS)
    page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=image.element_handle())
    code = page.locator('[data-testid="stCode"]')
    code.first.wait_for(timeout=TIMEOUT_MS)
    assert "<a href=" in code.first.inner_text()  # shown as text, not rendered
    settled(page)
    screenshot(page, "badges")


def test_categories_table_renders(app_url: str, page: Page, sandbox: SandboxServer) -> None:
    with ApiClient(sandbox.base_url, DEMO_KEY) as client:
        limit = client.categories().max_per_site
    go_to(page, f"{app_url}/categories")
    table = page.locator('[data-testid="stDataFrame"]').first
    table.wait_for(timeout=TIMEOUT_MS)
    settled(page)
    assert table.bounding_box()["height"] > 100  # rows drawn, not an empty frame
    assert page.locator('[data-testid="stMetricValue"]').first.inner_text().strip() == str(limit)
    screenshot(page, "categories")
