"""The research pages as a person sees them: served by Streamlit, driven in headless Debian Chromium.

One app process for the module (Live mode against the session sandbox), one check per page that its
main chart and table (or, where a page has none, its main element) render.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from client import ApiClient
from sandbox import DEMO_KEY, SandboxServer
from sandbox.data import SUSPICIOUS_SITE
from tests.browser.test_browser import ARTIFACTS, _settled, app_url, browser  # noqa: F401 - fixtures used by name

pytestmark = pytest.mark.browser

#: Generous: other test runs may share the machine's two cores.
TIMEOUT_MS = 60_000


@pytest.fixture(scope="module", autouse=True)
def _first_session(app_url: str, browser) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    """Open the start page once: the very first session of a fresh server may show a spurious
    "Page not found" dialog when it starts on another page's URL (all pages alike, not these)."""
    tab = browser.new_page()
    try:
        tab.goto(app_url, wait_until="domcontentloaded")
        tab.get_by_label("Domain", exact=True).wait_for(timeout=TIMEOUT_MS)
        _settled(tab)
    finally:
        tab.close()


@pytest.fixture
def page(app_url: str, browser) -> Iterator[object]:  # type: ignore[no-untyped-def]  # noqa: F811
    tab = browser.new_page(viewport={"width": 1400, "height": 1800})
    try:
        yield tab
    finally:
        tab.close()


def _open(page, url: str) -> None:  # type: ignore[no-untyped-def]
    page.goto(url, wait_until="domcontentloaded")
    page.locator('[data-testid="stAppViewContainer"]').wait_for(timeout=TIMEOUT_MS)
    _settled(page)


def _shot(page, name: str) -> None:  # type: ignore[no-untyped-def]
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def test_trust_map_renders_its_charts_and_table(app_url: str, page, sandbox: SandboxServer) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    with ApiClient(sandbox.base_url, DEMO_KEY) as client:
        total = client.trust_map("stripe.com").total_domains
    _open(page, f"{app_url}/trust-map?domain=stripe.com")
    page.locator('[data-testid="stDataFrame"]').first.wait_for(timeout=TIMEOUT_MS)
    page.locator(".js-plotly-plot .main-svg").nth(3).wait_for(timeout=TIMEOUT_MS)
    _settled(page)
    assert page.locator(".js-plotly-plot").count() == 4
    assert page.get_by_text(f"A sample of 60 of {total:,} referring domains").is_visible()
    _shot(page, "trust_map")


def test_site_check_asks_then_shows_the_verdict(app_url: str, page) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    _open(page, f"{app_url}/site-check?domain={SUSPICIOUS_SITE}")
    page.get_by_role("button", name="Read the report (spends 1 quota unit)").click()
    page.locator("h3", has_text="Suspicious").wait_for(timeout=TIMEOUT_MS)
    page.get_by_text("Why", exact=True).wait_for(timeout=TIMEOUT_MS)
    page.locator('[data-testid="stMetric"]').nth(9).wait_for(timeout=TIMEOUT_MS)  # the signal cards
    _settled(page)
    _shot(page, "site_check")


def test_bulk_checker_runs_and_renders_chart_and_table(app_url: str, page) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    _open(page, f"{app_url}/bulk-dr")
    area = page.get_by_role("textbox", name="Domains")
    area.fill("stripe.com\ngithub.com, example.com\nlocalhost")
    area.press("Control+Enter")
    start = page.get_by_role("button", name="Check 3 domains (spends 3 quota units)")
    start.wait_for(timeout=TIMEOUT_MS)
    start.click()
    page.locator(".js-plotly-plot .main-svg").first.wait_for(timeout=TIMEOUT_MS)
    page.get_by_text("Rated 3 of 3 domains", exact=False).wait_for(timeout=TIMEOUT_MS)
    _settled(page)
    assert page.locator('[data-testid="stDataFrame"]').count() == 2  # skipped entries, results
    _shot(page, "bulk_dr")


def test_badges_preview_images_and_show_code(app_url: str, page) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    _open(page, f"{app_url}/badges?domain=example.com")
    image = page.locator('[data-testid="stImage"] img').first
    image.wait_for(timeout=TIMEOUT_MS)
    page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=image.element_handle())
    code = page.locator('[data-testid="stCode"]')
    code.first.wait_for(timeout=TIMEOUT_MS)
    assert "<a href=" in code.first.inner_text()  # shown as text, not rendered
    _settled(page)
    _shot(page, "badges")


def test_categories_table_renders(app_url: str, page, sandbox: SandboxServer) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    with ApiClient(sandbox.base_url, DEMO_KEY) as client:
        limit = client.categories().max_per_site
    _open(page, f"{app_url}/categories")
    table = page.locator('[data-testid="stDataFrame"]').first
    table.wait_for(timeout=TIMEOUT_MS)
    _settled(page)
    assert table.bounding_box()["height"] > 100  # rows drawn, not an empty frame
    assert page.locator('[data-testid="stMetricValue"]').first.inner_text().strip() == str(limit)
    _shot(page, "categories")
