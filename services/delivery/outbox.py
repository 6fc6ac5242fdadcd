"""The outbox both deliveries share: rows that must go out exactly once, claimed one at a time.

A row waits as ``pending`` until its retry time (``OutboxRows.retry_at``: empty or passed). A run claims
one due row with a conditional UPDATE (``pending`` and due, or ``sending`` whose claim ran out because a
run died mid-way) that makes it ``sending`` until ``claimed_until`` and counts the attempt, so two runs
at once never both send it: SQLite's write transactions queue (BEGIN IMMEDIATE) and PostgreSQL re-checks
the WHERE of an UPDATE that waited for a row lock. The run sends, then settles the row, if the claim is
still its own (a run that overslept its claim changes nothing):

- done: the row's done state (``delivered``, ``sent``) and when;
- refused for good: its refused state (``rejected``, ``failed``) and why;
- to be retried: ``pending`` again, due after ``backoff(attempts)`` (5 min, 10 min, 20 min, … at most
  6 h), unless ``max_attempts`` are spent: then it is given up as refused.

Each kind of delivery keeps its own table and says which of its rows a run handles (``OutboxRows``):
the webhook's ``alert_deliveries`` (one account's alerts) and the scheduled reports' ``report_sends``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Generic, Literal, TypeVar

from sqlalchemy import Column, ColumnElement, Connection, Engine, Table, and_, func, or_, select, update

from store.engine import write_engine

FIRST_BACKOFF = timedelta(minutes=5)
MAX_BACKOFF = timedelta(hours=6)
PENDING, SENDING = "pending", "sending"
T = TypeVar("T")
#: What one attempt came to.
AttemptResult = Literal["done", "retry", "refused"]


def backoff(attempts: int) -> timedelta:
    """How long to wait after the ``attempts``-th failed attempt: 5 min doubling, at most 6 h."""
    return min(FIRST_BACKOFF * 2 ** max(attempts - 1, 0), MAX_BACKOFF)


@dataclass(frozen=True)
class OutboxRows:
    """One kind of delivery's rows, and the columns and words the outbox works with."""

    table: Table
    #: The rows one run handles (one account's, one channel's).
    scope: ColumnElement[bool]
    #: When a pending row may be tried again (empty: at once).
    retry_at: Column[Any]
    #: The order due rows are claimed in.
    order: Sequence[Column[Any]]
    done_state: str
    done_at: Column[Any]
    refused_state: str
    error: Column[Any]
    #: Whether a row done after a failed attempt forgets that attempt's error.
    clears_error_when_done: bool = True


@dataclass(frozen=True)
class Claim(Generic[T]):
    """A row this run holds until ``claimed_until``: its id, attempts so far (this one counted) and what
    the sender needs of it (``item``)."""

    row_id: int
    claimed_until: datetime
    attempts: int
    item: T


@dataclass(frozen=True)
class Attempt:
    """What one attempt came to: done, to be retried, or refused for good; ``error`` in plain words;
    ``record``: other columns the sender keeps on the row (the webhook's last status)."""

    result: AttemptResult
    error: str | None = None
    record: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Settled:
    """The row's state after an attempt, when it is due again (retried rows) and whether this run
    still held the claim (``recorded``; False: another run took the row over, nothing changed)."""

    state: str
    retry_at: datetime | None
    recorded: bool


class Outbox:
    """The rows of one kind of delivery that one run handles: claim the next due one, settle it, count."""

    def __init__(self, engine: Engine, rows: OutboxRows, claim_for: timedelta) -> None:
        self.rows = rows
        self.reader = engine
        self.writer = write_engine(engine)
        self.claim_for = claim_for

    def due(self, now: datetime) -> ColumnElement[bool]:
        """This run's rows due at ``now``: pending and past their retry time, or a claim that ran out."""
        table, retry_at = self.rows.table, self.rows.retry_at
        return and_(
            self.rows.scope,
            or_(
                and_(table.c.state == PENDING, or_(retry_at.is_(None), retry_at <= now)),
                and_(table.c.state == SENDING, table.c.claimed_until < now),
            ),
        )

    def claim_next(
        self, clock: Callable[[], datetime], skip: set[int], load: Callable[[Connection, int], T]
    ) -> Claim[T] | None:
        """The next due row not in ``skip``, now "sending" until its claim runs out, with what ``load``
        reads of it in the same transaction; None when nothing is due. A row another run took between
        the read and the update joins ``skip``."""
        table = self.rows.table
        while True:
            now = clock()
            with self.writer.begin() as conn:
                query = select(table.c.id).where(self.due(now))
                if skip:
                    query = query.where(table.c.id.not_in(sorted(skip)))
                found = conn.execute(query.order_by(*self.rows.order).limit(1)).first()
                if found is None:
                    return None
                claimed_until = now + self.claim_for
                taken = conn.execute(
                    update(table)
                    .where(table.c.id == found.id, self.due(now))
                    .values(state=SENDING, claimed_until=claimed_until, attempts=table.c.attempts + 1)
                )
                if taken.rowcount != 1:  # another run took it between the read and the update
                    skip.add(found.id)
                    continue
                attempts = conn.execute(select(table.c.attempts).where(table.c.id == found.id)).scalar_one()
                item = load(conn, found.id)
            return Claim(found.id, claimed_until, int(attempts), item)

    def settle(
        self, claim: Claim[Any], attempt: Attempt, now: datetime, max_attempts: int | None = None
    ) -> Settled:
        """Record ``attempt`` on the claimed row, if the claim is still this run's."""
        rows = self.rows
        values: dict[str, Any] = {"claimed_until": None}
        retry_at: datetime | None = None
        if attempt.result == "done":
            state = rows.done_state
            values[rows.done_at.name] = now
            if rows.clears_error_when_done:
                values[rows.error.name] = None
        elif attempt.result == "retry" and (max_attempts is None or claim.attempts < max_attempts):
            state = PENDING
            retry_at = now + backoff(claim.attempts)
            values[rows.retry_at.name] = retry_at
            values[rows.error.name] = attempt.error
        else:  # refused, or no attempt left
            state = rows.refused_state
            values[rows.error.name] = attempt.error
        values = {"state": state, **values, **attempt.record}
        table = rows.table
        with self.writer.begin() as conn:
            done = conn.execute(
                update(table)
                .where(
                    table.c.id == claim.row_id,
                    table.c.state == SENDING,
                    table.c.claimed_until == claim.claimed_until,
                )
                .values(**values)
            )
        return Settled(state, retry_at, done.rowcount == 1)

    def count(self, states: Sequence[str]) -> int:
        """How many of this run's rows are in one of ``states``."""
        table = self.rows.table
        query = select(func.count()).where(self.rows.scope, table.c.state.in_(list(states)))
        with self.reader.connect() as conn:
            return int(conn.execute(query).scalar_one())
