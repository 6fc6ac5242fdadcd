"""A real OpenID Connect provider on 127.0.0.1 for the sign-in tests, and the secrets file that points
the app at it.

``oidc-provider-mock`` runs in its own process (``python -m oidc_provider_mock``, the team guide's command
for trying sign-in by hand) on a free loopback port. It accepts any client id and secret, and its own
authorization page lets a person sign in as any subject; the people of a test are given to it up front
with their e-mail address, whether the provider has verified it (``email_verified``) and name, the claims
the app reads. A subject typed on that page that was not given up front gets only an ``email`` claim.

``write_secrets`` writes the ``[auth]`` and ``[access]`` sections a deployment would have, with a fresh
cookie secret and client secret per run (``SignInSecrets``), so a test can look for both wherever a
secret must never appear. ``sign_in`` goes through the provider's page the way a person does.
"""

from __future__ import annotations

import contextlib
import json
import secrets
import subprocess
import sys
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from playwright.sync_api import BrowserContext, Page, Route

from rigs.processes import ROOT, free_port, stop_process, wait_until_ready
from tests.browser.tabs import TIMEOUT_MS, settled

#: The OpenID Connect discovery document, relative to the provider's root.
DISCOVERY = "/.well-known/openid-configuration"
#: The app's callback: Streamlit fills in its own port for ``{port}``.
REDIRECT_URI = "http://127.0.0.1:{port}/oauth2callback"


@dataclass(frozen=True)
class Someone:
    """A person the provider knows: subject (their e-mail here), e-mail claim, display name, and what the
    provider says of the address (``email_verified``: True as Google, Okta, Auth0 and Keycloak say of
    a confirmed address, False for one never confirmed, None to send no such claim at all)."""

    email: str
    name: str
    verified: bool | None = True

    def claims(self) -> str:
        claims: dict[str, object] = {"sub": self.email, "email": self.email, "name": self.name}
        if self.verified is not None:
            claims["email_verified"] = self.verified
        return json.dumps(claims)


@dataclass(frozen=True)
class SignInSecrets:
    """The secrets of one run: made up afresh, so a leak of either can be searched for."""

    cookie_secret: str
    client_id: str
    client_secret: str

    @classmethod
    def fresh(cls) -> SignInSecrets:
        return cls(
            cookie_secret="cookie-" + secrets.token_urlsafe(24),
            client_id="authority-dashboard",
            client_secret="oidc-secret-" + secrets.token_urlsafe(24),
        )


@dataclass(frozen=True)
class MockProvider:
    url: str

    @property
    def metadata_url(self) -> str:
        return self.url + DISCOVERY


@contextlib.contextmanager
def mock_provider(people: Iterable[Someone]) -> Iterator[MockProvider]:
    """``python -m oidc_provider_mock`` on a free loopback port, knowing ``people``; stopped on exit."""
    port = free_port()
    args = [sys.executable, "-m", "oidc_provider_mock", "--host", "127.0.0.1", "--port", str(port)]
    for person in people:
        args += ["--user-claims", person.claims()]
    proc = subprocess.Popen(args, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until_ready(proc, url + DISCOVERY, within_s=30, name="the OpenID provider")
        yield MockProvider(url)
    finally:
        stop_process(proc)


def _toml_list(entries: Sequence[str]) -> str:
    return "[" + ", ".join(json.dumps(entry) for entry in entries) + "]"


def write_secrets(
    path: Path,
    provider: MockProvider,
    keys: SignInSecrets,
    lists: Mapping[str, Sequence[str]],
    *,
    contact: str | None = None,
) -> Path:
    """A secrets file with ``[auth]`` pointing at ``provider`` and ``[access]`` with ``lists``
    (``admins`` / ``editors`` / ``viewers``). Written whole each time: the app reloads it on change."""
    lines = [
        "[auth]",
        f"redirect_uri = {json.dumps(REDIRECT_URI)}",
        f"cookie_secret = {json.dumps(keys.cookie_secret)}",
        f"client_id = {json.dumps(keys.client_id)}",
        f"client_secret = {json.dumps(keys.client_secret)}",
        f"server_metadata_url = {json.dumps(provider.metadata_url)}",
        "",
        "[access]",
        *(f"{role} = {_toml_list(entries)}" for role, entries in lists.items()),
    ]
    if contact:
        lines.append(f"contact = {json.dumps(contact)}")
    path.write_text("\n".join(lines) + "\n")
    return path


def loopback_only(context: BrowserContext) -> None:
    """Nothing but 127.0.0.1 for this context (the provider's page links a stylesheet on the web)."""

    def route(route: Route) -> None:
        if route.request.url.startswith(("http://127.0.0.1:", "ws://127.0.0.1:")):
            route.continue_()
        else:
            route.abort()

    context.route("**/*", route)


def sign_in(page: Page, app_url: str, person: Someone, *, path: str = "") -> None:
    """From the app's sign-in page through the provider's own authorization page, back to the app."""
    page.goto(f"{app_url}/{path}", wait_until="domcontentloaded")
    page.get_by_role("button", name="Sign in").click()
    page.get_by_placeholder("sub").wait_for(timeout=TIMEOUT_MS)
    page.get_by_placeholder("sub").fill(person.email)
    page.get_by_role("button", name="Authorize").click()
    page.wait_for_url(f"{app_url}/**", timeout=TIMEOUT_MS)
    page.locator('[data-testid="stApp"]').wait_for(timeout=TIMEOUT_MS)
    settled(page)
