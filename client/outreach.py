"""The preview-before-approve rule for exchange proposals, enforced in the client itself.

Outreach is human-approved: the service rejects a send without subject and message, and the vendor
CLI only sends what was previewed. Here ``ApiClient.preview_exchange`` returns an ``ExchangeDraft``
sealed with a per-process secret over exactly what was previewed (service, key, both domains, subject
and message). ``approve_exchange`` sends only a draft whose seal holds, so a draft cannot be made up,
altered after the preview, or carried to another key; edited text goes through the separate, explicit
``approve_edited_exchange``.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass, field

from client.errors import InvalidInputError
from client.growth_models import ExchangeContact

#: Lives only in this process: drafts are kept in memory (a session), never stored or sent anywhere.
_SECRET = secrets.token_bytes(32)
_SEPARATOR = "\x1f"


def _seal(parts: tuple[str, ...]) -> str:
    return hmac.new(_SECRET, _SEPARATOR.join(parts).encode("utf-8"), hashlib.sha256).hexdigest()


def key_tag(api_key: str) -> str:
    """A one-way tag of the key, so a draft binds to it without holding it."""
    return hashlib.sha256(b"exchange-draft:" + api_key.encode("utf-8", "surrogateescape")).hexdigest()[:16]


@dataclass(frozen=True)
class ExchangeDraft:
    """A previewed proposal: what the service showed in its dry run, ready to be approved as it is.

    Hashable (the preview answer is left out of equality), so a UI can use it as the key of the one
    write an approval is.
    """

    exchanges_for: str
    target: str
    subject: str
    message: str
    preview: ExchangeContact = field(compare=False, repr=False)
    service: str = field(repr=False, default="")
    key: str = field(repr=False, default="")
    seal: str = field(repr=False, default="")

    @classmethod
    def issue(
        cls,
        *,
        service: str,
        key: str,
        exchanges_for: str,
        target: str,
        subject: str,
        message: str,
        preview: ExchangeContact,
    ) -> ExchangeDraft:
        seal = _seal((service, key, exchanges_for, target, subject, message))
        return cls(exchanges_for, target, subject, message, preview, service, key, seal)

    def check(self, *, service: str, key: str) -> None:
        """Refuse anything but an untouched draft previewed through this service with this key."""
        expected = _seal((service, key, self.exchanges_for, self.target, self.subject, self.message))
        if not hmac.compare_digest(expected, self.seal):
            raise InvalidInputError(
                "Preview the proposal first: only a draft returned by the preview can be approved, "
                "exactly as it was previewed.",
                field="draft",
            )


def require_draft(draft: object, *, service: str, key: str) -> ExchangeDraft:
    if not isinstance(draft, ExchangeDraft):
        raise InvalidInputError(
            "Preview the proposal first: approving needs the draft the preview returned.", field="draft"
        )
    draft.check(service=service, key=key)
    return draft
