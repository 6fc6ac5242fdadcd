"""Who may do what: the role rules of the ``[access]`` secrets table, pure (no Streamlit).

``[access]`` lists ``admins``, ``editors`` and ``viewers``, each entry an e-mail address
("ana@company.com") or a whole domain ("@company.com"), compared without regard to case or surrounding
whitespace. A person's role is the highest any entry grants; a domain entry matches addresses of exactly
that domain (not its subdomains, not a domain that merely ends with the same letters). The rules are
decided afresh on every call from the lists as they are then: someone removed from a list loses the
role at once. Without sign-in the app runs as one local person (``LOCAL_PERSON``) with every right.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

Role = Literal["viewer", "editor", "admin"]
ROLE_ORDER: tuple[Role, ...] = ("viewer", "editor", "admin")
#: Who acts when sign-in is off: one local person, with role "admin".
LOCAL_PERSON = "local"
LOCAL_ROLE: Role = "admin"


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
