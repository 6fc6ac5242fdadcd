"""The audit log: every write attempt from the app, appended, and read back newest first.

``AuditLog.record`` appends one ``AuditEvent``; ``events`` and ``people`` read them back for one
account. There is deliberately no method that changes or removes a row once written: the log is
only ever appended to. Text is trimmed to the column sizes; the API key is never part of an event
(the account is the key's fingerprint), and for an exchange proposal ``detail`` is its subject, never
the message body (the app's write path decides what goes in).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from typing import Literal, get_args

import pandas as pd
from sqlalchemy import insert, select

from schema.audit import AUDIT_COLUMNS
from store.engine import Connected
from store.models import ACCOUNT_LEN, AUDIT_TEXT_LEN, SHORT_LEN, SUBJECT_LEN, AuditEventRow
from store.watchlist import as_utc, check_account

#: What became of a write: "sent" reached the service; "done" changed only this dashboard's own records
#: (the watchlist, alerts and their rules: nothing is sent to the service); "no_change" was allowed but
#: found nothing to change (watching what is watched already); the rest were refused or failed.
AuditOutcome = Literal["sent", "done", "no_change", "refused_by_service", "refused_by_role", "failed"]
AUDIT_OUTCOMES: tuple[str, ...] = get_args(AuditOutcome)
#: Longest message or detail kept (plain words, not a document).
AUDIT_NOTE_LEN = 2000

AUDIT = AuditEventRow.__table__


def _now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True)
class AuditEvent:
    """One write attempt: who (an e-mail address, or "local" without sign-in) did what, and the outcome."""

    person: str
    role: str | None
    account: str
    operation: str
    target: str | None
    outcome: AuditOutcome
    status: int | None = None
    message: str | None = None
    detail: str | None = None
    at: datetime = field(default_factory=_now)


def _trim(text: str | None, length: int) -> str | None:
    if text is None:
        return None
    text = str(text).strip()
    return text if len(text) <= length else text[: length - 1] + "…"


def _start_of(day: date) -> datetime:
    return datetime.combine(day, time.min, tzinfo=UTC)


class AuditLog(Connected):
    """The audit log (``HistoryStore.audit``): appended to and read, never changed."""

    def record(self, event: AuditEvent) -> None:
        """Append one event (its time in UTC)."""
        if event.outcome not in AUDIT_OUTCOMES:
            raise ValueError(f"an audit outcome is one of {', '.join(AUDIT_OUTCOMES)}")
        if not event.person or not event.operation:
            raise ValueError("an audit event names a person and an operation")
        row = {
            "at": as_utc(event.at).astimezone(UTC),
            "person": _trim(event.person, SUBJECT_LEN),
            "role": _trim(event.role, SHORT_LEN),
            "account": check_account(event.account)[:ACCOUNT_LEN],
            "operation": _trim(event.operation, SHORT_LEN * 2),
            "target": _trim(event.target, AUDIT_TEXT_LEN),
            "outcome": event.outcome,
            "status": event.status,
            "message": _trim(event.message, AUDIT_NOTE_LEN),
            "detail": _trim(event.detail, AUDIT_NOTE_LEN),
        }
        with self._writing() as conn:
            conn.execute(insert(AUDIT).values(row))

    def events(
        self,
        account: str,
        *,
        person: str | None = None,
        operation: str | None = None,
        outcome: str | None = None,
        since: date | None = None,
        until: date | None = None,
        limit: int = 5000,
    ) -> pd.DataFrame:
        """The account's events, newest first; ``since`` / ``until`` are days in UTC, both included."""
        query = select(*(AUDIT.c[name] for name in AUDIT_COLUMNS)).where(
            AUDIT.c.account == check_account(account)
        )
        if person is not None:
            query = query.where(AUDIT.c.person == person)
        if operation is not None:
            query = query.where(AUDIT.c.operation == operation)
        if outcome is not None:
            query = query.where(AUDIT.c.outcome == outcome)
        if since is not None:
            query = query.where(AUDIT.c.at >= _start_of(since))
        if until is not None:
            query = query.where(AUDIT.c.at < _start_of(until + timedelta(days=1)))
        query = query.order_by(AUDIT.c.at.desc(), AUDIT.c.id.desc()).limit(max(0, int(limit)))
        with self._reading() as conn:
            rows = conn.execute(query).all()
        frame = pd.DataFrame([tuple(row) for row in rows], columns=list(AUDIT_COLUMNS))
        frame["at"] = pd.to_datetime([as_utc(moment) for moment in frame["at"]], utc=True)
        frame["status"] = frame["status"].astype("Int64")
        for name in AUDIT_COLUMNS:
            if name not in ("at", "status"):
                frame[name] = frame[name].astype("object")
        return frame

    def people(self, account: str) -> list[str]:
        """Everyone with an event in the account, in alphabetical order."""
        query = (
            select(AUDIT.c.person)
            .where(AUDIT.c.account == check_account(account))
            .distinct()
            .order_by(AUDIT.c.person)
        )
        with self._reading() as conn:
            return [row.person for row in conn.execute(query)]
