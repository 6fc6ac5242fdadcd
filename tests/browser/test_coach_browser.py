"""The Coach page in a real headless Chromium: from the start page to the Analyze view of a site, the
evidence behind the advice in plain words, and the sidebar's quota bar in the colour of what is left."""

from __future__ import annotations

import re

import pytest

from analysis.coach import rules as coach
from client import ApiClient
from components.core.ui.sidebar import quota_colour
from sandbox import DEMO_KEY, SandboxServer
from tests.browser.tabs import BrowserProfile, screenshot, settled
from tests.sandbox_picks import domain_for_issue

pytestmark = pytest.mark.browser


def test_analyze_renders_in_chromium(app_url: str, browser: BrowserProfile, sandbox: SandboxServer) -> None:
    domain = domain_for_issue("inflated")
    with ApiClient(sandbox.base_url, DEMO_KEY) as api:
        lookup = api.lookup(domain)
    with browser.app_tab(app_url, height=1100) as page:
        try:
            page.get_by_text("Data source").first.wait_for(timeout=30_000)
            settled(page)
            more = page.get_by_text(re.compile(r"^View \d+ more$"))
            if more.count():
                more.first.click()
            page.get_by_role("link", name="Coach", exact=True).first.click()
            # Domain overview has a Domain field too: type only once Coach's own page has replaced it (a key
            # press in the old page's field, in the moment before the switch, reruns the old page).
            page.locator("h1", has_text=re.compile(r"^Coach")).first.wait_for(timeout=30_000)
            settled(page)
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


def _rgb(hex_colour: str) -> str:
    """``#2e9e5b`` as the browser's computed style writes it: ``rgb(46, 158, 91)``."""
    red, green, blue = (int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))
    return f"rgb({red}, {green}, {blue})"


def test_advice_says_what_it_rests_on_and_the_quota_bar_shows_what_is_left(
    app_url: str, browser: BrowserProfile, sandbox: SandboxServer
) -> None:
    domain = domain_for_issue("inflated")
    with ApiClient(sandbox.base_url, DEMO_KEY) as api:
        issue = coach.analyze(api.lookup(domain)).issue
    with browser.app_tab(f"{app_url}/coach?domain={domain}", height=900) as page:
        try:
            page.get_by_text(coach.ISSUE_TEXT["inflated"]).wait_for(timeout=30_000)
            settled(page)

            sidebar = page.locator('[data-testid="stSidebar"]')
            quota = sidebar.get_by_text(re.compile(r"^Quota left: [\d,]+ of [\d,]+")).inner_text()
            left, limit = (int(number.replace(",", "")) for number in re.findall(r"\d[\d,]*", quota)[:2])
            fill = sidebar.locator('[data-testid="stProgressBarTrack"] > div').first
            colour = fill.evaluate("element => getComputedStyle(element).backgroundColor")
            assert colour == _rgb(quota_colour(left, limit)), f"{quota}: the bar is {colour}"

            main = page.locator('[data-testid="stMain"]')
            main.get_by_text(f"Based on: {coach.plain_sources(issue.sources)}").first.wait_for(timeout=30_000)
            assert "From:" not in main.inner_text(), "advice still cites API field names in plain view"
            field = main.get_by_text(coach.SRC_TRUE_DR).first
            assert not field.is_visible(), "the data used is folded until asked for"
            main.get_by_text("Data used").first.click()
            field.wait_for(state="visible", timeout=30_000)
            settled(page)
            screenshot(page, "coach-evidence", full_page=False)
        except Exception:
            screenshot(page, "coach-evidence-failure")
            raise
