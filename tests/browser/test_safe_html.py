"""API-provided HTML is shown, never run: snippets full of scripts and javascript: links, in a real browser.

The sandbox's "hostile" fault answers with the normal resource but puts a ``<script>``, an ``onerror``
image and a javascript: link into every string (URLs become javascript: URLs). Each would set
``window.__pwned`` if the page ever let it run.
"""

from __future__ import annotations

import pytest

from sandbox import DEMO_KEY, SandboxServer
from sandbox.accounts import ACCOUNTS
from sandbox.faults import HOSTILE_SCRIPT
from tests.browser.tabs import BrowserProfile, new_tab, settled

pytestmark = pytest.mark.browser
#: Each case makes the service answer hostile markup and checks the page asked for it: an app of the
#: module's own, whose cache no other module filled.
OWN_APP = True

SITE = ACCOUNTS[DEMO_KEY].sites[0]
#: Pages that show API text and links: the snippets, and the overview's links and evidence.
HOSTILE_PAGES: tuple[tuple[str, str], ...] = (("badges", "snippets"), ("overview", "lookup"))


@pytest.mark.parametrize(("path", "operation"), HOSTILE_PAGES)
def test_hostile_markup_is_shown_not_run(
    path: str,
    operation: str,
    app_url: str,
    sandbox: SandboxServer,
    browser: BrowserProfile,
) -> None:
    sandbox.state.add_fault(operation, "hostile")
    page = new_tab(browser)
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    try:
        page.goto(f"{app_url}/{path}?domain={SITE}", wait_until="domcontentloaded")
        page.locator('[data-testid="stSidebar"]').get_by_text("Connection", exact=True).wait_for(
            timeout=30_000
        )
        settled(page, linger_ms=300)
        shown = page.inner_text('[data-testid="stMain"]')
        # Every frame (components, iframes) is checked, not only the top page.
        pwned = [f.evaluate("() => window.__pwned") for f in page.frames]
        js_links = page.locator('a[href^="javascript:" i]').count()
        for frame in page.frames[1:]:
            js_links += frame.locator('a[href^="javascript:" i]').count()
    finally:
        page.close()
    assert sandbox.state.total_requests() > 0
    # The hostile strings did reach the page, as text: so nothing ran because nothing was executable.
    assert "onerror" in shown, "no API text on the page: the check below would prove nothing"
    if operation == "snippets":
        assert HOSTILE_SCRIPT in shown, "the snippet's HTML is shown as text"
    assert pwned == [None] * len(pwned), "API-provided markup ran in the page"
    assert js_links == 0, "a javascript: link is clickable"
    assert not dialogs
