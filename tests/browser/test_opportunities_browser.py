"""The Opportunities page in real Chromium, the app in Sandbox mode (no API key) on a fresh history
database: opened by its address on northwind-coffee.com, two keywords not tracked yet are chosen by
their boxes in the table, **Track for** the site says what it will do and, after one click, one line per
keyword says it was added; the Tracked keywords page then lists both. Screenshots go to ``artifacts/``
(when asked for), where the user guide's pictures come from."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page

from tests.browser.tabs import TABLE, BrowserProfile, ServedApp, screenshot, settled

pytestmark = pytest.mark.browser

SITE = "northwind-coffee.com"
#: Seeding the demo history happens on the first visit: slow on a busy machine.
FIRST_VISIT_MS = 240_000
WAIT_MS = 60_000
#: The grid's header and row heights (pixels) at Streamlit's defaults: where a row's box is drawn.
HEADER_PX = ROW_PX = 35
#: The Keyword column's cells of the first table that has one, in the grid's accessible copy (drawn rows
#: only), each with its row number.
KEYWORD_CELLS = """grids => {
  for (const grid of grids) {
    const headers = [...grid.querySelectorAll('th[role=columnheader]')];
    const header = headers.find(th => th.textContent === 'Keyword');
    if (!header) continue;
    const column = header.getAttribute('aria-colindex');
    return {rows: [...grid.querySelectorAll('tbody tr[role=row]')].map(row => [
      Number(row.getAttribute('aria-rowindex')) - 2,
      row.querySelector(`td[aria-colindex="${column}"]`)?.textContent ?? '',
    ])};
  }
  return null;
}"""


def _table_keywords(page: Page) -> list[tuple[int, str]]:
    """(row, keyword) of the page's first table with a Keyword column, as drawn."""
    page.locator(f"{TABLE} table[role=grid] tbody td").first.wait_for(state="attached", timeout=WAIT_MS)
    found = page.locator(TABLE).evaluate_all(KEYWORD_CELLS)
    assert found is not None, "no table with a Keyword column"
    return [(int(row), str(text)) for row, text in found["rows"]]


def _tracked_keywords(page: Page, url: str) -> set[str]:
    """The site's keywords as the Tracked keywords page's table lists them."""
    page.goto(f"{url}/tracked-keywords?domain={SITE}", wait_until="domcontentloaded")
    page.locator("h1", has_text="Tracked keywords").first.wait_for(timeout=FIRST_VISIT_MS)
    settled(page)
    page.get_by_text(re.compile(r"^\d+ of \d+ tracked keywords")).wait_for(timeout=WAIT_MS)
    return {keyword for _, keyword in _table_keywords(page)}


def _choose_row(page: Page, row: int) -> None:
    """Tick the box at the left of the table's ``row`` (from 0), as a person does."""
    box = page.locator(TABLE).first.bounding_box()  # the Opportunities page's first table is its list
    assert box is not None
    page.mouse.click(box["x"] + ROW_PX / 2, box["y"] + HEADER_PX + ROW_PX * row + ROW_PX / 2)
    settled(page)


def test_two_chosen_keywords_are_tracked_in_one_click_and_listed_on_tracked_keywords(
    browser: BrowserProfile, sandbox_app: ServedApp
) -> None:
    page = browser.new_page(viewport={"width": 1440, "height": 1500}, color_scheme="light")
    try:
        tracked_before = _tracked_keywords(page, sandbox_app.url)
        assert tracked_before, "the demo site tracks a few keywords already"

        page.goto(f"{sandbox_app.url}/opportunities?site={SITE}&target=3", wait_until="domcontentloaded")
        page.get_by_text(re.compile(r"^\d+ keywords? of \d+, the highest opportunity score first")).wait_for(
            timeout=FIRST_VISIT_MS
        )
        settled(page)
        fresh = [(row, keyword) for row, keyword in _table_keywords(page) if keyword not in tracked_before]
        assert len(fresh) >= 2, f"two keywords not tracked yet among {fresh}"
        chosen = fresh[:2]
        for row, _ in chosen:
            _choose_row(page, row)

        main = page.locator('[data-testid="stMain"]')
        plan = re.compile(rf"^{len(tracked_before)} of \d+ tracked; 2 chosen, 2 not tracked yet")
        main.get_by_text(plan).wait_for(timeout=WAIT_MS)
        screenshot(page, "opportunities")

        page.get_by_role("button", name=f"Track for {SITE}").click()
        for _, keyword in chosen:
            added = rf"^“{re.escape(keyword)}”:\W*added — now tracked for {re.escape(SITE)}\.$"
            main.get_by_text(re.compile(added)).wait_for(timeout=WAIT_MS)
        settled(page)
        assert "Traceback" not in main.inner_text()
        screenshot(page, "opportunities-tracked")

        tracked_after = _tracked_keywords(page, sandbox_app.url)
        assert {keyword for _, keyword in chosen} <= tracked_after, tracked_after
        assert tracked_after == tracked_before | {keyword for _, keyword in chosen}
    except Exception:
        screenshot(page, "opportunities-failure")
        raise
    finally:
        page.close()
