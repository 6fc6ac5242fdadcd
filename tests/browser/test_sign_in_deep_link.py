"""Signing in from a deep link lands on that link, in real Chromium against a real OpenID Connect provider.

A person opens a shared address such as ``/history?history_domain=stripe.com`` while signed out, gets the
sign-in page, signs in at the provider (``oidc-provider-mock``, tests/browser/oidc.py) and lands on that
address with its page and query, not on the start page Streamlit's ``st.login`` returns to. Only once:
the start page opened afterwards is the start page, and a deep link opened but left for the start page
before signing in is forgotten. One app, provider and browser for the module.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from playwright.sync_api import Page, expect

from rigs.processes import app_process
from sandbox import DEMO_KEY, SandboxServer
from tests.browser.oidc import SignInSecrets, Someone, loopback_only, mock_provider, sign_in, write_secrets
from tests.browser.tabs import TIMEOUT_MS, BrowserProfile, go_to, settled

pytestmark = pytest.mark.browser

VIEWER = Someone("vic@team.example", "Vic Viewer")
LISTS = {"viewers": ["@team.example"]}
HISTORY_LINK = "history?history_domain=stripe.com"
TRUST_MAP_LINK = "trust-map?domain=stripe.com"


@dataclass(frozen=True)
class SignInApp:
    url: str
    browser: BrowserProfile


@pytest.fixture(scope="module")
def signin_app(
    sandbox: SandboxServer, browser: BrowserProfile, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[SignInApp]:
    folder = tmp_path_factory.mktemp("deep-link")
    with mock_provider([VIEWER]) as provider:
        secrets_file = write_secrets(folder / "secrets.toml", provider, SignInSecrets.fresh(), LISTS)
        with app_process(
            api_base=sandbox.base_url,
            api_key=DEMO_KEY,
            extra=["--secrets.files", str(secrets_file)],
            log_path=folder / "streamlit.log",
            database_url=f"sqlite:///{folder / 'history.sqlite3'}",
        ) as app:
            yield SignInApp(app.url, browser)


@pytest.fixture
def page(signin_app: SignInApp) -> Iterator[Page]:
    """A tab in a browser context of its own: signed out, loopback only."""
    context = signin_app.browser.new_context(viewport={"width": 1440, "height": 1100})
    loopback_only(context)
    try:
        yield context.new_page()
    finally:
        context.close()


def _on(page: Page, url: str, heading: str) -> None:
    """``page`` shows ``heading`` at exactly ``url``, its run ended."""
    expect(page).to_have_url(url, timeout=TIMEOUT_MS)
    expect(page.get_by_role("heading", name=heading, exact=True)).to_be_visible(timeout=TIMEOUT_MS)
    settled(page)
    assert page.url == url


def _sign_out(page: Page, app_url: str) -> None:
    page.get_by_role("button", name="Sign out").click()
    page.get_by_role("button", name="End session").click(timeout=TIMEOUT_MS)
    page.wait_for_url(f"{app_url}/**", timeout=TIMEOUT_MS)
    expect(page.get_by_role("button", name="Sign in")).to_be_visible(timeout=TIMEOUT_MS)


@pytest.mark.parametrize(
    ("link", "heading", "domain_field"),
    [(HISTORY_LINK, "History", None), (TRUST_MAP_LINK, "Trust Map", "stripe.com")],
    ids=["history", "trust-map"],
)
def test_signing_in_from_a_deep_link_lands_on_that_link(
    signin_app: SignInApp, page: Page, link: str, heading: str, domain_field: str | None
) -> None:
    url = signin_app.url
    sign_in(page, url, VIEWER, path=link)
    _on(page, f"{url}/{link}", heading)
    if domain_field is not None:
        field = page.locator('[data-stale="false"]').get_by_label("Domain", exact=True)
        expect(field).to_have_value(domain_field, timeout=TIMEOUT_MS)
    page.go_back(wait_until="commit")  # back into the sign-in round trip, not to a start page never asked for
    assert page.url != f"{url}/"


def test_the_deep_link_is_used_once_and_a_deep_link_left_is_forgotten(
    signin_app: SignInApp, page: Page
) -> None:
    url = signin_app.url
    sign_in(page, url, VIEWER, path=HISTORY_LINK)
    _on(page, f"{url}/{HISTORY_LINK}", "History")
    go_to(page, f"{url}/")  # signed in already: the start page is the start page
    _on(page, f"{url}/", "Domain overview")

    _sign_out(page, url)
    go_to(page, f"{url}/{TRUST_MAP_LINK}")  # opened, but not signed in from there
    expect(page.get_by_role("button", name="Sign in")).to_be_visible(timeout=TIMEOUT_MS)
    sign_in(page, url, VIEWER)  # from the start page
    _on(page, f"{url}/", "Domain overview")
