"""The Market page in real Chromium, the app in Sandbox mode (no API key) on a fresh history database
seeded with demo history: visibility and share of voice of the demo sites against the domains of their
keywords' top 10s on the first visit, in dark theme at 1280 px; an editor tags a keyword and picks that
group; a note added on the Notes tab marks the visibility chart. Screenshots go to ``artifacts/``."""

from __future__ import annotations

from playwright.sync_api import Page

from sandbox import DEMO_KEY
from sandbox.demo_history import asking_domain, demo_subjects
from tests.browser.tabs import (
    TIMEOUT_MS,
    BrowserProfile,
    ServedApp,
    assert_tables_fit,
    drawn_tables,
    screenshot,
    settled,
)

#: Seeding the demo history happens on the first visit; on a busy machine it takes a while.
SEED_TIMEOUT_MS = 180_000
CHART = '[data-stale="false"] .js-plotly-plot .main-svg'
#: The keywords the demo key watches, and the sites they are watched for.
WATCHED = {keyword: asking_domain(DEMO_KEY, keyword) for keyword in demo_subjects(DEMO_KEY).keywords}


def _chart_text(page: Page, title: str) -> str:
    page.locator(f'{CHART} .gtitle:has-text("{title}")').first.wait_for(timeout=TIMEOUT_MS)
    return next(text for text in (c.text_content() or "" for c in page.locator(CHART).all()) if title in text)


def _open_tab(page: Page, name: str) -> None:
    page.get_by_role("tab", name=name, exact=True).click()
    settled(page, linger_ms=300)


def test_the_demo_market_compares_the_demo_sites_with_the_top_10s_in_dark_theme_at_1280(
    browser: BrowserProfile, sandbox_app: ServedApp
) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 1100}, color_scheme="dark")
    page.goto(f"{sandbox_app.url}/market", wait_until="domcontentloaded")
    page.locator(CHART).first.wait_for(timeout=SEED_TIMEOUT_MS)
    settled(page, linger_ms=500)
    assert page.get_by_text("Demo history.").first.is_visible()
    visibility = _chart_text(page, "Visibility over time")
    sites = set(WATCHED.values())
    assert all(site in visibility for site in sites), visibility[:300]
    assert page.get_by_text(f"Visibility of {sorted(sites)[0]}").first.is_visible()
    assert_tables_fit(drawn_tables(page), "the Market page at 1280 px")
    screenshot(page, "market-visibility-dark")
    _open_tab(page, "Share of voice")
    assert "Share of voice on" in _chart_text(page, "Share of voice on")
    screenshot(page, "market-share-of-voice-dark")
    page.close()


def test_an_editor_tags_a_keyword_picks_its_group_and_adds_a_note_that_marks_the_chart(
    browser: BrowserProfile, sandbox_app: ServedApp
) -> None:
    keyword = sorted(WATCHED)[0]
    address = f"{sandbox_app.url}/market?market_tab=Keyword+groups"
    with browser.app_tab(address, width=1280, height=1100, ready='[data-testid="stForm"]') as page:
        settled(page, linger_ms=300)
        page.get_by_label("Keywords", exact=True).last.click()
        page.get_by_role("option", name=keyword, exact=True).click()
        page.keyboard.press("Escape")
        page.get_by_label("Tag", exact=True).fill("coffee shop")
        page.get_by_role("button", name="Add tag").click()
        page.get_by_text("Tagged 1 keyword “coffee shop”.").wait_for(timeout=TIMEOUT_MS)

        page.get_by_label("Group", exact=True).click()
        page.get_by_role("option", name="Tagged “coffee shop”", exact=True).click()
        settled(page, linger_ms=300)
        _open_tab(page, "Visibility")
        page.get_by_text("Over the 1 keyword with a recorded top 10").first.wait_for(timeout=TIMEOUT_MS)

        _open_tab(page, "Notes")
        page.get_by_label("What happened", exact=True).fill("Menu page relaunched")
        page.get_by_role("button", name="Add note").click()
        page.get_by_text("Note added").wait_for(timeout=TIMEOUT_MS)
        _open_tab(page, "Visibility")
        assert "Menu page relaunched" in _chart_text(page, "Visibility over time")
        screenshot(page, "market-group-and-note")
