"""Service text stays text in a real browser: no link to the service's hosts, no image fetched from them,
on the sidebar (the plan name), the Alerts page, the Domain overview and the Trust Map's charts.

The sandbox's "hostile" fault answers every read with Markdown in every string (a link, an image, bare and
``www.`` URLs, an e-mail address, and an HTML link, which a chart would draw) and a plan name in
``X-API-Tier`` of ``pro [Renew here](…) ![x](…)``; the app's history holds alerts about referring domains
named ``www.evil.example``. Chromium then shows no link (HTML or a chart's SVG) and no image pointing
there, and never asks that host for anything.
"""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page

from sandbox import DEMO_KEY, SandboxServer
from sandbox.accounts import ACCOUNTS
from sandbox.faults import ANY_OPERATION, HOSTILE_HOST
from store import HistoryStore
from tests.apptest.test_inert_text_pages import hostile_history
from tests.browser.tabs import TIMEOUT_MS, BrowserProfile, ServedApp, new_tab, screenshot, settled

pytestmark = pytest.mark.browser

SITE = ACCOUNTS[DEMO_KEY].sites[0]
OVERVIEW = f"overview?domain={SITE}"
#: Each page, with the text it shows only when the hostile text reached it (else nothing was proved).
PAGES: tuple[tuple[str, str], ...] = (
    (OVERVIEW, "hostile-bold"),  # the lookup's every string, with Markdown
    ("alerts", "spam score 85"),  # the alerts about referring domains named like links
    (f"trust-map?domain={SITE}", "hostile-bold"),  # charts of the referring domains' names
)
#: Links and images that lead away to the hostile host (or open mail or run script): the app's own links
#: to its pages may carry a hostile domain name in their query, which leads nowhere.
LEADS_AWAY = f"""els => els.filter(e => {{
  const to = e.getAttribute('href') || e.getAttribute('xlink:href') || e.getAttribute('src') || '';
  const url = new URL(to, location.href);
  const away = url.hostname.toLowerCase().endsWith('{HOSTILE_HOST}');
  return away || ['mailto:', 'javascript:'].includes(url.protocol);
}}).map(e => e.outerHTML.slice(0, 200))"""


@pytest.fixture(scope="module")
def hostile_alerts(own_served_app: ServedApp) -> ServedApp:
    """The app's history holds alerts about referring domains named like links."""
    with HistoryStore.open(f"sqlite:///{own_served_app.log.parent / 'history.sqlite3'}") as store:
        hostile_history(store)
    return own_served_app


@pytest.fixture
def hostile(
    hostile_alerts: ServedApp, sandbox: SandboxServer, browser: BrowserProfile
) -> Iterator[ServedApp]:
    """Every read answers hostile text. The sidebar shows the plan name of the latest answer, drawn before
    the page reads anything: one hostile answer first (the overview's lookup), so every page shows it."""
    sandbox.state.add_fault(ANY_OPERATION, "hostile")
    warm = new_tab(browser)
    try:
        warm.goto(f"{hostile_alerts.url}/{OVERVIEW}", wait_until="domcontentloaded")
        warm.get_by_text("hostile-bold").first.wait_for(timeout=TIMEOUT_MS)
        settled(warm)
    finally:
        warm.close()
    yield hostile_alerts


def _live_parts(page: Page) -> list[str]:
    """The links and images on the page (every frame) that point at the hostile host or are e-mail links."""
    found = []
    for frame in page.frames:
        found += frame.locator("a, img").evaluate_all(LEADS_AWAY)  # a chart's links are SVG <a xlink:href>
    return found


@pytest.mark.parametrize(("path", "reached"), PAGES, ids=["overview", "alerts", "trust-map"])
def test_service_text_shows_no_link_or_image(
    path: str, reached: str, hostile: ServedApp, browser: BrowserProfile
) -> None:
    page = new_tab(browser)
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    try:
        page.goto(f"{hostile.url}/{path}", wait_until="domcontentloaded")
        sidebar = page.locator('[data-testid="stSidebar"]')
        sidebar.get_by_text("Connection", exact=True).wait_for(timeout=TIMEOUT_MS)
        page.get_by_text(reached).first.wait_for(timeout=TIMEOUT_MS)
        settled(page, linger_ms=500)
        screenshot(page, f"inert-text-{path.split('?')[0]}")
        plan = sidebar.inner_text()
        live = _live_parts(page)
    finally:
        page.close()
    assert "Renew here" in plan, "the hostile plan name is not in the sidebar: nothing was proved"
    assert live == [], "service text became a link or image"
    fetched = [url for url in asked if (urlsplit(url).hostname or "").endswith(HOSTILE_HOST)]
    assert fetched == [], "the browser fetched from the host the service's text named"
