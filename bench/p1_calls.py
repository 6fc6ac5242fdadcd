"""P1: one API request per distinct (operation, arguments) over a scripted browsing session.

A real browser opens every page in PAGE_VISITS, types three domains on the Domain overview, toggles
compare mode, reruns, reloads the tab and switches pages back and forth; then a second browser
session with the same key repeats it all. The sandbox counts what it served per (method, path,
query): the target is calls per distinct request = 1.00 in the first session and 0 new calls in the
second.

    .venv/bin/python -m bench.p1_calls
"""

from __future__ import annotations

import sys
from typing import Any

from bench.harness import Figures, chromium, wait_until_idle
from rigs.page_visits import PAGE_VISITS
from rigs.processes import app_process, sandbox_process

DOMAINS = ("stripe.com", "hubspot.com", "example.com")


def _browse(page: Any, base: str) -> None:
    """The scripted session: what a marketer does in a few minutes of looking around."""
    page.goto(f"{base}/")  # the Domain overview is the default page, served at the root
    wait_until_idle(page)
    field = page.get_by_role("textbox", name="Domain", exact=True)
    for domain in DOMAINS:
        field.fill(domain)
        field.press("Enter")
        page.locator('[data-testid="stMetric"]').first.wait_for(timeout=30_000)
        wait_until_idle(page)
    toggle = page.get_by_text("Compare several domains")
    toggle.click()
    wait_until_idle(page)
    area = page.get_by_role("textbox", name="Domains to compare")
    area.fill("\n".join(DOMAINS))
    area.press("Control+Enter")
    page.locator('[data-testid="stDataFrame"]').first.wait_for(timeout=30_000)
    wait_until_idle(page)
    toggle.click()  # back to one domain
    wait_until_idle(page)
    page.keyboard.press("r")  # Streamlit's rerun shortcut
    wait_until_idle(page)
    page.reload()
    wait_until_idle(page)
    for visit in PAGE_VISITS:  # every page by its URL (a new script run per page, like a bookmark)
        page.goto(visit.url(base))
        page.locator(visit.ready).first.wait_for(timeout=60_000)
        wait_until_idle(page)
    _change_trust_map_filters(page, base)
    nav = page.locator('[data-testid="stSidebarNav"]')
    for _ in range(2):  # back and forth through the sidebar links: page switches in one session
        for visit in (v for v in PAGE_VISITS if v.title):
            nav.get_by_role("link", name=visit.title, exact=True).click()
            page.wait_for_url(lambda url, path=visit.path: url.split("?")[0].rstrip("/").endswith(path))
            wait_until_idle(page)
            if not page.locator(visit.ready).count():
                # A sidebar link keeps only the query params of widgets still on screen.
                print(f"  switched to {visit.name}: its main element is not there")


def _change_trust_map_filters(page: Any, base: str) -> None:
    """Filters re-shape a loaded map: moving the DR slider and picking a link type ask nothing new."""
    page.goto(f"{base}/trust-map?domain=stripe.com")
    page.locator(".js-plotly-plot .main-svg").first.wait_for(timeout=60_000)
    wait_until_idle(page)
    thumb = page.locator('[data-testid="stSlider"] input[type="range"][aria-label="Minimum DR"]')
    thumb.focus()
    for _ in range(3):
        page.keyboard.press("PageUp")
        wait_until_idle(page)
    page.get_by_role("combobox", name="Link type", exact=True).click()
    page.get_by_role("option").first.click()
    page.keyboard.press("Escape")
    wait_until_idle(page)
    page.locator(".js-plotly-plot .main-svg").first.wait_for(timeout=30_000)
    if "map_min_dr=" not in page.url or "map_link_type=" not in page.url:  # bound to the URL when changed
        raise RuntimeError(f"the Trust Map filters did not change: {page.url}")


def main() -> int:
    figures = Figures()
    with sandbox_process(latency_ms=20) as sandbox, app_process(api_base=sandbox.base_url) as app:
        with chromium() as browser:
            first = browser.new_context(viewport={"width": 1400, "height": 1000})
            _browse(first.new_page(), app.url)
            counts = sandbox.counts()
            for key, n in sorted(counts.items()):
                print(f"  {n} × {key}")
            first.close()
            calls, distinct = sum(counts.values()), len(counts)
            figures.show("p1_distinct_requests", distinct, "requests")
            figures.show(
                "p1_calls_per_distinct_request", calls / distinct, "calls", baseline=1.0, base="ideal"
            )
            repeated = {k: v for k, v in counts.items() if v > 1}
            for (method, path, query), n in sorted(repeated.items()):
                print(f"  asked {n} times: {method} {path}{'?' + query if query else ''}")
            figures.target(
                "P1 calls per distinct request = 1.00", not repeated, f"{calls} calls, {distinct} distinct"
            )

            second = browser.new_context(viewport={"width": 1400, "height": 1000})
            _browse(second.new_page(), app.url)
            second.close()
            extra = sandbox.total() - calls
            figures.show("p1_second_session_new_calls", extra, "calls")
            figures.target("P1 second session with the same key spends 0", extra == 0, f"{extra} new calls")
    return figures.exit_code()


if __name__ == "__main__":
    sys.exit(main())
