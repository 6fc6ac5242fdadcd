"""Delivering alerts to the webhook exactly once: the outbox rows of ``alert_deliveries``.

Evaluation makes a "pending" delivery row with each alert (``services.alerts.evaluate``); only this module
changes it afterwards. A run claims one due row at a time with a conditional UPDATE (pending and due,
or "sending" whose claim ran out because a run died mid-way), so two runs at once never both send an
alert; SQLite's write transactions queue (BEGIN IMMEDIATE) and PostgreSQL re-checks the WHERE of an
UPDATE that waited for a row lock. Then it POSTs, and settles the row:

- 2xx: "delivered";
- a timeout, a 5xx, a 408/429, a refused or dropped connection: "pending" again, due after
  ``backoff(attempts)`` (5 min, 10 min, 20 min, … at most 6 h): retried by a later run, never dropped;
- any other answer (a 4xx: a wrong or revoked URL): "rejected" with the status, shown in the app.

Only the alerts of one account go out: the deployment's own (``account``, its key's fingerprint); the
alerts of keys people enter in the app stay in the app. Two deadlines bound a run, both for the whole
thing rather than for each read (httpx's timeouts restart with every byte, so a receiver answering
one byte at a time would hold a per-read timeout off forever): each POST runs under
``AlertConfig.webhook_timeout_s`` from connecting to its last byte (the request runs in an event loop
under ``asyncio.timeout``, which cancels it wherever it waits), and the pass stops claiming once
``AlertConfig.delivery_deadline_s`` is spent, naming the alerts it left due (``DeliveryReport.unsent``).

Each POST carries ``Idempotency-Key: alert-<account[:12]>-<id>``, so a receiver that honours it drops the
copy a crash between "sent" and "settled" may cause. Bodies hold the alert and a link back to the
dashboard, never the account, the API key or the webhook URL; error texts stored on the row are plain
words that never quote the URL.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

import httpx
from sqlalchemy import and_, func, or_, select, update

from services.alerts.config import AlertConfig
from services.alerts.messages import OutgoingAlert, outgoing, webhook_body
from store.engine import DATABASE_ERRORS, unavailable, write_engine
from store.history import HistoryStore
from store.models import AlertDeliveryRow, AlertRow
from store.watchlist import as_utc

CHANNEL = "webhook"
FIRST_BACKOFF = timedelta(minutes=5)
MAX_BACKOFF = timedelta(hours=6)
#: Answers that mean "try again later" although they are 4xx.
RETRY_STATUSES = frozenset({408, 429})
USER_AGENT = "Authority Dashboard alerts"

ALERTS = AlertRow.__table__
DELIVERIES = AlertDeliveryRow.__table__
#: How many unsent alerts a run names one by one (the rest are counted).
UNSENT_NAMED = 20
T = TypeVar("T")


@dataclass(frozen=True)
class DeliveryReport:
    """What a run did: alerts it delivered and refused, how many still wait (for a later run), and the
    due ones it left unsent when the pass reached its deadline (``unsent``: "alert 12 (rule, subject)")."""

    delivered: int = 0
    waiting: int = 0
    rejected: int = 0
    unsent: tuple[str, ...] = ()

    @property
    def summary(self) -> str:
        line = f"webhook: delivered {self.delivered}, waiting {self.waiting}, rejected {self.rejected}"
        return line + (f", not sent {len(self.unsent)} (out of time)" if self.unsent else "")

    @property
    def ok(self) -> bool:
        """Nothing refused and nothing left unsent for lack of time (either makes the job exit 1)."""
        return self.rejected == 0 and not self.unsent


def backoff(attempts: int) -> timedelta:
    """How long to wait after the ``attempts``-th failed attempt: 5 min doubling, at most 6 h."""
    return min(FIRST_BACKOFF * 2 ** max(attempts - 1, 0), MAX_BACKOFF)


@dataclass(frozen=True)
class Outcome:
    """One POST's result: the row's next state, the status (if any) and what went wrong in words."""

    state: str
    status: int | None
    error: str | None


async def post_alert(
    client: httpx.AsyncClient, url: str, alert: OutgoingAlert, config: AlertConfig, deadline_s: float
) -> Outcome:
    """One POST of one alert, all of it within ``deadline_s`` seconds, and what it means for the row;
    never raises for network trouble."""
    content = json.dumps(webhook_body(alert, config), ensure_ascii=False).encode()
    headers = {
        "Content-Type": "application/json; charset=utf-8",
        "Idempotency-Key": alert.idempotency_key,
        "User-Agent": USER_AGENT,
    }
    try:
        async with asyncio.timeout(deadline_s):
            response = await client.post(url, content=content, headers=headers)
    except (TimeoutError, httpx.TimeoutException):
        return Outcome("pending", None, f"the webhook did not answer within {deadline_s:g} s")
    except httpx.RemoteProtocolError:
        return Outcome("pending", None, "the webhook closed the connection without answering")
    except httpx.ConnectError:
        return Outcome("pending", None, "could not connect to the webhook")
    except httpx.TransportError as exc:
        return Outcome("pending", None, f"the connection to the webhook failed ({type(exc).__name__})")
    status = response.status_code
    if 200 <= status < 300:
        return Outcome("delivered", status, None)
    if status >= 500 or status in RETRY_STATUSES:
        return Outcome("pending", status, f"the webhook answered {status}")
    return Outcome("rejected", status, f"the webhook refused the alert ({status})")


def _of(account: str) -> Any:
    """Delivery rows of ``account``'s alerts only."""
    return DELIVERIES.c.alert_id.in_(select(ALERTS.c.id).where(ALERTS.c.account == account))


def _due(now: datetime, account: str) -> Any:
    return and_(
        DELIVERIES.c.channel == CHANNEL,
        _of(account),
        or_(
            and_(DELIVERIES.c.state == "pending", DELIVERIES.c.next_attempt_at <= now),
            and_(DELIVERIES.c.state == "sending", DELIVERIES.c.claimed_until < now),
        ),
    )


class _Outbox:
    """The delivery rows of one run and one account: claim the next due one, settle it, count the rest."""

    def __init__(self, store: HistoryStore, account: str, claim_for: timedelta) -> None:
        self.store = store
        self.account = account
        self.reader = store.engine
        self.writer = write_engine(store.engine)
        self.claim_for = claim_for

    def claim_next(self, now: datetime, skip: set[int]) -> tuple[int, datetime, OutgoingAlert] | None:
        """The next due row, now "sending" until its claim runs out (None when nothing is due)."""
        while True:
            with self.writer.begin() as conn:
                query = select(DELIVERIES.c.id, DELIVERIES.c.alert_id).where(_due(now, self.account))
                if skip:
                    query = query.where(DELIVERIES.c.id.not_in(sorted(skip)))
                query = query.order_by(DELIVERIES.c.next_attempt_at, DELIVERIES.c.id).limit(1)
                row = conn.execute(query).first()
                if row is None:
                    return None
                claimed_until = now + self.claim_for
                taken = conn.execute(
                    update(DELIVERIES)
                    .where(DELIVERIES.c.id == row.id, _due(now, self.account))
                    .values(state="sending", claimed_until=claimed_until, attempts=DELIVERIES.c.attempts + 1)
                )
                if taken.rowcount != 1:  # another run took it between the read and the update
                    skip.add(row.id)
                    continue
                alert = conn.execute(select(ALERTS).where(ALERTS.c.id == row.alert_id)).one()
            return row.id, claimed_until, outgoing(alert)

    def settle(self, delivery_id: int, claimed_until: datetime, outcome: Outcome, now: datetime) -> None:
        """Record the outcome, if the claim is still this run's (a run that overslept changes nothing)."""
        with self.writer.begin() as conn:
            attempts = conn.execute(
                select(DELIVERIES.c.attempts).where(DELIVERIES.c.id == delivery_id)
            ).scalar_one()
            values: dict[str, Any] = {
                "state": outcome.state,
                "claimed_until": None,
                "last_status": outcome.status,
                "last_error": outcome.error,
            }
            if outcome.state == "delivered":
                values["delivered_at"] = now
            elif outcome.state == "pending":
                values["next_attempt_at"] = now + backoff(attempts)
            conn.execute(
                update(DELIVERIES)
                .where(
                    DELIVERIES.c.id == delivery_id,
                    DELIVERIES.c.state == "sending",
                    DELIVERIES.c.claimed_until == claimed_until,
                )
                .values(**values)
            )

    def waiting(self) -> int:
        query = select(func.count()).where(
            DELIVERIES.c.channel == CHANNEL,
            DELIVERIES.c.state.in_(("pending", "sending")),
            _of(self.account),
        )
        with self.reader.connect() as conn:
            return int(conn.execute(query).scalar_one())

    def still_due(self, now: datetime) -> list[OutgoingAlert]:
        """The alerts due now that this run leaves unsent, in the order it would have sent them."""
        query = (
            select(ALERTS)
            .join(DELIVERIES, DELIVERIES.c.alert_id == ALERTS.c.id)
            .where(_due(now, self.account))
            .order_by(DELIVERIES.c.next_attempt_at, DELIVERIES.c.id)
        )
        with self.reader.connect() as conn:
            return [outgoing(row) for row in conn.execute(query)]


def claim_window(timeout_s: float) -> timedelta:
    """How long a claim holds: a POST (connect, send, read) with room to spare, then another run may."""
    return timedelta(seconds=4 * timeout_s + 60)


def _in_event_loop(work: Coroutine[Any, Any, T]) -> T:
    """Run ``work`` to its end in an event loop of its own (in a worker thread when this thread has one)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(work)
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, work).result()


def _named(alert: OutgoingAlert) -> str:
    """How a run's lines name an alert: "alert 12 (rule, subject)"."""
    return f"alert {alert.id} ({alert.rule_name}, {alert.subject})"


async def _send_due(
    outbox: _Outbox,
    config: AlertConfig,
    clock: Callable[[], datetime],
    say: Callable[[str], None],
    timeout_s: float,
) -> DeliveryReport:
    """The pass: claim, POST and settle each due alert until none is due or the pass's time is up."""
    assert config.webhook_url is not None
    deadline_s = config.delivery_deadline_s
    ends = time.monotonic() + deadline_s
    delivered = rejected = 0
    seen: set[int] = set()
    unsent: list[str] = []
    async with httpx.AsyncClient(timeout=httpx.Timeout(timeout_s), follow_redirects=False) as client:
        while True:
            left = ends - time.monotonic()
            if left <= 0:
                unsent = [_named(alert) for alert in outbox.still_due(clock())]
                break
            claimed = outbox.claim_next(clock(), seen)
            if claimed is None:
                break
            delivery_id, claimed_until, alert = claimed
            seen.add(delivery_id)
            outcome = await post_alert(client, config.webhook_url, alert, config, min(timeout_s, left))
            outbox.settle(delivery_id, claimed_until, outcome, clock())
            if outcome.state == "delivered":
                delivered += 1
                say(f"webhook: sent {_named(alert)}")
            elif outcome.state == "rejected":
                rejected += 1
                say(f"webhook: alert {alert.id} refused: {outcome.error}")
            else:
                say(f"webhook: alert {alert.id} will be retried: {outcome.error}")
    if unsent:
        say(
            f"webhook: the delivery pass reached its deadline ({deadline_s:g} s); not sent, left for "
            f"the next run: {', '.join(unsent[:UNSENT_NAMED])}"
            + (f" and {len(unsent) - UNSENT_NAMED} more" if len(unsent) > UNSENT_NAMED else "")
        )
    return DeliveryReport(delivered, outbox.waiting(), rejected, tuple(unsent))


def deliver_pending(
    store: HistoryStore,
    config: AlertConfig,
    *,
    account: str,
    now: datetime | None = None,
    progress: Callable[[str], None] | None = None,
    timeout_s: float | None = None,
) -> DeliveryReport:
    """POST every due alert of ``account`` (the deployment's own) once, each within
    ``config.webhook_timeout_s`` (``timeout_s`` overrides it) and all within
    ``config.delivery_deadline_s``; ``now`` (UTC) stands for a later run in tests and backfills."""
    say = progress or (lambda _line: None)
    timeout = timeout_s if timeout_s is not None else config.webhook_timeout_s
    outbox = _Outbox(store, account, claim_window(timeout))

    def clock() -> datetime:
        return as_utc(now).astimezone(UTC) if now is not None else datetime.now(UTC)

    try:
        if not config.webhook_url:
            waiting = outbox.waiting()
            if waiting:
                alerts = "1 alert waits" if waiting == 1 else f"{waiting} alerts wait"
                say(f"webhook: not configured, {alerts} for it")
            return DeliveryReport(0, waiting, 0)
        return _in_event_loop(_send_due(outbox, config, clock, say, timeout))
    except DATABASE_ERRORS as exc:
        raise unavailable(exc, store.url, "write to") from exc
