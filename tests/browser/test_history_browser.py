"""The History section's pages in real Chromium, the app in Sandbox mode (no API key) on a fresh history
database: the empty store is seeded with demo history, and the History page draws DR/TrueDR trends for
the demo site and a competitor, and the keyword position chart; Watch on the Domain overview and its
History link open that domain's trends, and the trends' CSV reads in words. The Market page compares
the demo sites with the domains of their keywords' top 10s on the first visit (dark theme, 1280 px); an
editor tags a keyword and picks that group; a note added on its Notes tab marks the visibility chart.
Screenshots go to ``artifacts/``."""

from __future__ import annotations

import csv
from pathlib import Path

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

SUBJECTS = demo_subjects(DEMO_KEY)
MINE = SUBJECTS.own_sites[0]
#: Seeding the demo history happens on the first visit; on a busy machine it takes a while.
SEED_TIMEOUT_MS = 180_000
CHART = '[data-stale="false"] .js-plotly-plot .main-svg'
#: The keywords the demo key watches, and the sites they are watched for.
WATCHED = {keyword: asking_domain(DEMO_KEY, keyword) for keyword in demo_subjects(DEMO_KEY).keywords}


def _tab(browser: BrowserProfile) -> Page:
    return browser.new_page(viewport={"width": 1440, "height": 1100}, color_scheme="light")


def _chart_text(page: Page, title: str) -> str:
    """The text of the chart whose title starts with ``title`` (legend, axes, annotations)."""
    page.locator(f'{CHART} .gtitle:has-text("{title}")').first.wait_for(timeout=TIMEOUT_MS)
    texts = [chart.text_content() or "" for chart in page.locator(CHART).all()]
    return next(text for text in texts if title in text)


def test_demo_history_shows_dr_and_true_dr_trends_for_your_site_and_a_competitor(
    browser: BrowserProfile, sandbox_app: ServedApp
) -> None:
    page = _tab(browser)
    page.goto(f"{sandbox_app.url}/history", wait_until="domcontentloaded")
    page.locator(CHART).first.wait_for(timeout=SEED_TIMEOUT_MS)
    settled(page, linger_ms=500)
    assert page.get_by_text("Demo history.").first.is_visible()
    trends = _chart_text(page, "DR and TrueDR over time")
    assert MINE in trends  # your site, and beside it in the same chart the competitors
    assert sum(rival in trends for rival in SUBJECTS.competitors) >= 2
    assert "TrueDR" in trends and "Rating (0–100)" in trends
    assert page.get_by_text("Week over week").first.is_visible()
    screenshot(page, "history-domain-trends")
    page.close()


def test_demo_history_shows_the_keyword_position_chart(
    browser: BrowserProfile, sandbox_app: ServedApp
) -> None:
    address = f"{sandbox_app.url}/history?history_tab=Keyword+positions"
    with browser.app_tab(address, width=1440, height=1100, ready=CHART) as page:
        settled(page, linger_ms=500)
        ranks = _chart_text(page, "Positions over time")
        assert "Top 10" in ranks and "Position" in ranks
        assert page.get_by_text("Days in top 10").first.is_visible() or "Days in top 10" in page.content()
        screenshot(page, "history-keyword-positions")


def test_watch_on_the_domain_overview_then_its_history_link_opens_that_domains_trends(
    browser: BrowserProfile, sandbox_app: ServedApp
) -> None:
    watched = "wikipedia.org"  # in the sandbox, not among the demo history's domains
    overview = f"{sandbox_app.url}/?domain={watched}"
    with browser.app_tab(overview, width=1440, height=1100, ready='[data-testid="stMetric"]') as page:
        page.get_by_role("button", name="Watch", exact=True).first.click()
        page.get_by_role("button", name="Stop watching").wait_for(timeout=TIMEOUT_MS)
        page.get_by_role("link", name=f"History of {watched}").first.click()
        # That domain alone, not the defaults:
        trends = _chart_text(page, f"DR and TrueDR over time: {watched}")
        assert "Rating (0–100)" in trends
        assert page.get_by_text("is not watched").count() == 0
        with page.expect_download() as download:
            page.get_by_role("button", name="Download CSV").first.click()
        with Path(download.value.path()).open(encoding="utf-8-sig") as file:
            rows = list(csv.reader(file))
        assert rows[0][:4] == ["Domain", "Week to", "DR", "DR Δ"] and "Trust" in rows[0]  # kept in the file
        assert rows[1][0] == watched and rows[1][2].isdigit()  # "41", not "41.0"
        screenshot(page, "history-from-watch-link")


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


def test_the_app_log_has_no_traceback(sandbox_app: ServedApp) -> None:
    assert "Traceback" not in Path(sandbox_app.log).read_text(errors="replace")
