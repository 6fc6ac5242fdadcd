"""What a person sees: the app served by Streamlit, driven in a real headless Debian Chromium."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from client import ApiClient
from rigs.processes import app_process
from sandbox import DEMO_KEY, SandboxServer
from tests.browser.tabs import BrowserProfile, new_tab, screenshot, settled

pytestmark = pytest.mark.browser


def test_typing_a_domain_shows_its_dr(app_url: str, browser: BrowserProfile, sandbox: SandboxServer) -> None:
    domain = "stripe.com"
    with ApiClient(sandbox.base_url, DEMO_KEY) as client:
        expected_dr = client.lookup(domain).authority.dr
    with browser.app_tab(app_url) as page:
        field = page.get_by_label("Domain", exact=True)
        field.wait_for(timeout=30_000)
        field.fill(domain)
        field.press("Enter")
        dr_metric = page.locator('[data-testid="stMetric"]').filter(
            has=page.locator('[data-testid="stMetricLabel"]', has_text=re.compile(r"^DR$"))
        )
        dr_metric.first.wait_for(timeout=30_000)
        value = dr_metric.first.locator('[data-testid="stMetricValue"]').inner_text()
        assert value.strip() == str(expected_dr)
        page.locator(".js-plotly-plot .main-svg").first.wait_for(timeout=30_000)
        assert f"domain={domain}" in page.url  # the view can be shared
        settled(page)
        screenshot(page, "overview")


def test_a_deep_link_as_a_fresh_servers_first_request_runs_the_whole_app(
    sandbox: SandboxServer, browser: BrowserProfile, tmp_path: Path
) -> None:
    """A shared link must show the app with its sidebar even when nobody opened the app before."""
    log = tmp_path / "streamlit.log"
    with app_process(api_base=sandbox.base_url, api_key=DEMO_KEY, log_path=log) as fresh_app:
        page = new_tab(browser)
        try:
            page.goto(f"{fresh_app.url}/trust-map?domain=stripe.com", wait_until="domcontentloaded")
            sidebar = page.locator('[data-testid="stSidebar"]')
            sidebar.get_by_text("Connection", exact=True).wait_for(timeout=30_000)
            assert sidebar.get_by_role("link", name="Trust Map").count() == 1
            page.locator(".js-plotly-plot .main-svg").first.wait_for(timeout=30_000)
            assert page.get_by_text("Page not found").count() == 0
        finally:
            page.close()


def test_the_domain_stays_when_switching_pages_in_the_sidebar(app_url: str, browser: BrowserProfile) -> None:
    """A sidebar link carries no query string; the domain typed on one page is still there on the next."""
    with browser.app_tab(f"{app_url}/?domain=stripe.com") as page:
        page.locator('[data-testid="stMetric"]').first.wait_for(timeout=30_000)
        settled(page)
        page.locator('[data-testid="stSidebarNav"]').get_by_role("link", name="Trust Map", exact=True).click()
        page.get_by_role("heading", name="Trust Map").first.wait_for(timeout=30_000)
        field = page.get_by_role("textbox", name="Domain", exact=True)
        field.wait_for(timeout=30_000)
        try:
            page.locator(".js-plotly-plot .main-svg").first.wait_for(timeout=30_000)
        finally:
            screenshot(page, "sidebar-switch", full_page=False)
        assert field.input_value() == "stripe.com"
