"""Who is using the app and what they may change, decided afresh on every script run.

- ``sign_in_configured()``: whether ``.streamlit/secrets.toml`` has an ``[auth]`` section. Without one
  the app runs as one local person with every right (``Person("local", None, "admin", False)``).
- ``current_person()``: with sign-in on, the person ``st.user`` names, with the role the *current*
  ``[access]`` lists give their address (the login cookie lasts 30 days; taking someone off a list
  takes effect on their next click). Not signed in, on no list, or an address the sign-in provider has
  not verified (``verified`` False): ``role`` is None. ``st.user`` holds the claims of the provider's
  ID token, so ``email_verified`` (or Entra's ``xms_edov``) is read from there.
- ``write_permission()``: whether the current person may write, and if not the plain reason a
  disabled control shows (``disabled=not allowed, help=why``).

The role rules themselves are pure and live in ``components/common/access_rules.py``. Tests drive
this module through AppTest's own ``at.user`` and ``at.secrets`` (what ``st.user`` and ``st.secrets``
read), so there is no test-only door here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import streamlit as st

from analysis.text import escape_md
from components.common.access_rules import (
    LOCAL_PERSON,
    VERIFICATION_CLAIMS,
    AccessLists,
    Role,
    address_verified,
    may_see_everyones_activity,
    may_write,
    refusal_words,
    role_for_claims,
)

#: What a disabled write control says when no contact is configured.
EDITORS_ONLY = refusal_words(None)
#: Why a click by someone signed in but on none of the access lists (taken off since their page
#: opened) was refused: what their audit row says.
NO_LONGER_LISTED = "On none of the access lists (any more): nothing was sent or spent."


@dataclass(frozen=True)
class Person:
    """The person behind this run: e-mail (or ``"local"``), display name, role (None: on no list, or
    an unverified address), and whether their sign-in provider verified that address (``verified``:
    False means no role whatever the lists say; True without sign-in, where no provider is asked)."""

    email: str
    name: str | None
    role: Role | None
    signed_in: bool
    verified: bool = True

    @property
    def label(self) -> str:
        """How the app names this person on screen."""
        if not self.signed_in:
            return "Local user (sign-in is off)"
        return f"{self.name} ({self.email})" if self.name else self.email


LOCAL = Person(LOCAL_PERSON, None, "admin", False)


def _secrets_section(name: str) -> Mapping[str, Any] | None:
    """A table of ``st.secrets`` (None when absent, or when there is no secrets file at all)."""
    try:
        if name not in st.secrets:
            return None
        section = st.secrets[name]
    except Exception:  # no secrets file, or one that does not parse: treated as no section
        return None
    return section if isinstance(section, Mapping) else None


def sign_in_configured() -> bool:
    """Whether an ``[auth]`` section is configured (then every visitor must sign in)."""
    return _secrets_section("auth") is not None


def access_lists() -> AccessLists:
    """The ``[access]`` lists as they are now (read on every call, never remembered)."""
    return AccessLists.from_mapping(_secrets_section("access"))


def _user_claim(key: str) -> Any:
    try:
        return st.user.get(key)
    except Exception:  # st.user outside a run, or a claim the provider does not send
        return None


def current_person() -> Person:
    """The person of this run and their role from the current ``[access]`` lists."""
    if not sign_in_configured():
        return LOCAL
    if not _user_claim("is_logged_in"):
        return Person("", None, None, False)
    email = str(_user_claim("email") or "").strip()
    name = _user_claim("name")
    lists = access_lists()
    claims = {key: value for key in VERIFICATION_CLAIMS if (value := _user_claim(key)) is not None}
    role = role_for_claims({**claims, "email": email}, lists)  # None for an unverified address
    verified = address_verified(email or None, claims, lists)
    return Person(email, str(name) if name else None, role, True, verified=verified)


def contact() -> str | None:
    """Whom to ask for access, from ``[access] contact`` (None when not set)."""
    return access_lists().contact


def write_permission() -> tuple[bool, str | None]:
    """``(True, None)`` for editors and admins; otherwise ``(False, reason)`` for a disabled control."""
    if may_write(current_person().role):
        return True, None
    return False, refusal_words(contact())


def read_only_note(reason: str | None) -> None:
    """Once, beside a page's write controls: why they are disabled (nothing when they are not)."""
    if reason:
        st.caption(f":material/lock: {escape_md(reason)}")


def sees_everyones_activity() -> bool:
    """Whether the current person sees every person's rows on the Activity page (admins)."""
    return may_see_everyones_activity(current_person().role)
