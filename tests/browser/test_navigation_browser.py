"""Browser Back after a move between pages, in real Chromium: one press of Back returns to the page as it
was (its address, its heading and its Domain field), and the move added exactly one step to the tab's
history. Both ways of moving are checked: a link drawn by a page (``link_to``: "History of <domain>" on
the Domain overview) and pages in the sidebar's navigation that share the Domain field (carried over,
and into the address).

Streamlit writes each query-string change of a page switch as a history entry of its own; the app folds
them into one (components/core/nav/browser_history.py). Without that, Back showed an empty Domain overview
twice before returning. On Back between two pages with the Domain field Streamlit also dropped the
field from the address (components/core/nav/shared_inputs.py puts it back).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from tests.browser.tabs import SIDEBAR, TIMEOUT_MS, BrowserProfile, go_to, new_tab, settled

pytestmark = pytest.mark.browser

DOMAIN = "stripe.com"
METRIC = '[data-testid="stMetric"]'


def _history_length(page: Page) -> int:
    return int(page.evaluate("window.history.length"))


def _domain_field(page: Page) -> str:
    """The Domain field of the page on screen (the current run's, not a page being left)."""
    field = page.locator('[data-stale="false"]').get_by_label("Domain", exact=True)
    field.wait_for(timeout=TIMEOUT_MS)
    return field.input_value()


def _shows(page: Page, url: str, heading: str) -> None:
    """The page at ``url`` with ``heading``, its run ended, and the address still ``url`` after it."""
    expect(page).to_have_url(url, timeout=TIMEOUT_MS)
    expect(page.get_by_role("heading", name=heading, exact=True)).to_be_visible(timeout=TIMEOUT_MS)
    settled(page)
    assert _domain_field(page) == DOMAIN
    assert page.url == url, "the page rewrote its address"


def _step_back(page: Page) -> None:
    page.go_back(wait_until="commit")


@pytest.fixture
def overview(browser: BrowserProfile, app_url: str) -> Iterator[Page]:
    page = new_tab(browser)
    go_to(page, f"{app_url}/?domain={DOMAIN}", ready=METRIC)
    yield page
    page.close()


def test_back_after_a_page_link_returns_to_the_overview_as_it_was(overview: Page, app_url: str) -> None:
    page = overview
    before = _history_length(page)
    page.get_by_role("link", name=f"History of {DOMAIN}").first.click()
    expect(page).to_have_url(re.compile(rf"/history\?history_domain={re.escape(DOMAIN)}"), timeout=TIMEOUT_MS)
    expect(page.get_by_role("heading", name="History", exact=True)).to_be_visible(timeout=TIMEOUT_MS)
    settled(page)
    assert _history_length(page) == before + 1, "the link added more than one step to history"
    _step_back(page)
    _shows(page, f"{app_url}/?domain={DOMAIN}", "Domain overview")
    page.locator(f'[data-stale="false"] {METRIC}').first.wait_for(timeout=TIMEOUT_MS)


def test_back_after_sidebar_pages_returns_to_each_page_as_it_was(overview: Page, app_url: str) -> None:
    """Trust Map and Site check both have the Domain field, carried over from the overview; each Back
    returns one page, with its field and address as they were."""
    page = overview
    before = _history_length(page)
    sidebar = page.locator(SIDEBAR)
    sidebar.get_by_role("link", name="Trust Map").click()
    _shows(page, f"{app_url}/trust-map?domain={DOMAIN}", "Trust Map")
    sidebar.get_by_role("link", name="Site check").click()
    _shows(page, f"{app_url}/site-check?domain={DOMAIN}", "Site check")
    assert _history_length(page) == before + 2, "a page switch added more than one step to history"
    _step_back(page)
    _shows(page, f"{app_url}/trust-map?domain={DOMAIN}", "Trust Map")
    _step_back(page)
    _shows(page, f"{app_url}/?domain={DOMAIN}", "Domain overview")
    page.locator(f'[data-stale="false"] {METRIC}').first.wait_for(timeout=TIMEOUT_MS)
