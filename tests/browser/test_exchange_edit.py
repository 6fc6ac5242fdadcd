"""Link exchanges in a real headless Chromium: what is on screen when Approve is pressed is what is judged.

A person previews a proposal, edits the message, then presses Approve: nothing may be sent (not the
previewed text, not the edit), and the page must say the text changed since the preview instead of
"Proposal sent". Previewing the edit, then approving, sends the edited text once.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page

from sandbox import DEMO_KEY, SandboxServer
from sandbox.accounts import ACCOUNTS
from tests.browser.tabs import TIMEOUT_MS, BrowserProfile, screenshot, settled

pytestmark = pytest.mark.browser

SITE = ACCOUNTS[DEMO_KEY].sites[0]
PREVIEW = re.compile(r"^Preview")
EDITED = "Hi there,\n\nThis is my own message, written after the preview.\n\nBest regards"


def _sent(sandbox: SandboxServer) -> list:
    with sandbox.state.growth() as growth:
        return list(growth.outreach.sent)


def _proposal_posts(sandbox: SandboxServer) -> int:
    """Every POST of a proposal the sandbox received: previews (dry runs) and sends alike."""
    return sandbox.state.count("POST", "/api/v1/find")


def _preview(page: Page) -> None:
    page.get_by_role("button", name=PREVIEW).click()
    page.get_by_text("nothing has been sent").wait_for(timeout=TIMEOUT_MS)
    settled(page)


def test_approve_after_an_edit_sends_nothing_and_asks_for_a_new_preview(
    app_url: str, browser: BrowserProfile, sandbox: SandboxServer
) -> None:
    with browser.app_tab(f"{app_url}/exchanges?domain={SITE}", height=1500) as page:
        _preview(page)
        assert _proposal_posts(sandbox) == 1 and _sent(sandbox) == []  # the preview was a dry run

        page.get_by_label("Message").fill(EDITED)
        page.get_by_role("button", name="Approve and send").click()
        settled(page, linger_ms=500)

        assert _sent(sandbox) == [], "an approval of edited, unpreviewed text sent a proposal"
        assert _proposal_posts(sandbox) == 1, "the approval of edited text reached the service"
        assert page.get_by_text("Proposal sent").count() == 0
        page.get_by_text(re.compile(r"changed since the preview")).first.wait_for(timeout=TIMEOUT_MS)
        assert page.get_by_label("Message").input_value() == EDITED, "the edit is kept"
        screenshot(page, "exchange-edited-after-preview")

        _preview(page)  # the edit, previewed: now it is what Approve sends
        page.get_by_role("button", name="Approve and send").click()
        page.get_by_text(re.compile(r"Proposal sent to ")).wait_for(timeout=TIMEOUT_MS)
        settled(page)
        sent = _sent(sandbox)
        assert len(sent) == 1 and sent[0].message == EDITED.strip()
