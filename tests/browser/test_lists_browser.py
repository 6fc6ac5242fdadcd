"""Pasted lists of domains as a person sees them: compare mode and the bulk DR checker, in headless Chromium.

An entry a person typed is one entry, whatever it holds: ``not a domain!!`` is skipped once, with its
whole text (never as ``not``, ``a`` and ``domain!!``), and in compare mode it keeps its row. Every
pasted line is accounted for (checked, merged as a duplicate, or skipped), and a run's figures agree
with each other and with the quota the service counted.

Tables are read through the grid's accessible cells (the canvas draws them; the DOM mirrors the rows
on screen). Each test uses domains of its own: the module's own app keeps its cache for the whole module.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Locator, Page

from sandbox import DEMO_KEY, SandboxServer
from tests.browser.tabs import TIMEOUT_MS, BrowserProfile, go_to, new_tab, screenshot, settled

pytestmark = pytest.mark.browser

INVALID = "not a domain!!"
#: What each test's domains cost is counted: an app of the module's own, whose cache no other module filled.
OWN_APP = True


@pytest.fixture
def page(browser: BrowserProfile) -> Iterator[Page]:
    tab = new_tab(browser, height=1600)
    try:
        yield tab
    finally:
        tab.close()


def _paste(page: Page, label: str, text: str) -> None:
    area = page.get_by_role("textbox", name=label, exact=True)
    area.fill(text)
    area.press("Control+Enter")
    settled(page)


def _grid(table: Locator) -> list[dict[str, str]]:
    """The rows of one ``st.dataframe`` on screen, each as column title → cell text."""
    table.locator("td[role=gridcell]").first.wait_for(state="attached", timeout=TIMEOUT_MS)
    headers = [h.strip() for h in table.locator("th[role=columnheader]").all_text_contents()]
    rows = []
    for row in table.locator("tbody tr[role=row]").all():
        cells = [c.strip() for c in row.locator("td[role=gridcell]").all_text_contents()]
        rows.append(dict(zip(headers, cells, strict=False)))
    return rows


def _metric(page: Page, label_start: str) -> str:
    """The value of the metric card whose label starts with ``label_start``."""
    card = page.locator('[data-testid="stMetric"]').filter(
        has=page.locator('[data-testid="stMetricLabel"]', has_text=re.compile(f"^{re.escape(label_start)}"))
    )
    return card.first.locator('[data-testid="stMetricValue"]').inner_text().strip()


def _callouts(page: Page) -> str:
    return "\n".join(page.locator('[data-testid="stAlert"]').all_inner_texts())


def test_compare_keeps_an_invalid_entry_as_one_row_with_its_reason(app_url: str, page: Page) -> None:
    go_to(page, f"{app_url}/?compare=true")
    _paste(page, "Domains to compare", f"stripe.com\n{INVALID}\nexample.com")
    rows = _grid(page.locator('[data-testid="stDataFrame"]').first)
    assert [r["Domain"] for r in rows] == ["stripe.com", INVALID, "example.com"]  # in the order typed
    invalid = rows[1]
    assert invalid["Problem"], "the invalid entry's row says nothing"
    assert not rows[0]["Problem"] and not rows[2]["Problem"]
    # Reported once, as typed: never word by word.
    assert "“not”" not in _callouts(page) and "“domain!!”" not in _callouts(page)
    screenshot(page, "compare_invalid_row")


def test_bulk_skips_an_invalid_entry_once_with_its_whole_text(app_url: str, page: Page) -> None:
    go_to(page, f"{app_url}/bulk-dr")
    _paste(page, "Domains", f"invalidbulk1.com\n{INVALID}\ninvalidbulk2.com")
    skipped = page.locator('[data-testid="stExpander"]').filter(has_text="skipped")
    rows = _grid(skipped.locator('[data-testid="stDataFrame"]').first)
    assert [r["Entry"] for r in rows] == [INVALID]
    assert rows[0]["Why it was skipped"]
    assert _metric(page, "Domains to check") == "2"


#: 30 lines: 20 sites, 4 other spellings of four of them, 6 entries that are no domain at all.
SITES = [f"dupbulk{i}.com" for i in range(20)]
DUPLICATES = {
    "https://www.dupbulk0.com/pricing": "dupbulk0.com",
    "DUPBULK1.COM": "dupbulk1.com",
    "blog.dupbulk2.com": "dupbulk2.com",
    "dupbulk3.com": "dupbulk3.com",
}
NOT_DOMAINS = ["localhost", INVALID, "co.uk", "ftp://dupbulk5.com", "foo..com", "just words here"]


def test_bulk_says_how_many_duplicates_were_merged_and_which(app_url: str, page: Page) -> None:
    lines = SITES[:10] + list(DUPLICATES)[:2] + NOT_DOMAINS[:3] + SITES[10:] + list(DUPLICATES)[2:]
    lines += NOT_DOMAINS[3:]
    assert len(lines) == 30
    go_to(page, f"{app_url}/bulk-dr")
    _paste(page, "Domains", "\n".join(lines))
    assert _metric(page, "Domains to check") == "20"
    text = page.locator('[data-testid="stMain"]').inner_text()
    assert "30 lines" in text and "4 duplicates merged" in text and "6 skipped" in text
    merged = page.locator('[data-testid="stExpander"]').filter(has_text="duplicates merged")
    merged.locator("summary").first.click()
    settled(page)
    rows = _grid(merged.locator('[data-testid="stDataFrame"]').first)
    assert {r["Entry"]: r["Same site as"] for r in rows} == DUPLICATES
    skipped = page.locator('[data-testid="stExpander"]').filter(has_text="skipped")
    skipped.locator("summary").first.click()  # more than five: folded until asked for
    settled(page)
    assert [r["Entry"] for r in _grid(skipped.locator('[data-testid="stDataFrame"]').first)] == NOT_DOMAINS
    screenshot(page, "bulk_merged_and_skipped")


def test_bulk_figures_agree_before_and_after_a_run(app_url: str, page: Page, sandbox: SandboxServer) -> None:
    quota = sandbox.config.quota
    domains = [f"figbulk{i}.com" for i in range(8)]
    go_to(page, f"{app_url}/bulk-dr")
    # One domain checked first, so the cache answers it in the run below.
    _paste(page, "Domains", domains[0])
    page.get_by_role("button", name=re.compile(r"^Check 1 domain")).click()
    page.get_by_text("Rated 1 of 1 domains", exact=False).wait_for(timeout=TIMEOUT_MS)
    settled(page)
    assert quota - sandbox.state.quota_remaining(DEMO_KEY, quota) == 1

    _paste(page, "Domains", "\n".join(domains))
    assert _metric(page, "Domains to check") == "8"
    assert _metric(page, "Quota units") == "7" and _metric(page, "Answered from the cache") == "1"
    page.get_by_role("button", name="Check 8 domains (spends 7 quota units)").click()
    page.get_by_text("Rated 8 of 8 domains", exact=False).wait_for(timeout=TIMEOUT_MS)
    settled(page)
    assert quota - sandbox.state.quota_remaining(DEMO_KEY, quota) == 1 + 7  # what the service counted
    # After the run the page tells one story: the run's figures, everywhere.
    assert "spent 7 quota units; 1 came from the cache" in _callouts(page)
    assert _metric(page, "Quota units") == "7" and _metric(page, "Answered from the cache") == "1"
    assert _metric(page, "Domains checked") == "8"
    # And what a second run would cost is on its button.
    assert page.get_by_role("button", name=re.compile(r"again \(all cached: free\)")).is_visible()
