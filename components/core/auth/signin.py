"""Sign-in: who may see the app at all, and the sidebar's lines about who is signed in.

``gate()`` runs before the navigation on every script run. With an ``[auth]`` section in the secrets:

- a visitor who is not signed in sees the sign-in page only: one button per configured provider
  (``st.login``), no sidebar, no page, no data. Every page's address (a deep link such as
  ``/trust-map``) draws that same sign-in page, so no page script runs before sign-in, and is where
  the person lands once signed in (``components/core/auth/after_sign_in.py``);
- a signed-in person on none of the ``[access]`` lists sees a page that says so, whom to ask
  (``[access] contact``) and a sign-out button, and nothing else; so does one whose address the sign-in
  provider has not verified (whatever the lists say: the page then says the address is not verified,
  and never whether it is on a list);
- anyone else gets the app; ``sidebar_block`` then names them, their role, and offers sign-out.

Without ``[auth]`` the app runs as one local user with every right, and the sidebar says plainly that
sign-in is off. Who a person is and what their role allows live in ``components/core/auth/access.py``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import streamlit as st

from analysis.text import escape_md
from components.common.access_rules import Role
from components.core.auth import after_sign_in
from components.core.auth.access import Person, contact, current_person, sign_in_configured
from components.core.nav import pages

SIGN_IN_OFF = "Sign-in is off: everyone who can open this address can change things."
#: What each role may do, as the sidebar says it under the signed-in person.
ROLE_WORDS: dict[Role, str] = {
    "viewer": "Viewer: reads everything; changes are for editors.",
    "editor": "Editor: reads everything and changes things.",
    "admin": "Admin: reads and changes everything, and sees everyone's activity.",
}
#: Provider names people know, as a sign-in button names them; others are shown as configured.
PROVIDER_NAMES = {
    "google": "Google",
    "microsoft": "Microsoft",
    "entra": "Microsoft Entra",
    "okta": "Okta",
    "auth0": "Auth0",
    "keycloak": "Keycloak",
    "github": "GitHub",
}
#: Keys of ``[auth]`` that hold a table but are not a named provider.
_NOT_PROVIDERS = frozenset({"client_kwargs"})
SIGN_OUT_KEY = "sign_out"


def _auth_section() -> Mapping[str, Any]:
    try:
        section = st.secrets.get("auth")
    except Exception:  # no secrets file, or one that does not parse: no providers
        return {}
    return section if isinstance(section, Mapping) else {}


def providers(auth: Mapping[str, Any]) -> list[str | None]:
    """The providers ``[auth]`` configures: None for the unnamed one (its settings directly in
    ``[auth]``), then each ``[auth.<name>]`` table in the file's order."""
    named = [
        name for name, value in auth.items() if isinstance(value, Mapping) and name not in _NOT_PROVIDERS
    ]
    unnamed: list[str | None] = [None] if auth.get("client_id") or not named else []
    return unnamed + named


def provider_label(name: str | None, *, only: bool) -> str:
    """A sign-in button's words: plain "Sign in" for the only, unnamed provider."""
    if name is None:
        return "Sign in" if only else "Sign in with your work account"
    shown = PROVIDER_NAMES.get(name.lower(), name.replace("-", " ").title())
    return f"Sign in with {shown}"


def _sign_in_page() -> None:
    st.title("Authority Dashboard", anchor=False)
    st.markdown(
        "**Sign in to continue.** This dashboard is shared by a team: signing in tells it who you "
        "are, and so what you may change."
    )
    configured = providers(_auth_section())
    for name in configured:
        label = provider_label(name, only=len(configured) == 1)
        if st.button(label, key=f"sign_in_{name or 'default'}", type="primary", icon=":material/login:"):
            try:
                st.login(name)
            except Exception as exc:  # a half-written [auth]: say so, never a traceback
                st.error(
                    "Sign-in is not set up completely on this server, so nobody can sign in yet. "
                    f"Whoever runs the dashboard can check the [auth] settings. ({type(exc).__name__})",
                    icon=":material/error:",
                )
    who = contact()
    # Plain text, not Markdown: Markdown would make the address a mailto link.
    st.text(f"No access yet? Ask {who}." if who else "No access yet? Ask whoever runs it.")


def _not_on_a_list_page(person: Person) -> None:
    st.title("No access yet", anchor=False)
    who = contact()
    ask = escape_md(who) if who else "whoever runs this dashboard"
    if person.email and not person.verified:
        # Whether the address is on a list is not said: it is not looked up until it is verified.
        st.markdown(
            f"You are signed in as **{escape_md(person.email)}**, but your sign-in service has not "
            "confirmed that this address is yours: it is **not verified**. The dashboard gives access "
            "only to verified addresses, so there is nothing to show you yet."
        )
        st.info(
            "Verify the address with your sign-in service (often a link in an e-mail it sent you, or "
            f"its account settings), then sign out and sign in again. If it still says this, ask {ask}: "
            "the sign-in service may need to be set up to tell the dashboard which addresses it has "
            "verified.",
            icon=":material/mark_email_unread:",
        )
        st.button("Sign out", key=SIGN_OUT_KEY, on_click=st.logout, icon=":material/logout:")
        return
    if person.email:
        st.markdown(
            f"You are signed in as **{escape_md(person.email)}**, but that address is on none of this "
            "dashboard's access lists, so there is nothing to show you yet."
        )
    else:
        st.markdown(
            "You are signed in, but your sign-in service did not tell the dashboard your e-mail address, "
            "so it cannot find you on its access lists."
        )
    st.info(
        f"Ask {ask} to add your address as a viewer, editor or admin. You can also sign out and sign "
        "in with another account.",
        icon=":material/person_search:",
    )
    st.button("Sign out", key=SIGN_OUT_KEY, on_click=st.logout, icon=":material/logout:")


def _only(draw: Callable[[], None], title: str, *, remember_address: bool = False) -> None:
    """Draw ``draw`` in place of every page, with no navigation, then end the run.

    Each page of the app keeps its address but draws ``draw``: a deep link shows this page (not a
    "page not found" dialog over it), and no page's own script runs. With ``remember_address`` that
    address is where the person lands once signed in (``after_sign_in``).
    """
    stand_ins = [
        st.Page(draw, title=title, url_path=page.url_path, default=page.default) for page in pages.ALL
    ]
    shown = st.navigation(stand_ins, position="hidden")
    if remember_address:
        after_sign_in.remember(shown.url_path)
    shown.run()
    st.stop()


def gate() -> Person:
    """The person of this run, once they may see the app; otherwise draw the page they get and stop."""
    person = current_person()
    if not sign_in_configured():
        return person
    if not person.signed_in:
        _only(_sign_in_page, "Sign in", remember_address=True)
    elif person.role is None:
        _only(lambda: _not_on_a_list_page(person), "No access yet")
    return person


def sidebar_block(person: Person) -> None:
    """Who is signed in, their role and a sign-out button; or, without sign-in, that it is off."""
    with st.sidebar:
        if not person.signed_in:
            st.caption(f":material/lock_open: {SIGN_IN_OFF}")
            return
        address = f" ({person.email})" if person.name else ""
        # Plain text, not Markdown: Markdown would make the address a mailto link.
        st.text(f"Signed in as {person.name or person.email}{address}")
        if person.role is not None:
            st.caption(ROLE_WORDS[person.role])
        st.button("Sign out", key=SIGN_OUT_KEY, on_click=st.logout, icon=":material/logout:")
