"""The Reports page in real Chromium, the app in Sandbox mode (no API key) on a fresh history database
seeded with the demo's history: last month's report (by the sandbox's day) of the first demo site is
previewed in the page as it prints (its cover, its charts drawn as images), and Download PDF hands the
browser a real PDF whose text names the site and the month; with Streamlit's Dark theme (the computer
set to dark mode) the preview keeps its own white page and dark text. A screenshot goes to ``artifacts/``."""

from __future__ import annotations

import subprocess
from pathlib import Path

from sandbox import DEMO_KEY
from sandbox.clock import today
from sandbox.demo_history import demo_subjects
from store.reports.period import last_month
from tests.browser.contrast import READ_FIRST, drawn_in_frame, page_background
from tests.browser.tabs import BrowserProfile, ServedApp, screenshot, settled

MINE = sorted(demo_subjects(DEMO_KEY).own_sites)[0]
#: Seeding the demo history and starting the chart renderer happen on the first visit: slow on a busy machine.
FIRST_VISIT_MS = 240_000
PREVIEW = 'iframe[title="st.iframe"], [data-testid="stIFrame"]'


def test_the_reports_page_previews_the_report_and_downloads_it_as_a_pdf(
    browser: BrowserProfile, sandbox_app: ServedApp, tmp_path: Path
) -> None:
    page = browser.new_page(viewport={"width": 1440, "height": 1100}, color_scheme="light")
    page.goto(f"{sandbox_app.url}/reports", wait_until="domcontentloaded")
    frame = page.frame_locator(PREVIEW).first
    frame.locator("h1").first.wait_for(timeout=FIRST_VISIT_MS)
    settled(page, linger_ms=500)
    month = last_month(today()).words
    assert frame.locator("h1").first.inner_text() == MINE
    assert f"Monthly report · {month}" in frame.locator(".cover").inner_text()
    assert frame.locator('figure[data-chart="ratings"] svg').count() == 1
    screenshot(page, "reports-preview")
    with page.expect_download(timeout=FIRST_VISIT_MS) as download:
        page.get_by_role("button", name="Download PDF").click()
    saved = tmp_path / download.value.suggested_filename
    download.value.save_as(saved)
    assert saved.name == f"report-{MINE}-{last_month(today()).slug}.pdf"
    text = subprocess.run(["pdftotext", str(saved), "-"], capture_output=True, text=True, timeout=60).stdout
    assert MINE in text and month in text and "Keyword positions" in text
    page.close()


def test_the_preview_reads_as_on_paper_with_the_dark_theme(
    browser: BrowserProfile, sandbox_app: ServedApp
) -> None:
    page = browser.new_page(viewport={"width": 1440, "height": 1100}, color_scheme="dark")
    try:
        page.goto(f"{sandbox_app.url}/reports", wait_until="domcontentloaded")
        frame = page.frame_locator(PREVIEW).first
        frame.locator("h1").first.wait_for(timeout=FIRST_VISIT_MS)
        settled(page, linger_ms=500)
        assert page_background(page) < 0.1  # Streamlit's Dark theme
        for selector, least in READ_FIRST.items():
            drawn = drawn_in_frame(page, frame, PREVIEW, selector)
            assert drawn.contrast >= least, drawn
        screenshot(page, "reports-preview-dark")
    finally:
        page.close()
