"""Discovery and link exchanges: find listed sites, list exchange candidates, preview and send proposals.

A proposal is previewed before it is sent, in the client too: ``preview_exchange`` returns a sealed
``ExchangeDraft`` (see ``client.outreach``) and only such a draft can be approved. Proposals are
writes: sent once, never retried automatically.
"""

from __future__ import annotations

from typing import Any

from client import errors
from client.growth_inputs import DiscoveryFilters, check_message, check_subject, normalise_slug
from client.growth_models import Discovery, ExchangeCandidates, ExchangeContact
from client.inputs import normalise_domain
from client.outreach import ExchangeDraft, key_tag, require_draft
from client.transport import BaseClient


def _filters(filters: DiscoveryFilters | None, criteria: dict[str, Any]) -> DiscoveryFilters:
    """The one ``DiscoveryFilters`` a call meant, given either as an object or as its fields."""
    if filters is not None and criteria:
        raise TypeError("Pass either a DiscoveryFilters or keyword criteria, not both.")
    if filters is None:
        return DiscoveryFilters(**criteria)
    if not isinstance(filters, DiscoveryFilters):
        raise TypeError("filters must be a DiscoveryFilters.")
    return filters


def _target(value: str) -> str:
    """An exchange target: a candidate's slug (``acme-com``) or domain."""
    text = (value or "").strip().lower() if isinstance(value, str) else ""
    if "." in text or "/" in text:
        return normalise_domain(value)
    return normalise_slug(text)


class ExchangeOperations(BaseClient):
    """``discover:find`` and ``exchanges`` (candidates, preview, approve)."""

    def find(self, filters: DiscoveryFilters | None = None, /, **criteria: Any) -> Discovery:
        """``discover:find`` — listed sites ranked by TrueDR then DR.

        Pass a ``DiscoveryFilters`` or its fields as keywords (``min_true_dr=30, limit=20``).
        """
        params = _filters(filters, criteria).to_params()
        return self._read(Discovery, "find", "/find", key="find", params=params)

    def exchange_candidates(
        self, domain: str, filters: DiscoveryFilters | None = None, /, **criteria: Any
    ) -> ExchangeCandidates:
        """``exchanges`` — link-exchange candidates for a domain, each with why it fits."""
        params = {**_filters(filters, criteria).to_params(), "exchangesFor": normalise_domain(domain)}
        return self._read(
            ExchangeCandidates, "exchange_candidates", "/find", key="opportunities", params=params
        )

    def preview_exchange(self, domain: str, target: str, subject: str, message: str) -> ExchangeDraft:
        """Dry-run a proposal from your ``domain`` to a candidate: nothing is sent.

        Returns the draft that ``approve_exchange`` needs; it holds the text exactly as previewed.
        """
        exchanges_for, to = normalise_domain(domain), _target(target)
        subject, message = check_subject(subject), check_message(message)
        body = {
            "exchangesFor": exchanges_for,
            "target": to,
            "subject": subject,
            "message": message,
            "dryRun": True,
        }
        contact = self._write(ExchangeContact, "preview_exchange", "POST", "/find", key="contact", json=body)
        if contact.sent:
            raise errors.InvalidResponseError(
                "The service reported the preview as sent.", operation="preview_exchange"
            )
        return ExchangeDraft.issue(
            service=self.base_url,
            key=key_tag(self._api_key),
            exchanges_for=exchanges_for,
            target=to,
            subject=contact.subject or subject,
            message=contact.message or message,
            preview=contact,
        )

    def approve_exchange(self, draft: ExchangeDraft) -> ExchangeContact:
        """``exchanges --contact --approve`` — send a previewed proposal exactly as it was previewed.

        Refuses anything but an untouched draft from ``preview_exchange`` (with this key). Sent once;
        never retried automatically.
        """
        checked = require_draft(draft, service=self.base_url, key=key_tag(self._api_key))
        return self._send_proposal(checked, checked.subject, checked.message)

    def approve_edited_exchange(self, draft: ExchangeDraft, subject: str, message: str) -> ExchangeContact:
        """Send a previewed proposal with text edited after its preview: an explicit, separate choice."""
        checked = require_draft(draft, service=self.base_url, key=key_tag(self._api_key))
        return self._send_proposal(checked, check_subject(subject), check_message(message))

    def _send_proposal(self, draft: ExchangeDraft, subject: str, message: str) -> ExchangeContact:
        body = {
            "exchangesFor": draft.exchanges_for,
            "target": draft.target,
            "subject": subject,
            "message": message,
        }
        return self._write(ExchangeContact, "approve_exchange", "POST", "/find", key="contact", json=body)
