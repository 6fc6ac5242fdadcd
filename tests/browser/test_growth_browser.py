"""Growth and site management in a real headless Chromium: submit a site with a site check and read its
report on the Site check page; preview an exchange proposal, then approve it and see it sent once."""

from __future__ import annotations

import re

import pytest

from analysis.research.frames.site_check import verdict_style
from client import ApiClient
from sandbox import DEMO_KEY, SandboxServer
from sandbox.accounts import ACCOUNTS
from sandbox.data import is_listed
from tests.browser.tabs import TIMEOUT_MS, BrowserProfile, screenshot, settled

pytestmark = pytest.mark.browser

SITE = ACCOUNTS[DEMO_KEY].sites[0]


def _new_domain(sandbox: SandboxServer) -> str:
    """A listed domain nobody owns yet in this sandbox (found by its rules, not assumed)."""
    with sandbox.state.growth() as growth:
        taken = set(growth.sites.submissions)
    return next(
        d for d in (f"browser-submit-{i}.com" for i in range(1000)) if is_listed(d) and d not in taken
    )


def test_submit_with_a_site_check_then_read_the_report(
    app_url: str, browser: BrowserProfile, sandbox: SandboxServer
) -> None:
    domain = _new_domain(sandbox)
    with browser.app_tab(f"{app_url}/my-sites?sites_tab=Submit+a+site", height=1300) as page:
        page.get_by_label("Site URL").fill(f"https://{domain}/")
        page.get_by_label("Title (optional)").fill("Browser probe")
        page.get_by_role("button", name="Submit site").click()
        page.get_by_text(f"Submitted {domain} with a site check.").wait_for(timeout=TIMEOUT_MS)
        settled(page)
        with ApiClient(sandbox.base_url, DEMO_KEY) as client:
            assert domain in [s.domain for s in client.sites().sites]
        assert sandbox.state.count("POST", "/api/v1/sites") == 1
        page.get_by_role("link", name="Open the full site-check report").click()
        page.get_by_role("button", name=re.compile(r"Read the report")).click()
        with ApiClient(sandbox.base_url, DEMO_KEY) as client:
            verdict = client.site_check(domain).verdict
        page.get_by_text(verdict_style(verdict).label, exact=False).first.wait_for(timeout=TIMEOUT_MS)
        assert f"domain={domain}" in page.url
        settled(page)
        screenshot(page, "site-check-after-submit")


def test_preview_then_approve_an_exchange(
    app_url: str, browser: BrowserProfile, sandbox: SandboxServer
) -> None:
    with browser.app_tab(f"{app_url}/exchanges?domain={SITE}", height=1300) as page:
        page.get_by_role("button", name=re.compile(r"^Preview")).click()
        page.get_by_text("nothing has been sent").wait_for(timeout=TIMEOUT_MS)
        with sandbox.state.growth() as growth:
            assert growth.outreach.sent == []  # the preview was a dry run
        approve = page.get_by_role("button", name="Approve and send")
        approve.click()
        page.get_by_text(re.compile(r"Proposal sent to ")).wait_for(timeout=TIMEOUT_MS)
        settled(page)
        assert page.get_by_role("button", name="Approve and send").count() == 0
        with sandbox.state.growth() as growth:
            sent = list(growth.outreach.sent)
        assert len(sent) == 1 and sent[0].exchanges_for == SITE
        screenshot(page, "exchange-sent")
