"""Link exchanges' candidate table in a real headless Chromium: it fits the page at 1440 and 1280 px,
why a partner fits reads in full, and a partner this site already proposed to is marked and warned
about before a second proposal."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from client import ApiClient
from sandbox import DEMO_KEY, SandboxServer
from sandbox.accounts import ACCOUNTS
from tests.browser.tabs import (
    TABLE,
    TIMEOUT_MS,
    BrowserProfile,
    assert_tables_fit,
    drawn_tables,
    go_to,
    go_to_each,
    screenshot,
    settled,
)

pytestmark = pytest.mark.browser

SITE = ACCOUNTS[DEMO_KEY].sites[0]


def _open(browser: BrowserProfile, url: str, width: int) -> Page:
    page = browser.new_page(viewport={"width": width, "height": 1000})
    go_to(page, url)
    drawn_tables(page)
    return page


def _table_cells(page: Page) -> list[str]:
    """The table's cells as text, row by row (the grid draws on a canvas and mirrors them in a table)."""
    return page.locator(f"{TABLE} td").all_inner_texts()


def test_the_table_fits_the_page_and_why_it_fits_reads_in_full(
    app_url: str, laptops: dict[int, Page], sandbox: SandboxServer
) -> None:
    with ApiClient(sandbox.base_url, DEMO_KEY) as client:
        first = client.exchange_candidates(SITE, limit=10).candidates[0]
    assert first.opportunity and first.opportunity.reason
    go_to_each(laptops.values(), f"{app_url}/exchanges?domain={SITE}")
    for width, page in laptops.items():
        assert_tables_fit(drawn_tables(page), f"the candidate table at {width}px")
        reason = page.locator('[data-testid="stMarkdownContainer"]', has_text=first.opportunity.reason).first
        reason.wait_for(timeout=TIMEOUT_MS)
        box = reason.bounding_box()
        assert box is not None and box["x"] + box["width"] <= width, f"why it fits runs off at {width}px"
        assert page.get_by_text(f"Why {first.domain} fits:").count() == 1


def test_a_partner_already_proposed_to_is_marked_and_warned_about(
    app_url: str, browser: BrowserProfile, sandbox: SandboxServer
) -> None:
    with ApiClient(sandbox.base_url, DEMO_KEY) as client:  # an earlier session proposed to the first one
        first = client.exchange_candidates(SITE, limit=10).candidates[0]
        client.approve_exchange(client.preview_exchange(SITE, first.slug or first.domain, "Hi", "Hello"))
    page = _open(browser, f"{app_url}/exchanges?domain={SITE}", 1440)
    try:
        assert "Already proposed" not in _table_cells(page), "nothing told this session yet"
        page.get_by_role("button", name="Preview (dry run: nothing is sent)").click()
        page.get_by_text("nothing has been sent").wait_for(timeout=TIMEOUT_MS)
        settled(page)
        page.get_by_role("button", name="Approve and send").click()
        page.get_by_text("Already proposed.").wait_for(timeout=TIMEOUT_MS)
        settled(page, linger_ms=500)
        with sandbox.state.growth() as growth:
            assert len(growth.outreach.sent) == 1, "the second proposal was refused, not sent"
        cells = _table_cells(page)
        assert cells[cells.index(first.domain) + 1] == "Already proposed"
        assert cells.count("Already proposed") == 1
        assert page.get_by_text("Proposal sent").count() == 0
        screenshot(page, "exchange-already-proposed")
    finally:
        page.close()
