"""The Coach page in a real headless Chromium: from the start page to the Analyze view of a site."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser

from client import ApiClient
from components.coach import rules as coach
from sandbox import DEMO_KEY, SandboxServer
from tests.browser.tabs import new_tab, screenshot, settled
from tests.sandbox_picks import domain_for_issue

pytestmark = pytest.mark.browser


def test_analyze_renders_in_chromium(app_url: str, browser: Browser, sandbox: SandboxServer) -> None:
    domain = domain_for_issue("inflated")
    with ApiClient(sandbox.base_url, DEMO_KEY) as api:
        lookup = api.lookup(domain)
    page = new_tab(browser, height=1100)
    try:
        page.goto(app_url, wait_until="domcontentloaded")
        page.get_by_text("Data source").first.wait_for(timeout=30_000)
        settled(page)
        more = page.get_by_text(re.compile(r"^View \d+ more$"))
        if more.count():
            more.first.click()
        page.get_by_role("link", name="Coach", exact=True).first.click()
        field = page.get_by_label("Domain", exact=True)
        field.wait_for(timeout=30_000)
        field.fill(domain)
        field.press("Enter")
        page.get_by_role("tab", name="Analyze", exact=True).wait_for(timeout=30_000)
        for label, value in (("DR", lookup.authority.dr), ("TrueDR", lookup.authority.true_dr)):
            card = page.locator('[data-testid="stMetric"]').filter(
                has=page.locator('[data-testid="stMetricLabel"]', has_text=re.compile(f"^{label}$"))
            )
            assert card.first.locator('[data-testid="stMetricValue"]').inner_text().strip() == str(value)
        page.get_by_text(coach.ISSUE_TEXT["inflated"]).wait_for(timeout=30_000)
        page.locator(".js-plotly-plot .main-svg").first.wait_for(timeout=30_000)
        assert f"domain={domain}" in page.url
        settled(page)
        screenshot(page, "coach")
    except Exception:
        screenshot(page, "coach-failure")
        raise
    finally:
        page.close()
