"""The API key never leaves the server: not in a websocket message, the page HTML, a URL, the log or a CSV.

``secret_sightings`` is the one search every secret-hygiene check uses (here for the API key without
sign-in; test_sign_in.py for the key, the cookie secret and the OIDC client secret with sign-in on, and
the audit log): it names every place a secret turned up.

The app runs in Live mode with the server's key (``vdr_demo``, the key the sandbox accepts); a browser
visits every page of the catalogue with input that makes it fetch, and everything the browser received
is searched for the key. A second key typed into the sidebar's session field goes to the server once;
nothing the server sends afterwards may contain it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from urllib.parse import quote, urlencode

import pytest

from components.core.nav import pages
from sandbox import DEMO_KEY
from tests.apptest.test_fault_matrix import CATALOGUE
from tests.browser.tabs import BrowserProfile, ServedApp, go_to, new_tab, settled

pytestmark = pytest.mark.browser

SESSION_MARKER = "vdr_sessionmarker_7f3a9c"


def _as_bytes(payload: str | bytes) -> bytes:
    return payload.encode() if isinstance(payload, str) else payload


def secret_sightings(secrets: Mapping[str, str], **places: Iterable[str | bytes]) -> list[str]:
    """Each "<secret> in <place> #<n>": every secret found in a place's items, as written or URL-encoded."""
    found = []
    for place, items in places.items():
        for number, item in enumerate(items):
            data = _as_bytes(item)
            for name, secret in secrets.items():
                if any(form.encode() in data for form in {secret, quote(secret, safe="")}):
                    found.append(f"{name} in {place} #{number}")
    return found


def _address(file: str) -> str:
    """The page's path in the address bar (the start page is the app's root: ``/overview`` would open
    a "Page not found" dialog over it)."""
    page = next(entry for entry in pages.ALL if entry.file == file)
    return "" if page.default else page.url_path


def test_the_key_never_reaches_the_browser_the_log_or_a_csv(
    served_app: ServedApp,
    browser: BrowserProfile,
    tmp_path: Path,
) -> None:
    url, log = served_app.url, served_app.log
    received: list[bytes] = []
    page = new_tab(browser)  # the profile accepts downloads
    page.on("websocket", lambda ws: ws.on("framereceived", lambda p: received.append(_as_bytes(p))))
    visited: list[str] = []
    html: list[str] = []
    try:
        for case in CATALOGUE:
            query = urlencode({**case.params, **case.typed})
            go_to(page, f"{url}/{_address(case.file)}?{query}")  # in the tab's session, once on the app
            page.locator('[data-testid="stSidebar"]').get_by_text("Connection", exact=True).wait_for(
                timeout=30_000
            )
            settled(page, linger_ms=300)
            if case.click is not None:
                button = page.get_by_role("button", name="spends")
                if button.count():
                    button.first.click()
                    settled(page, linger_ms=300)
            visited.append(page.url)
            html.append(page.content())

        go_to(page, f"{url}/my-sites")
        download_button = page.get_by_role("button", name="Download CSV").first
        download_button.wait_for(timeout=30_000)
        with page.expect_download(timeout=30_000) as download:
            download_button.click()
        csv_path = tmp_path / "export.csv"
        download.value.save_as(csv_path)
        csv_text = csv_path.read_text()

        frames_before = len(received)
        field = page.locator('[data-testid="stSidebar"]').get_by_label("API key for this session", exact=True)
        field.fill(SESSION_MARKER)
        field.press("Enter")
        settled(page, linger_ms=300)
        # Another page in the same session: it is drawn again with the typed key in place.
        page.locator('[data-testid="stSidebar"]').get_by_role("link", name="Domain overview").click()
        settled(page, linger_ms=300)
        after_marker = received[frames_before:]
        # The password field itself holds what was typed (as any password field does); what is
        # drawn as text on the page must not.
        text_after = page.inner_text("body")
    finally:
        page.close()

    assert len(visited) == len(CATALOGUE) and received, "the pages were not visited"
    assert "example.com" in csv_text, "the CSV export holds the key's sites"
    log_text = log.read_text(errors="replace")
    # The app's history database, audit log included (the served app keeps it beside its log).
    database = [f.read_bytes() for f in log.parent.glob("history.sqlite3*")]  # with its WAL file
    places = {"websocket": received, "html": html, "urls": visited, "csv": [csv_text], "log": [log_text]}
    places["history database"] = database
    assert not secret_sightings({"API key": DEMO_KEY}, **places)
    assert after_marker, "nothing was received after the session key was typed"
    assert not [f for f in after_marker if SESSION_MARKER.encode() in f], "the session key was sent back"
    assert SESSION_MARKER not in text_after
    assert SESSION_MARKER not in log_text
