"""Delivering alerts to the webhook exactly once: the outbox rows of ``alert_deliveries``.

Evaluation makes a "pending" delivery row with each alert (``store.alerts.evaluate``); only this module
changes it afterwards. A run claims one due row at a time with a conditional UPDATE (pending and due,
or "sending" whose claim ran out because a run died mid-way), so two runs at once never both send an
alert; SQLite's write transactions queue (BEGIN IMMEDIATE) and PostgreSQL re-checks the WHERE of an
UPDATE that waited for a row lock. Then it POSTs, and settles the row:

- 2xx: "delivered";
- a timeout, a 5xx, a 408/429, a refused or dropped connection: "pending" again, due after
  ``backoff(attempts)`` (5 min, 10 min, 20 min, … at most 6 h): retried by a later run, never dropped;
- any other answer (a 4xx: a wrong or revoked URL): "rejected" with the status, shown in the app.

Each POST carries ``Idempotency-Key: alert-<account[:12]>-<id>``, so a receiver that honours it drops the
copy a crash between "sent" and "settled" may cause. Bodies hold the alert and a link back to the
dashboard, never the account, the API key or the webhook URL; error texts stored on the row are plain
words that never quote the URL.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

import httpx
from sqlalchemy import and_, func, or_, select, update

from store.alerts.catalog import RULES
from store.alerts.config import AlertConfig
from store.alerts.links import alert_url
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


@dataclass(frozen=True)
class DeliveryReport:
    """What a run did: alerts it delivered and refused, and how many still wait (for a later run)."""

    delivered: int = 0
    waiting: int = 0
    rejected: int = 0

    @property
    def summary(self) -> str:
        return f"webhook: delivered {self.delivered}, waiting {self.waiting}, rejected {self.rejected}"


@dataclass(frozen=True)
class OutgoingAlert:
    """An alert as the webhook sees it (no account: that stays in the database)."""

    id: int
    account: str
    rule: str
    subject: str
    day: date
    title: str
    before: str | None
    after: str | None
    detail: str | None
    chart: str
    chart_subject: str
    #: The evidence its chart link opens on (see ``store.alerts.links.alert_evidence``).
    since: date | None = None
    metric: str | None = None
    referring_domain: str | None = None
    site: str | None = None

    @property
    def rule_name(self) -> str:
        spec = RULES.get(self.rule)
        return spec.name if spec is not None else self.rule

    @property
    def idempotency_key(self) -> str:
        return f"alert-{self.account[:12]}-{self.id}"


def backoff(attempts: int) -> timedelta:
    """How long to wait after the ``attempts``-th failed attempt: 5 min doubling, at most 6 h."""
    return min(FIRST_BACKOFF * 2 ** max(attempts - 1, 0), MAX_BACKOFF)


def alert_link(alert: OutgoingAlert, dashboard_url: str) -> str:
    """The chart the alert is about (the dashboard itself for a chart this version does not know)."""
    try:
        return alert_url(dashboard_url, alert)
    except ValueError:
        return dashboard_url


def _slack_escape(text: str) -> str:
    """Slack's three control characters, so a service's text cannot mention @channel or fake a link."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def slack_body(alert: OutgoingAlert, dashboard_url: str) -> dict[str, Any]:
    """``{"text": …}``: the title, before → after, the detail and a link to the chart."""
    lines = [f"*{_slack_escape(alert.title)}*"]
    if alert.before is not None or alert.after is not None:
        lines.append(f"{_slack_escape(alert.before or '—')} → {_slack_escape(alert.after or '—')}")
    if alert.detail:
        lines.append(_slack_escape(alert.detail))
    lines.append(
        f"{_slack_escape(alert.rule_name)} · {alert.day.isoformat()} · "
        f"<{alert_link(alert, dashboard_url)}|Open the chart>"
    )
    return {"text": "\n".join(lines)}


def json_body(alert: OutgoingAlert, dashboard_url: str) -> dict[str, Any]:
    return {
        "id": alert.id,
        "rule": alert.rule,
        "rule_name": alert.rule_name,
        "subject": alert.subject,
        "day": alert.day.isoformat(),
        "title": alert.title,
        "before": alert.before,
        "after": alert.after,
        "detail": alert.detail,
        "link": alert_link(alert, dashboard_url),
    }


def webhook_body(alert: OutgoingAlert, config: AlertConfig) -> dict[str, Any]:
    if config.webhook_format == "json":
        return json_body(alert, config.dashboard_url)
    return slack_body(alert, config.dashboard_url)


@dataclass(frozen=True)
class Outcome:
    """One POST's result: the row's next state, the status (if any) and what went wrong in words."""

    state: str
    status: int | None
    error: str | None


def post_alert(client: httpx.Client, url: str, alert: OutgoingAlert, config: AlertConfig) -> Outcome:
    """One POST of one alert and what it means for the row; never raises for network trouble."""
    content = json.dumps(webhook_body(alert, config), ensure_ascii=False).encode()
    headers = {
        "Content-Type": "application/json; charset=utf-8",
        "Idempotency-Key": alert.idempotency_key,
        "User-Agent": USER_AGENT,
    }
    try:
        response = client.post(url, content=content, headers=headers)
    except httpx.TimeoutException:
        return Outcome("pending", None, "the webhook did not answer in time")
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


def _due(now: datetime) -> Any:
    return and_(
        DELIVERIES.c.channel == CHANNEL,
        or_(
            and_(DELIVERIES.c.state == "pending", DELIVERIES.c.next_attempt_at <= now),
            and_(DELIVERIES.c.state == "sending", DELIVERIES.c.claimed_until < now),
        ),
    )


class _Outbox:
    """The delivery rows of one run: claim the next due one, settle it, count the rest."""

    def __init__(self, store: HistoryStore, claim_for: timedelta) -> None:
        self.store = store
        self.reader = store.engine
        self.writer = write_engine(store.engine)
        self.claim_for = claim_for

    def claim_next(self, now: datetime, skip: set[int]) -> tuple[int, datetime, OutgoingAlert] | None:
        """The next due row, now "sending" until its claim runs out (None when nothing is due)."""
        while True:
            with self.writer.begin() as conn:
                query = select(DELIVERIES.c.id, DELIVERIES.c.alert_id).where(_due(now))
                if skip:
                    query = query.where(DELIVERIES.c.id.not_in(sorted(skip)))
                query = query.order_by(DELIVERIES.c.next_attempt_at, DELIVERIES.c.id).limit(1)
                row = conn.execute(query).first()
                if row is None:
                    return None
                claimed_until = now + self.claim_for
                taken = conn.execute(
                    update(DELIVERIES)
                    .where(DELIVERIES.c.id == row.id, _due(now))
                    .values(state="sending", claimed_until=claimed_until, attempts=DELIVERIES.c.attempts + 1)
                )
                if taken.rowcount != 1:  # another run took it between the read and the update
                    skip.add(row.id)
                    continue
                alert = conn.execute(select(ALERTS).where(ALERTS.c.id == row.alert_id)).one()
            return row.id, claimed_until, _outgoing(alert)

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
            DELIVERIES.c.channel == CHANNEL, DELIVERIES.c.state.in_(("pending", "sending"))
        )
        with self.reader.connect() as conn:
            return int(conn.execute(query).scalar_one())


def _outgoing(row: Any) -> OutgoingAlert:
    return OutgoingAlert(
        id=row.id,
        account=row.account,
        rule=row.rule,
        subject=row.subject,
        day=row.day,
        title=row.title,
        before=row.before_value,
        after=row.after_value,
        detail=row.detail,
        chart=row.chart,
        chart_subject=row.chart_subject,
        since=row.since,
        metric=row.metric,
        referring_domain=row.referring_domain,
        site=row.site,
    )


def claim_window(timeout_s: float) -> timedelta:
    """How long a claim holds: a POST (connect, send, read) with room to spare, then another run may."""
    return timedelta(seconds=4 * timeout_s + 60)


def deliver_pending(
    store: HistoryStore,
    config: AlertConfig,
    *,
    now: datetime | None = None,
    progress: Callable[[str], None] | None = None,
    timeout_s: float = 10.0,
) -> DeliveryReport:
    """POST every due alert once; ``now`` (UTC) stands for a later run in tests and backfills."""
    say = progress or (lambda _line: None)
    outbox = _Outbox(store, claim_window(timeout_s))

    def clock() -> datetime:
        return as_utc(now).astimezone(UTC) if now is not None else datetime.now(UTC)

    try:
        if not config.webhook_url:
            waiting = outbox.waiting()
            if waiting:
                alerts = "1 alert waits" if waiting == 1 else f"{waiting} alerts wait"
                say(f"webhook: not configured, {alerts} for it")
            return DeliveryReport(0, waiting, 0)
        delivered = rejected = 0
        seen: set[int] = set()
        timeout = httpx.Timeout(timeout_s)
        with httpx.Client(timeout=timeout, follow_redirects=False) as client:
            while (claimed := outbox.claim_next(clock(), seen)) is not None:
                delivery_id, claimed_until, alert = claimed
                seen.add(delivery_id)
                outcome = post_alert(client, config.webhook_url, alert, config)
                outbox.settle(delivery_id, claimed_until, outcome, clock())
                if outcome.state == "delivered":
                    delivered += 1
                    say(f"webhook: sent alert {alert.id} ({alert.rule_name}, {alert.subject})")
                elif outcome.state == "rejected":
                    rejected += 1
                    say(f"webhook: alert {alert.id} refused: {outcome.error}")
                else:
                    say(f"webhook: alert {alert.id} will be retried: {outcome.error}")
        return DeliveryReport(delivered, outbox.waiting(), rejected)
    except DATABASE_ERRORS as exc:
        raise unavailable(exc, store.url, "write to") from exc
