"""Who may do what: the role rules of the ``[access]`` secrets table, pure (no Streamlit).

``[access]`` lists ``admins``, ``editors`` and ``viewers``, each entry an e-mail address
("ana@company.com") or a whole domain ("@company.com"), compared without regard to case or surrounding
whitespace. A person's role is the highest any entry grants; a domain entry matches addresses of exactly
that domain (not its subdomains, not a domain that merely ends with the same letters). The rules are
decided afresh on every call from the lists as they are then: someone removed from a list loses the
role at once. Without sign-in the app runs as one local person (``LOCAL_PERSON``) with every right.

A role is granted only to an address the sign-in provider has **verified** (``address_verified``): an
address a person merely typed into their profile at the provider, or self-registered without
confirming, proves nothing, and must not make them whoever is on the ``admins`` list. See
``provider_verdict`` for what counts as verified, and ``[access] trust_unverified_email_from`` for the
one opt-in exception (off by default).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal
from urllib.parse import urlsplit

Role = Literal["viewer", "editor", "admin"]
ROLE_ORDER: tuple[Role, ...] = ("viewer", "editor", "admin")
#: Who acts when sign-in is off: one local person, with role "admin".
LOCAL_PERSON = "local"
LOCAL_ROLE: Role = "admin"
#: The ID-token claims the verification rule reads (everything else a provider sends is ignored).
VERIFICATION_CLAIMS = ("email_verified", "xms_edov", "iss")
#: Hosts of Microsoft Entra ID's token issuers (public cloud, v2.0 and v1.0, and the national clouds):
#: the only issuers whose ``xms_edov`` claim is read.
ENTRA_ISSUER_HOSTS = frozenset(
    {
        "login.microsoftonline.com",
        "sts.windows.net",
        "login.microsoftonline.us",
        "login.partner.microsoftonline.cn",
    }
)


def normalise_entry(entry: object) -> str | None:
    """An entry as compared: trimmed, lower case; a bare "company.com" reads as "@company.com".
    None for an entry that is neither an address nor a domain (an empty string, "a@", "@")."""
    if not isinstance(entry, str):
        return None
    text = entry.strip().lower()
    if not text:
        return None
    if "@" not in text:
        text = "@" + text
    local, _, domain = text.rpartition("@")
    if not domain or "." not in domain or any(c.isspace() for c in text):
        return None
    return f"{local}@{domain}" if local else f"@{domain}"


def normalise_email(email: str | None) -> str | None:
    """An address as compared (trimmed, lower case); None for anything that is not an address."""
    if not isinstance(email, str):
        return None
    text = email.strip().lower()
    local, at, domain = text.rpartition("@")
    if not at or not local or not domain or any(c.isspace() for c in text):
        return None
    return text


def _entries(value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    items: Iterable[object] = [value] if isinstance(value, str) else value
    try:
        normalised = (normalise_entry(item) for item in items)
        return tuple(dict.fromkeys(entry for entry in normalised if entry is not None))
    except TypeError:  # neither a string nor a list: nobody
        return ()


@dataclass(frozen=True)
class AccessLists:
    """The ``[access]`` table as read: normalised entries per role and whom to ask for access."""

    admins: tuple[str, ...] = ()
    editors: tuple[str, ...] = ()
    viewers: tuple[str, ...] = ()
    contact: str | None = None
    #: Addresses or domains whose address is trusted when the provider says nothing about verifying it
    #: (``[access] trust_unverified_email_from``; empty by default). See ``address_verified``.
    trust_unverified_email_from: tuple[str, ...] = ()

    @classmethod
    def from_mapping(cls, mapping: Mapping[str, Any] | None) -> AccessLists:
        """Read the ``[access]`` secrets table (or None when there is none: nobody is on a list)."""
        if not isinstance(mapping, Mapping):
            return cls()
        contact = mapping.get("contact")
        contact = contact.strip() if isinstance(contact, str) and contact.strip() else None
        return cls(
            admins=_entries(mapping.get("admins")),
            editors=_entries(mapping.get("editors")),
            viewers=_entries(mapping.get("viewers")),
            contact=contact,
            trust_unverified_email_from=_entries(mapping.get("trust_unverified_email_from")),
        )

    def entries(self, role: Role) -> tuple[str, ...]:
        return {"admin": self.admins, "editor": self.editors, "viewer": self.viewers}[role]

    @property
    def empty(self) -> bool:
        return not (self.admins or self.editors or self.viewers)


def matches(email: str, entry: str) -> bool:
    """Whether a normalised ``entry`` covers a normalised ``email``: the same address, or "@" + its
    exact domain."""
    if entry.startswith("@"):
        return email.rpartition("@")[2] == entry[1:]
    return email == entry


def role_for(email: str | None, lists: AccessLists) -> Role | None:
    """The highest role any entry grants ``email``; None when it is on no list (or is no address)."""
    address = normalise_email(email)
    if address is None:
        return None
    for role in reversed(ROLE_ORDER):
        if any(matches(address, entry) for entry in lists.entries(role)):
            return role
    return None


def _says_true(value: object, *also: object) -> bool:
    """A claim that says "yes": JSON ``true``, or the text "true" (some providers send booleans as
    text), or one of ``also``. Anything else (``false``, "false", "yes", 1, a list) is not a yes."""
    if value is True:
        return True
    if isinstance(value, str):
        text = value.strip().lower()
        return text == "true" or text in also
    return False


def _from_entra(claims: Mapping[str, Any]) -> bool:
    """Whether the token was issued by Microsoft Entra ID (its ``iss`` is one of Entra's hosts)."""
    issuer = claims.get("iss")
    if not isinstance(issuer, str):
        return False
    try:
        parts = urlsplit(issuer.strip())
        return parts.scheme == "https" and parts.hostname in ENTRA_ISSUER_HOSTS
    except ValueError:  # not a URL at all
        return False


def provider_verdict(claims: Mapping[str, Any]) -> bool | None:
    """What the sign-in provider says of the address it sent: True verified, False not verified, None
    nothing at all.

    - ``email_verified`` (OpenID Connect's standard claim; Google, Okta, Auth0 and Keycloak send it) is
      the answer when present: true (JSON ``true`` or the text "true") is verified, anything else is not.
    - Microsoft Entra ID sends no ``email_verified``. Its optional ``xms_edov`` claim ("e-mail domain
      owner verified", added to the ID token in the app registration) says whether the tenant has
      verified the domain of the address; it is read only from a token Entra issued (``iss``). Yes is
      JSON ``true``, "true" or "1": Microsoft's reference calls it a boolean without fixing its JSON
      form, and clients of Entra accept each.
    - Neither: None. An absent claim is **not** a yes: the providers that omit it (Entra without
      ``xms_edov``, some self-hosted ones) include those where a person or a guest tenant can set the
      ``email`` of an account to anyone's address, so the address alone proves nothing.
    """
    if "email_verified" in claims and claims["email_verified"] is not None:
        return _says_true(claims["email_verified"])
    if _from_entra(claims) and claims.get("xms_edov") is not None:
        return _says_true(claims["xms_edov"], "1")
    return None


def address_verified(email: str | None, claims: Mapping[str, Any], lists: AccessLists) -> bool:
    """Whether ``email`` may be looked up on the lists at all: the provider verified it, or it says
    nothing about it and ``[access] trust_unverified_email_from`` names the address or its domain.

    That opt-in is for a provider the organisation controls that cannot send a verification claim
    (every address in it set by its admins); an address the provider marks as not verified is never
    trusted, whatever the list says."""
    address = normalise_email(email)
    if address is None:
        return False
    verdict = provider_verdict(claims)
    if verdict is not None:
        return verdict
    return any(matches(address, entry) for entry in lists.trust_unverified_email_from)


def role_for_claims(claims: Mapping[str, Any], lists: AccessLists) -> Role | None:
    """The role of a signed-in person from their provider's claims: the highest role the lists give
    their ``email``, and only when that address is verified (``address_verified``); otherwise None."""
    email = claims.get("email")
    email = email if isinstance(email, str) else None
    if not address_verified(email, claims, lists):
        return None
    return role_for(email, lists)


def may_write(role: str | None) -> bool:
    """Editors and admins change things; viewers (and people on no list) only read."""
    return role in ("editor", "admin")


def may_see_everyones_activity(role: str | None) -> bool:
    """Admins see everyone's audit rows; everyone else only their own."""
    return role == "admin"


def refusal_words(contact: str | None) -> str:
    """What a person who may not write is told (beside a disabled control, and for a refused write)."""
    ask = contact or "an admin of this dashboard"
    return f"Editors only: you can read everything here; ask {ask} to change things."
