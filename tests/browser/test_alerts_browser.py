"""The Alerts page in real Chromium, the app in Sandbox mode (no API key) on a fresh history database:
the first visit seeds the demo history and evaluates its last week, the page lists the demo's alerts,
the sidebar counts them, acknowledging one lowers that count at once, their table fits a 1280 px page,
and an alert's chart link opens the History page on its subject. Screenshots go to ``artifacts/``."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from playwright.sync_api import Page, expect

from tests.browser.tabs import (
    TIMEOUT_MS,
    BrowserProfile,
    ServedApp,
    as_shown,
    assert_tables_fit,
    drawn_tables,
    screenshot,
    settled,
)

#: Seeding the demo history happens on the first visit; on a busy machine it takes a while.
SEED_TIMEOUT_MS = 180_000
CARD = '[class*="st-key-alert_card_"]'
SIDEBAR_COUNT = '[data-testid="stSidebar"] a:has-text("open alert")'


def _open_count(page: Page) -> int:
    text = page.locator(SIDEBAR_COUNT).first.text_content(timeout=TIMEOUT_MS) or ""
    found = re.search(r"(\d+) open alert", text)
    assert found, text
    return int(found.group(1))


def test_the_demo_alerts_are_listed_and_acknowledging_one_lowers_the_open_count(
    browser: BrowserProfile, sandbox_app: ServedApp
) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 1000}, color_scheme="light")
    page.goto(f"{sandbox_app.url}/alerts", wait_until="domcontentloaded")
    page.locator(CARD).first.wait_for(timeout=SEED_TIMEOUT_MS)  # seeded, evaluated, listed
    settled(page)
    assert page.get_by_text("Demo alerts").first.is_visible()
    listed = re.search(r"of (\d+) open alerts?", page.locator("body").inner_text())
    assert listed, "no count of open alerts on the page"
    total = int(listed.group(1))
    assert total >= 2, "the demo's week (on the pinned sandbox day) has several alerts"
    assert page.locator(CARD).count() == min(total, 20)

    assert _open_count(page) == total  # the sidebar counts what the seeding just found
    screenshot(page, "alerts-demo", full_page=False)

    first = page.locator(CARD).first
    title = (first.locator("strong").first.text_content() or "").strip()
    first.get_by_role("button", name="Acknowledge").click()
    page.get_by_text("Acknowledged: it is on the Acknowledged tab now.").wait_for(timeout=TIMEOUT_MS)
    settled(page)
    assert _open_count(page) == total - 1
    assert page.locator(CARD).filter(has_text=title).count() == 0 or total > 20  # gone from the list

    page.get_by_text("open alerts as a table").click()  # the same alerts as a table, with its CSV
    settled(page)
    assert_tables_fit(drawn_tables(page), "the open alerts' table at 1280 px")

    chart = page.locator(CARD).first.get_by_role("link", name="Chart")
    query = parse_qs(urlsplit(chart.get_attribute("href") or "").query)
    subject = (query.get("history_domain") or query.get("history_keyword") or [""])[0]
    assert subject and query.get("history_tab")
    chart.click()
    page.wait_for_url(re.compile(r"/history\?"), timeout=TIMEOUT_MS)
    page.get_by_role("heading", name="History").first.wait_for(timeout=TIMEOUT_MS)
    settled(page)
    selected = page.get_by_role("tab", selected=True).first.text_content(timeout=TIMEOUT_MS) or ""
    assert selected.strip() == query["history_tab"][0]
    # The tab's chart and table draw after the tabs themselves: wait for the subject, not a fixed time.
    expect(page.locator("section.main, [data-testid='stMain']").first).to_contain_text(
        as_shown(subject), timeout=TIMEOUT_MS
    )
    screenshot(page, "alerts-chart-link")
    page.close()


def test_the_app_log_has_no_traceback(sandbox_app: ServedApp) -> None:
    assert "Traceback" not in Path(sandbox_app.log).read_text(errors="replace")
