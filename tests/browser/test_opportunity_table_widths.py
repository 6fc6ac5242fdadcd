"""The Opportunities page's list and the Market page's When winnable table at common laptop widths, in
headless Chromium, the app in Sandbox mode on the demo history (``sandbox_app``), as in
``test_table_widths``: every column inside the page at 1440 and 1280 px, since a column scrolled off to
the right is one nobody reads. What the narrow tables leave to the CSV or to the chosen row must still be
on the page: the score's two parts beside it, and the chosen keyword's When winnable answers in full.
Screenshots go to ``artifacts/`` (when asked for), where the user guide's pictures come from."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page

from tests.browser.tabs import (
    TABLE,
    TIMEOUT_MS,
    ServedApp,
    as_shown,
    assert_tables_fit,
    drawn_tables,
    go_to_each,
    screenshot,
    settled,
)

pytestmark = pytest.mark.browser

SITE = "northwind-coffee.com"
#: Seeding the demo history happens on the first visit: slow on a busy machine.
FIRST_VISIT_MS = 240_000
OPPORTUNITIES = f"opportunities?site={SITE}&target=3"
WINNABLE = "market?market_tab=When+winnable"
#: The headers the Opportunities list must show: what a marketer ranks and chooses by, the score and
#: its two parts (clicks gained ÷ DR points lacking).
MUST_SHOW = (
    "Keyword",
    "Position",
    "Volume",
    "Clicks gained",
    "DR lacking",
    "Score",
    "Winnable",
)
#: How the chosen keyword's two answers begin under the When winnable table (in full, with the band).
#: The grid's header and row heights (pixels) at Streamlit's defaults: where a row's box is drawn.
HEADER_PX = ROW_PX = 35
#: A keyword of the demo history whose answer against the median states a month (the user guide's picture).
CHOSEN = "cookie free analytics"
ANSWERS = ("Reaching the top 10's median DR:", "Reaching its lowest DR (first foothold):")


def _seeded(page: Page, url: str) -> None:
    """The demo history seeded (on the first visit to the Opportunities page) and its list drawn."""
    page.goto(f"{url}/{OPPORTUNITIES}", wait_until="domcontentloaded")
    page.get_by_text(re.compile(r"^\d+ keywords? of \d+, the highest opportunity score first")).wait_for(
        timeout=FIRST_VISIT_MS
    )


def _choose_first_row(page: Page) -> None:
    """Tick the box at the left of the list's first row, as a person does."""
    box = page.locator(TABLE).first.bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + ROW_PX / 2, box["y"] + HEADER_PX + ROW_PX / 2)
    settled(page)


def test_the_opportunities_list_shows_all_its_columns_and_the_score_parts_at_laptop_widths(
    sandbox_app: ServedApp, laptops: dict[int, Page]
) -> None:
    _seeded(laptops[max(laptops)], sandbox_app.url)
    go_to_each(laptops.values(), f"{sandbox_app.url}/{OPPORTUNITIES}")
    for width, page in laptops.items():
        page.get_by_text(re.compile(r"the highest opportunity score first")).wait_for(timeout=TIMEOUT_MS)
        tables = drawn_tables(page)

        assert_tables_fit(tables, f"Opportunities at {width}px")
        headers = [header for table in tables for header in table["drawn"]]
        assert all(name in headers for name in MUST_SHOW), headers
        _choose_first_row(page)
        parts = page.locator('[data-testid="stMarkdownContainer"]', has_text="— Opportunity score ").first
        parts.wait_for(timeout=TIMEOUT_MS)
        box = parts.bounding_box()
        assert box is not None and box["x"] + box["width"] <= width, "the score's parts run off the page"
        assert re.search(r"monthly searches × .* ÷ [\d.]+ DR points? lacking", parts.inner_text())
        screenshot(page, f"opportunities-table-{width}")


def test_when_winnable_shows_all_its_columns_and_the_chosen_answers_in_full_at_laptop_widths(
    sandbox_app: ServedApp, laptops: dict[int, Page]
) -> None:
    _seeded(laptops[max(laptops)], sandbox_app.url)
    go_to_each(laptops.values(), f"{sandbox_app.url}/{WINNABLE}")
    for width, page in laptops.items():
        page.get_by_text(ANSWERS[0]).first.wait_for(timeout=TIMEOUT_MS)
        tables = drawn_tables(page)

        assert_tables_fit(tables, f"When winnable at {width}px")
        headers = [header for table in tables for header in table["drawn"]]
        assert "Median DR reached" in headers and "Lowest DR reached" in headers, headers
        for answer in ANSWERS:
            shown = page.locator('[data-testid="stMarkdownContainer"]', has_text=as_shown(answer)).first
            box = shown.bounding_box()
            assert box is not None and box["x"] + box["width"] <= width, f"{answer!r} runs off the page"
            sentence = shown.inner_text().split(":", 1)[1].strip()
            assert len(sentence) > len("In about"), f"{answer!r} says nothing: {shown.inner_text()!r}"
        screenshot(page, f"market-winnable-{width}")
    page = laptops[max(laptops)]  # another keyword chosen: its answers in full, with their months
    page.get_by_label("Keyword", exact=True).click()
    page.get_by_role("option", name=re.compile(f"^{CHOSEN}")).click()
    settled(page)
    page.get_by_text(
        re.compile(r"median DR: In about \d+ months? \(between \d+ and \d+\) — around ")
    ).first.wait_for(timeout=TIMEOUT_MS)
    screenshot(page, "market-winnable")
