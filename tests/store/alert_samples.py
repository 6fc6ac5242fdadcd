"""Alerts written straight into a test's store, as evaluation writes them: the alert row and, for each
channel, its "pending" delivery row in the same transaction (see the contract of ``alert_deliveries``).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import insert, select

from store import HistoryStore
from store.models import AlertDeliveryRow, AlertRow

ALERTS = AlertRow.__table__
DELIVERIES = AlertDeliveryRow.__table__
T0 = datetime(2026, 11, 22, 6, 0, tzinfo=UTC)


def add_alert(
    store: HistoryStore,
    account: str,
    title: str,
    *,
    rule: str = "authority_drop",
    subject: str = "stripe.com",
    day: date = date(2026, 11, 22),
    before: str | None = "80",
    after: str | None = "76",
    detail: str | None = None,
    chart: str = "domain",
    created_at: datetime = T0,
    channels: Sequence[str] = ("webhook",),
) -> int:
    """The new alert's id."""
    with store.engine.begin() as conn:
        alert_id = conn.execute(
            insert(ALERTS)
            .values(
                account=account,
                rule=rule,
                fingerprint=f"{subject}|{day.isoformat()}|{title}",
                subject=subject,
                day=day,
                title=title,
                before_value=before,
                after_value=after,
                detail=detail,
                chart=chart,
                chart_subject=subject,
                created_at=created_at,
            )
            .returning(ALERTS.c.id)
        ).scalar_one()
        for channel in channels:
            conn.execute(
                insert(DELIVERIES).values(
                    alert_id=alert_id,
                    channel=channel,
                    state="pending",
                    attempts=0,
                    next_attempt_at=created_at,
                )
            )
    return int(alert_id)


def delivery(store: HistoryStore, alert_id: int) -> Any:
    """The alert's webhook delivery row."""
    with store.engine.connect() as conn:
        return conn.execute(select(DELIVERIES).where(DELIVERIES.c.alert_id == alert_id)).one()
