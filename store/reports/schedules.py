"""Scheduled monthly reports in the history database: each site's schedule (``report_schedules``) and
what became of each report it made (``report_sends``, the outbox ``services.jobs.reports`` fills and
empties).

``ReportSchedules`` (``HistoryStore.report_schedules``): set, remove and read a site's schedule (its
recipients checked as e-mail addresses, at most ``MAX_RECIPIENTS``), read the sends a page shows, and
approve a report built for review (``waiting_review`` → ``pending``: the next ``python -m store reports``
mails the very PDF that was approved). Who changed what is the audit log's business (the app's write
path, and the job for its sends), not this module's.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Row, Table, delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from store.engine import Connected
from store.models import SUBJECT_LEN
from store.reports.period import Period
from store.reports.tables import ReportScheduleRow, ReportSendRow
from store.rows import subject_name
from store.watchlist import as_utc, check_account

SCHEDULES: Table = ReportScheduleRow.__table__
SENDS: Table = ReportSendRow.__table__
MAX_RECIPIENTS = 20
#: A plain address: something@domain.tld, no spaces, no angle brackets, no quotes (nothing a header
#: could be made to carry).
_ADDRESS = re.compile(
    r"[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9-]+)+"
)
#: The states of a send, in words for the page.
STATE_WORDS = {
    "waiting_review": "waiting for review",
    "pending": "to be sent",
    "sending": "being sent",
    "sent": "sent",
    "failed": "not sent",
}


class BadSchedule(ValueError):
    """A schedule that cannot be kept; the message says why in plain words."""


def check_recipients(text: str | Iterable[str]) -> tuple[str, ...]:
    """The addresses of ``text`` (one a line; commas, semicolons and spaces also separate them), each
    once, in order; BadSchedule naming the first that is not an e-mail address, or when none or too
    many are given."""
    parts = re.split(r"[\s,;]+", text) if isinstance(text, str) else [str(part).strip() for part in text]
    seen: dict[str, str] = {}
    for part in (part for part in parts if part):
        if len(part) > SUBJECT_LEN or not _ADDRESS.fullmatch(part):
            raise BadSchedule(f"{part[:80]!r} is not an e-mail address")
        seen.setdefault(part.lower(), part)
    if not seen:
        raise BadSchedule("a schedule needs at least one recipient")
    if len(seen) > MAX_RECIPIENTS:
        raise BadSchedule(f"a schedule has at most {MAX_RECIPIENTS} recipients ({len(seen)} were given)")
    return tuple(seen.values())


@dataclass(frozen=True)
class ReportSchedule:
    """A site's monthly report: who receives it, and whether an editor approves each one first."""

    site: str
    recipients: tuple[str, ...]
    review_first: bool
    updated_by: str
    updated_at: datetime


@dataclass(frozen=True)
class ReportSend:
    """One scheduled report of one site and period, and what became of it."""

    id: int
    site: str
    period: Period
    state: str
    recipients: tuple[str, ...]
    attempts: int
    built_at: datetime
    approved_by: str | None
    approved_at: datetime | None
    sent_at: datetime | None
    last_error: str | None

    @property
    def state_words(self) -> str:
        return STATE_WORDS.get(self.state, self.state)

    @property
    def words(self) -> str:
        """ "stripe.com, October 2026: sent" (and the reason it was not, when it was not)."""
        line = f"{self.site}, {self.period.words}: {self.state_words}"
        return f"{line} ({self.last_error})" if self.last_error and self.state != "sent" else line


def _now(now: datetime | None) -> datetime:
    return as_utc(now).astimezone(UTC) if now is not None else datetime.now(UTC)


def _when(value: datetime | None) -> datetime | None:
    return as_utc(value).astimezone(UTC) if value is not None else None


def _schedule(row: Row[Any]) -> ReportSchedule:
    return ReportSchedule(
        row.site,
        tuple(row.recipients.split()),
        bool(row.review_first),
        row.updated_by,
        as_utc(row.updated_at),
    )


def _send(row: Row[Any]) -> ReportSend:
    return ReportSend(
        id=row.id,
        site=row.site,
        period=Period(row.period_start, row.period_end),
        state=row.state,
        recipients=tuple(row.recipients.split()),
        attempts=row.attempts,
        built_at=as_utc(row.built_at),
        approved_by=row.approved_by,
        approved_at=_when(row.approved_at),
        sent_at=_when(row.sent_at),
        last_error=row.last_error,
    )


#: A send's columns as the page reads them (never the PDF).
_SEND_COLUMNS = [column for column in SENDS.c if column.name != "pdf"]


class ReportSchedules(Connected):
    """Report schedules and their sends (``HistoryStore.report_schedules``)."""

    def set_report_schedule(
        self,
        account: str,
        site: str,
        recipients: str | Iterable[str],
        review_first: bool,
        person: str,
        *,
        now: datetime | None = None,
    ) -> bool:
        """Set (or replace) ``site``'s schedule; whether anything changed. BadSchedule when the
        recipients cannot be used."""
        account, site = check_account(account), subject_name(site)
        if not site:
            raise BadSchedule("a schedule is for one of your sites")
        wanted = check_recipients(recipients)
        values = {
            "recipients": "\n".join(wanted),
            "review_first": bool(review_first),
            "updated_by": person[:SUBJECT_LEN],
            "updated_at": _now(now),
        }
        mine = (SCHEDULES.c.account == account) & (SCHEDULES.c.site == site)
        for attempt in range(2):  # again when another writer inserted the same site meanwhile
            try:
                with self._writing() as conn:
                    current = conn.execute(select(SCHEDULES).where(mine)).first()
                    if current is None:
                        conn.execute(insert(SCHEDULES).values(account=account, site=site, **values))
                        return True
                    if (tuple(current.recipients.split()), current.review_first) == (wanted, review_first):
                        return False
                    conn.execute(update(SCHEDULES).where(mine).values(values))
                    return True
            except IntegrityError:
                if attempt:
                    raise
        return False

    def remove_report_schedule(self, account: str, site: str) -> bool:
        """Stop ``site``'s monthly report (the reports already built stay, and go out if approved);
        whether there was a schedule."""
        mine = (SCHEDULES.c.account == check_account(account)) & (SCHEDULES.c.site == subject_name(site))
        with self._writing() as conn:
            return conn.execute(delete(SCHEDULES).where(mine)).rowcount > 0

    def entries(self, account: str) -> list[ReportSchedule]:
        """Every schedule of the account, by site."""
        query = (
            select(SCHEDULES).where(SCHEDULES.c.account == check_account(account)).order_by(SCHEDULES.c.site)
        )
        with self._reading() as conn:
            return [_schedule(row) for row in conn.execute(query)]

    def report_schedule(self, account: str, site: str) -> ReportSchedule | None:
        mine = (SCHEDULES.c.account == check_account(account)) & (SCHEDULES.c.site == subject_name(site))
        with self._reading() as conn:
            row = conn.execute(select(SCHEDULES).where(mine)).first()
        return _schedule(row) if row is not None else None

    def report_sends(
        self, account: str, site: str | None = None, *, states: Iterable[str] | None = None, limit: int = 50
    ) -> list[ReportSend]:
        """The account's scheduled reports (of ``site``, in ``states``), the latest period first."""
        query = select(*_SEND_COLUMNS).where(SENDS.c.account == check_account(account))
        if site is not None:
            query = query.where(SENDS.c.site == subject_name(site))
        if states is not None:
            query = query.where(SENDS.c.state.in_(list(states)))
        query = query.order_by(SENDS.c.period_start.desc(), SENDS.c.site, SENDS.c.id.desc()).limit(limit)
        with self._reading() as conn:
            return [_send(row) for row in conn.execute(query)]

    def report_send(self, account: str, send_id: int) -> ReportSend | None:
        query = select(*_SEND_COLUMNS).where(SENDS.c.account == check_account(account), SENDS.c.id == send_id)
        with self._reading() as conn:
            row = conn.execute(query).first()
        return _send(row) if row is not None else None

    def report_send_pdf(self, account: str, send_id: int) -> bytes | None:
        """The PDF a scheduled report was built as (what an editor reviews, and what is mailed)."""
        query = select(SENDS.c.pdf).where(SENDS.c.account == check_account(account), SENDS.c.id == send_id)
        with self._reading() as conn:
            pdf = conn.execute(query).scalar_one_or_none()
        return bytes(pdf) if pdf is not None else None

    def approve_report_send(
        self, account: str, send_id: int, person: str, *, now: datetime | None = None
    ) -> bool:
        """Let a report built for review go out (at the next run); False when it is not waiting for
        review (approved by someone else meanwhile, or not this account's)."""
        query = (
            update(SENDS)
            .where(
                SENDS.c.account == check_account(account),
                SENDS.c.id == send_id,
                SENDS.c.state == "waiting_review",
            )
            .values(state="pending", approved_by=person[:SUBJECT_LEN], approved_at=_now(now))
        )
        with self._writing() as conn:
            return conn.execute(query).rowcount == 1
