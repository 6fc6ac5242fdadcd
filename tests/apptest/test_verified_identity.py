"""Only an address the sign-in provider has verified gets a role: in Streamlit's AppTest, a person whose
address is on ``admins`` but whose provider says ``email_verified: false`` (or says nothing about it)
sees "No access yet" with the reason and no page, sidebar or write control; the same address verified
(``email_verified`` true, Entra's ``xms_edov`` from an Entra-issued token, or no claim at all but a
domain the opt-in ``trust_unverified_email_from`` names) is an admin.

The person is set through AppTest's own ``user`` and ``secrets`` (what ``st.user`` and ``st.secrets``
read), against the session sandbox in Live mode with the demo key."""

from __future__ import annotations

from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from sandbox import DEMO_KEY, SandboxServer
from sandbox.accounts import ACCOUNTS
from tests.apptest.app_pages import APP, as_read, shown_text, signed_in

MINE = ACCOUNTS[DEMO_KEY].sites[0]
ANA = "ana@team.example"
ACCESS = {"admins": [ANA], "viewers": ["@team.example"], "contact": "it@team.example"}
PAGE = "views/tracked-keywords.py"
WRITE_CONTROLS = ("Track keyword", "Refresh snapshot", "Remove…")


def _open(access: dict[str, Any] = ACCESS, **claims: Any) -> AppTest:
    """Tracked keywords for Ana signed in with ``claims`` on top of her address."""
    at = signed_in(AppTest.from_file(APP, default_timeout=30), ANA, access, **claims)
    at.query_params["site"] = MINE
    at.switch_page(PAGE)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _buttons(at: AppTest) -> list[str]:
    return [b.label for b in [*at.get("form_submit_button"), *at.button]]


@pytest.mark.parametrize(
    "claims",
    [
        {"email_verified": False},
        {"email_verified": "false"},
        {"email_verified": None},
        # Entra's claim from another issuer is not Entra's: nothing said.
        {"email_verified": None, "iss": "https://idp.example/", "xms_edov": True},
    ],
    ids=["marked-not-verified", "marked-not-verified-as-text", "no-claim", "xms-edov-not-from-entra"],
)
def test_an_unverified_address_on_admins_sees_no_access_yet_with_the_reason(
    live_env: SandboxServer, claims: dict[str, Any]
) -> None:
    at = _open(**claims)
    assert [t.value for t in at.title] == ["No access yet"]
    text = as_read(shown_text(at))
    assert "not verified" in text and ANA in text, text
    assert "it@team.example" in text  # whom to ask
    assert "email_verified" not in text  # plain words, no claim names
    assert not set(WRITE_CONTROLS) & set(_buttons(at)), _buttons(at)
    assert _buttons(at) == ["Sign out"]
    assert not at.sidebar.children, "a sidebar is drawn"
    assert "Admin:" not in text and "Keyword to track" not in [f.label for f in at.text_input]


ENTRA = "https://login.microsoftonline.com/9188040d-6c67-4c5b-b112-36a304b66dad/v2.0"


@pytest.mark.parametrize(
    ("claims", "access"),
    [
        ({"email_verified": True}, ACCESS),
        ({"email_verified": "true"}, ACCESS),
        # Entra ID: no email_verified, its optional xms_edov claim from an Entra-issued token instead.
        ({"email_verified": None, "iss": ENTRA, "xms_edov": True}, ACCESS),
        # A provider that says nothing, and the opt-in that trusts the team's own domain.
        ({"email_verified": None}, {**ACCESS, "trust_unverified_email_from": ["@team.example"]}),
    ],
    ids=["verified", "verified-as-text", "entra-xms-edov", "trusted-domain-no-claim"],
)
def test_the_same_address_verified_is_an_admin(
    live_env: SandboxServer, claims: dict[str, Any], access: dict[str, Any]
) -> None:
    at = _open(access=access, **claims)
    assert "No access yet" not in [t.value for t in at.title]
    assert "Admin:" in "\n".join(str(c.value) for c in at.sidebar.get("caption"))
    assert set(WRITE_CONTROLS) <= set(_buttons(at)), _buttons(at)
