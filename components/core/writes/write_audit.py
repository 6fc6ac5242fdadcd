"""The audit side of the one write path: what a write is about, and appending its row to the store.

- ``describe(operation, args)`` is the target and detail an audit row shows, in plain text, taken from
  the write's own arguments: the site, keyword, partner or question. For an exchange proposal the
  detail is its subject, never the message body; an API key is never part of either.
- ``units_words(spent, quota)`` is what the row of a read that spends quota units adds: how many.
- ``record(...)`` appends one row through the shared history store. It never raises and never holds a
  write back: when the store cannot be used, the write has gone out (or been refused) anyway and the
  missing row is logged (with the database's plain reason, never a password or key).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from analysis.error_wording import describe_error
from analysis.wording import counted
from client.errors import ApiError, InvalidResponseError
from client.models import QuotaInfo
from components.core.cache.connection import Connection
from components.core.history import store as history

if TYPE_CHECKING:
    from store.audit import AuditOutcome

logger = logging.getLogger(__name__)

#: Operations whose first argument is the site's slug and whose second is what the row is about; the
#: others are about their first argument (a site, a page, a watched subject), unless the caller says.
_SITE_THEN_SUBJECT = frozenset({"add_tracked_keyword", "add_ai_prompt"})


def _text(value: Any) -> str | None:
    if value is None:
        return None
    text = " ".join(str(value).split())
    return text or None


def describe(
    operation: str, args: tuple[Any, ...], target: str | None = None
) -> tuple[str | None, str | None]:
    """``(target, detail)`` of a write; a ``target`` the caller names wins (e.g. the keyword of a write
    that only carries its id)."""
    first = args[0] if args else None
    second = args[1] if len(args) > 1 else None
    site = _text(first) if isinstance(first, str) else None
    found, detail = site, None
    if operation == "approve_exchange":
        found = _text(getattr(first, "target", None))
        detail = _subject_detail(getattr(first, "subject", None), getattr(first, "exchanges_for", None))
    elif operation == "preview_exchange":
        found = _text(second)
        detail = _subject_detail(args[2] if len(args) > 2 else None, site)
    elif operation == "submit_site":
        found = _text(getattr(first, "url", first))
    elif operation in _SITE_THEN_SUBJECT:
        found, detail = _text(second), (f"for {site}" if site else None)
    return _text(target) or found, detail


def units_words(spent: int, quota: QuotaInfo | None = None) -> str:
    """What a quota-spending read's row says about units: the count the app made (one per call the
    service answered, as the specification counts them) and what the service's quota header said is
    left, when it said."""
    words = "No quota unit spent" if spent <= 0 else f"{counted(spent, 'quota unit')} spent"
    if quota is not None and quota.remaining is not None and spent > 0:
        words += f" ({quota.remaining:,} left)"
    return words


def _subject_detail(subject: Any, source: Any) -> str | None:
    """A proposal's subject and the site it is sent from (never its message body)."""
    subject, source = _text(subject), _text(source)
    parts = [f"Subject: {subject}" if subject else None, f"from {source}" if source else None]
    joined = ", ".join(part for part in parts if part)
    return joined or None


def service_refusal(err: ApiError) -> tuple[AuditOutcome, int | None, str]:
    """``(outcome, status, message)`` of a write that ended in ``err``: refused by the service when it
    answered with a status, else failed (transport, timeout, an answer not as documented, input the
    client refused before sending)."""
    view = describe_error(err, subject="this change")
    words = view.title
    own = _text(err.message)
    if own and own.rstrip(".") != words.rstrip("."):
        words = f"{words}: {own}"
    if err.status is not None and not isinstance(err, InvalidResponseError):
        return "refused_by_service", err.status, words
    return "failed", err.status, words


def record(
    conn: Connection,
    *,
    person: str,
    role: str | None,
    operation: str,
    target: str | None,
    detail: str | None,
    outcome: AuditOutcome,
    status: int | None = None,
    message: str | None = None,
) -> bool:
    """Append one audit row; True when it was written. Never raises."""
    try:
        from store import AuditEvent

        store = history.history_store()
        if store is None:
            logger.warning(
                "audit row for %s (%s) not written: history is unavailable (%s)",
                operation,
                outcome,
                history.history_problem() or "no database",
            )
            return False
        event = AuditEvent(
            person=person or "unknown",
            role=role,
            account=conn.fingerprint,
            operation=operation,
            target=target,
            outcome=outcome,
            status=status,
            message=message,
            detail=detail,
        )
        store.audit.record(event)
    except Exception as exc:  # the audit never fails a write
        reason = getattr(exc, "reason", None) or type(exc).__name__
        logger.warning("audit row for %s (%s) not written: %s", operation, outcome, reason)
        return False
    return True
