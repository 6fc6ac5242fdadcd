"""Keyword pages in a real headless Chromium: research a keyword, add then remove a tracked keyword."""

from __future__ import annotations

import contextlib
import re

import pytest
from playwright.sync_api import Browser, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from client import ApiClient
from client.inputs import slug_for
from components.common.text import fmt_number
from sandbox import DEMO_KEY, SandboxServer
from sandbox.accounts import ACCOUNTS
from tests.browser.tabs import TIMEOUT_MS, open_app_page, screenshot, settled

pytestmark = pytest.mark.browser

SITE = ACCOUNTS[DEMO_KEY].sites[0]
SLUG = slug_for(SITE)
KEYWORDS_PATH = f"/api/v1/sites/{SLUG}/keywords"
#: True while a script run is going: the status widget then offers to stop it.
RUNNING = (
    "[...document.querySelectorAll('[data-testid=\"stStatusWidget\"]')]"
    ".some(w => w.innerText.includes('Stop'))"
)


def _after_rerun(page: Page) -> None:
    """After an interaction: wait for the run it starts (if it shows at all), then for its end."""
    with contextlib.suppress(PlaywrightTimeoutError):  # a quick run may come and go between polls
        page.wait_for_function(f"() => {RUNNING}", timeout=2_000)
    settled(page)


def _click(page: Page, name: str) -> None:
    """Click the one current button of that name (a finished run leaves no stale copy behind)."""
    button = page.get_by_role("button", name=name)
    expect(button).to_have_count(1, timeout=TIMEOUT_MS)
    button.click()
    _after_rerun(page)


def _metric_value(page: Page, label: str) -> str:
    metric = page.locator('[data-testid="stMetric"]').filter(
        has=page.locator('[data-testid="stMetricLabel"]', has_text=re.compile(f"^{re.escape(label)}$"))
    )
    metric.first.wait_for(timeout=TIMEOUT_MS)
    return metric.first.locator('[data-testid="stMetricValue"]').inner_text().strip()


def _requests(server: SandboxServer, method: str, path: str) -> int:
    return sum(1 for m, p, _, _ in server.state.request_log if m == method and p == path)


def test_research_a_keyword_and_see_its_chart(app_url: str, browser: Browser, sandbox: SandboxServer) -> None:
    keyword = "coffee beans"
    page = open_app_page(
        browser, f"{app_url}/keyword-research?keyword=coffee+beans&domain={SITE}", height=1300
    )
    try:
        page.locator(".js-plotly-plot .main-svg").first.wait_for(timeout=TIMEOUT_MS)
        median = _metric_value(page, "Median DR")
        gap = _metric_value(page, "Gap")
        with ApiClient(sandbox.base_url, DEMO_KEY) as client:
            expected = client.keyword_report(keyword, SITE)
        assert median == fmt_number(expected.median_dr)
        assert expected.user is not None and gap == f"{expected.user.gap:+g}"
        assert page.get_by_text("DR of the top 10 by position").count() >= 1
        settled(page)
        screenshot(page, "keyword_research")
    finally:
        page.close()


def test_add_then_remove_a_tracked_keyword(app_url: str, browser: Browser, sandbox: SandboxServer) -> None:
    keyword = "server side tracking"
    with ApiClient(sandbox.base_url, DEMO_KEY) as client:
        start = client.tracked_keywords(SLUG)
    count = len(start.keywords)
    page = open_app_page(browser, f"{app_url}/tracked-keywords?domain={SITE}", height=1300)
    try:
        page.get_by_text(f"{count} of {start.limit} tracked keywords").wait_for(timeout=TIMEOUT_MS)

        settled(page)
        field = page.get_by_label("Keyword to track")
        field.fill(keyword)
        _click(page, "Track keyword")
        page.get_by_text("Now tracking").wait_for(timeout=TIMEOUT_MS)
        page.get_by_text(f"{count + 1} of {start.limit} tracked keywords").wait_for(timeout=TIMEOUT_MS)
        assert _requests(sandbox, "POST", KEYWORDS_PATH) == 1
        with ApiClient(sandbox.base_url, DEMO_KEY) as client:
            added = [k for k in client.tracked_keywords(SLUG).keywords if k.keyword == keyword]
        assert len(added) == 1
        settled(page)
        screenshot(page, "tracked_keywords_added")

        page.get_by_label("Tracked keyword").click()
        page.get_by_role("option", name=keyword).click()
        _after_rerun(page)  # until a run ends, the last run's elements are on the page too
        _click(page, "Remove…")
        _click(page, "Yes, remove it")
        page.get_by_text("Stopped tracking").wait_for(timeout=TIMEOUT_MS)
        page.get_by_text(f"{count} of {start.limit} tracked keywords").wait_for(timeout=TIMEOUT_MS)
        assert _requests(sandbox, "DELETE", KEYWORDS_PATH) == 1
        with ApiClient(sandbox.base_url, DEMO_KEY) as client:
            assert added[0].id not in {k.id for k in client.tracked_keywords(SLUG).keywords}
    finally:
        page.close()
