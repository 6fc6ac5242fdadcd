"""The alert side of ``HistoryStore``: rule settings, the alerts found, acknowledging and reopening them,
counts.

Everything is per account: a query names its account, and acknowledging or reopening checks the alert
belongs to it, so one account can never see nor change another's alert. Recording findings is idempotent:
an alert is unique per (account, rule, fingerprint) and a second evaluation of the same day inserts
nothing (``ON CONFLICT DO NOTHING``); each new alert gets one delivery row per channel in the same
transaction, so an alert found before a webhook was configured is never sent later.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import Any, Literal

import pandas as pd
from sqlalchemy import func, insert, select, union, update
from sqlalchemy.dialects import postgresql, sqlite

from store.alerts.catalog import RULES, Finding, RuleSetting, check_setting, default_setting
from store.engine import Connected
from store.models import (
    SUBJECT_LEN,
    AlertDeliveryRow,
    AlertRow,
    AlertRuleRow,
    DomainSnapshotRow,
    KeywordSnapshotRow,
    TrustMapSnapshotRow,
)
from store.watchlist import as_utc, check_account, insert_if_new

AlertState = Literal["open", "acknowledged", "all"]
ALERT_STATES = ("open", "acknowledged", "all")
ALERT_COLUMNS = (
    "id",
    "rule",
    "rule_name",
    "subject",
    "day",
    "title",
    "before",
    "after",
    "detail",
    "chart",
    "chart_subject",
    "created_at",
    "acknowledged_at",
    "acknowledged_by",
    "delivery",
    # The evidence the chart link opens on (``analysis.links.alert_query``).
    "since",
    "metric",
    "referring_domain",
    "site",
)
#: The channel a delivery row is for (the only one there is).
WEBHOOK = "webhook"

RULE_ROWS = AlertRuleRow.__table__
ALERTS = AlertRow.__table__
DELIVERIES = AlertDeliveryRow.__table__
SNAPSHOT_TABLES = (DomainSnapshotRow.__table__, TrustMapSnapshotRow.__table__, KeywordSnapshotRow.__table__)


@dataclass(frozen=True)
class EvaluationReport:
    """What an evaluation recorded: new alerts, ones already known, and the new ones by rule."""

    new: int = 0
    known: int = 0
    by_rule: dict[str, int] = field(default_factory=dict)


def delivery_words(state: str | None, attempts: int | None, status: int | None) -> str | None:
    """The webhook delivery of an alert in plain words (None: the alert has none)."""
    if state is None:
        return None
    tries = attempts or 0
    if state == "delivered":
        return "sent"
    if state == "rejected":
        return f"refused by the webhook ({status})" if status else "refused by the webhook"
    if state == "sending":
        return "being sent"
    if tries == 0:
        return "waiting to be sent"
    return f"waiting to retry ({tries} attempt{'s' if tries != 1 else ''})"


def _now() -> datetime:
    return datetime.now(UTC)


class Alerts(Connected):
    """The alerts of every account (``HistoryStore.alerts``): rule settings, alerts found, acknowledging."""

    # --- rule settings ------------------------------------------------------------------------

    def alert_settings(self, account: str) -> dict[str, RuleSetting]:
        """Every rule's setting for the account, defaults where it chose nothing, in catalog order."""
        query = select(RULE_ROWS.c.rule, RULE_ROWS.c.threshold, RULE_ROWS.c.enabled).where(
            RULE_ROWS.c.account == check_account(account)
        )
        with self._reading() as conn:
            chosen = {row.rule: row for row in conn.execute(query)}
        settings: dict[str, RuleSetting] = {}
        for rule in RULES:
            row = chosen.get(rule)
            settings[rule] = (
                default_setting(rule)
                if row is None
                else RuleSetting(
                    rule,
                    row.threshold if RULES[rule].default_threshold is not None else None,
                    bool(row.enabled),
                )
            )
        return settings

    def set_alert_setting(
        self, account: str, rule: str, *, threshold: float | None, enabled: bool, person: str
    ) -> RuleSetting:
        """Store the account's choice for one rule; ValueError for an unknown rule or a bad threshold."""
        value = check_setting(rule, threshold)
        row = {
            "account": check_account(account),
            "rule": rule,
            "threshold": value,
            "enabled": bool(enabled),
            "updated_at": _now(),
            "updated_by": (person or "")[:SUBJECT_LEN] or None,
        }
        with self._writing() as conn:
            dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
            stmt = dialect.insert(RULE_ROWS).values(row)
            stmt = stmt.on_conflict_do_update(
                index_elements=["account", "rule"],
                set_={
                    name: stmt.excluded[name] for name in ("threshold", "enabled", "updated_at", "updated_by")
                },
            )
            conn.execute(stmt)
        return RuleSetting(rule, value, bool(enabled))

    # --- evaluating and recording -------------------------------------------------------------

    def latest_snapshot_day(self, account: str) -> date | None:
        """The newest day the account has any snapshot of (None: it has none)."""
        check_account(account)
        days = union(
            *(select(func.max(t.c.day).label("day")).where(t.c.account == account) for t in SNAPSHOT_TABLES)
        )
        with self._reading() as conn:
            found = [row.day for row in conn.execute(select(days.subquery().c.day)) if row.day is not None]
        return max(found) if found else None

    def record_findings(
        self, account: str, findings: Sequence[Finding], channels: Sequence[str] = ()
    ) -> EvaluationReport:
        """Store the findings as alerts (each once), with a pending delivery per channel for each new one."""
        check_account(account)
        unknown = [channel for channel in channels if channel != WEBHOOK]
        if unknown:
            raise ValueError(f"an alert is delivered to the webhook only, not {', '.join(unknown)}")
        new, known, by_rule = 0, 0, dict.fromkeys(RULES, 0)
        now = _now()
        with self._writing() as conn:
            for finding in findings:
                alert_id = insert_if_new(
                    conn, ALERTS, _alert_row(account, finding, now), ("account", "rule", "fingerprint")
                )
                if alert_id is None:
                    known += 1
                    continue
                new += 1
                by_rule[finding.rule] += 1
                if channels:
                    conn.execute(
                        insert(DELIVERIES),
                        [
                            {
                                "alert_id": alert_id,
                                "channel": channel,
                                "state": "pending",
                                "attempts": 0,
                                "next_attempt_at": now,
                            }
                            for channel in dict.fromkeys(channels)
                        ],
                    )
        return EvaluationReport(new, known, {rule: count for rule, count in by_rule.items() if count})

    # --- reading, acknowledging and reopening -------------------------------------------------

    def entries(
        self,
        account: str,
        *,
        state: AlertState = "open",
        since: date | None = None,
        limit: int = 500,
    ) -> pd.DataFrame:
        """The account's alerts, newest first (by day, then as found), with their webhook delivery."""
        if state not in ALERT_STATES:
            raise ValueError(f"state is one of {', '.join(ALERT_STATES)}")
        query = (
            select(
                ALERTS.c.id,
                ALERTS.c.rule,
                ALERTS.c.subject,
                ALERTS.c.day,
                ALERTS.c.title,
                ALERTS.c.before_value,
                ALERTS.c.after_value,
                ALERTS.c.detail,
                ALERTS.c.chart,
                ALERTS.c.chart_subject,
                ALERTS.c.created_at,
                ALERTS.c.acknowledged_at,
                ALERTS.c.acknowledged_by,
                DELIVERIES.c.state,
                DELIVERIES.c.attempts,
                DELIVERIES.c.last_status,
                ALERTS.c.since,
                ALERTS.c.metric,
                ALERTS.c.referring_domain,
                ALERTS.c.site,
            )
            .outerjoin(DELIVERIES, (DELIVERIES.c.alert_id == ALERTS.c.id) & (DELIVERIES.c.channel == WEBHOOK))
            .where(ALERTS.c.account == check_account(account))
        )
        if state == "open":
            query = query.where(ALERTS.c.acknowledged_at.is_(None))
        elif state == "acknowledged":
            query = query.where(ALERTS.c.acknowledged_at.is_not(None))
        if since is not None:
            query = query.where(ALERTS.c.day >= since)
        query = query.order_by(ALERTS.c.day.desc(), ALERTS.c.id.desc()).limit(max(0, int(limit)))
        with self._reading() as conn:
            rows = conn.execute(query).all()
        records = [
            (
                row.id,
                row.rule,
                RULES[row.rule].name if row.rule in RULES else row.rule,
                row.subject,
                row.day,
                row.title,
                row.before_value,
                row.after_value,
                row.detail,
                row.chart,
                row.chart_subject,
                as_utc(row.created_at),
                as_utc(row.acknowledged_at) if row.acknowledged_at is not None else None,
                row.acknowledged_by,
                delivery_words(row.state, row.attempts, row.last_status),
                row.since,
                row.metric,
                row.referring_domain,
                row.site,
            )
            for row in rows
        ]
        frame = pd.DataFrame(records, columns=list(ALERT_COLUMNS))
        frame["id"] = frame["id"].astype("int64")
        frame["day"] = pd.to_datetime(frame["day"]).astype("datetime64[ns]")
        frame["created_at"] = pd.to_datetime(frame["created_at"], utc=True)
        frame["acknowledged_at"] = pd.to_datetime(frame["acknowledged_at"], utc=True)
        for name in ALERT_COLUMNS:
            if name not in ("id", "day", "created_at", "acknowledged_at"):
                frame[name] = frame[name].astype("object")
        return frame

    def open_alert_count(self, account: str) -> int:
        """How many of the account's alerts nobody has acknowledged yet."""
        query = select(func.count()).where(
            ALERTS.c.account == check_account(account), ALERTS.c.acknowledged_at.is_(None)
        )
        with self._reading() as conn:
            return int(conn.execute(query).scalar() or 0)

    def acknowledge_alert(self, account: str, alert_id: int, person: str) -> bool:
        """Mark one of the account's open alerts as seen; False if it is not the account's or is seen."""
        if not person:
            raise ValueError("acknowledging an alert names the person who does it")
        stmt = (
            update(ALERTS)
            .where(
                ALERTS.c.id == int(alert_id),
                ALERTS.c.account == check_account(account),
                ALERTS.c.acknowledged_at.is_(None),
            )
            .values(acknowledged_at=_now(), acknowledged_by=person[:SUBJECT_LEN])
        )
        with self._writing() as conn:
            return conn.execute(stmt).rowcount == 1

    def reopen_alert(self, account: str, alert_id: int) -> bool:
        """Put one of the account's acknowledged alerts back among the open ones; False if it is not the
        account's or is open already. Its webhook delivery is left as it is: a reopened alert is one the
        team wants to look at again, not news to send the channel a second time."""
        stmt = (
            update(ALERTS)
            .where(
                ALERTS.c.id == int(alert_id),
                ALERTS.c.account == check_account(account),
                ALERTS.c.acknowledged_at.is_not(None),
            )
            .values(acknowledged_at=None, acknowledged_by=None)
        )
        with self._writing() as conn:
            return conn.execute(stmt).rowcount == 1

    def alert_accounts(self) -> list[str]:
        """Every account with any snapshot (the ones the alert and digest jobs run over), sorted."""
        accounts = union(*(select(t.c.account) for t in SNAPSHOT_TABLES))
        with self._reading() as conn:
            return sorted(row.account for row in conn.execute(select(accounts.subquery().c.account)))


def _alert_row(account: str, finding: Finding, now: datetime) -> dict[str, Any]:
    return {
        "account": account,
        "rule": finding.rule,
        "fingerprint": finding.fingerprint,
        "subject": finding.subject[:SUBJECT_LEN],
        "day": finding.day,
        "title": finding.title,
        "before_value": finding.before[:64] if finding.before else finding.before,
        "after_value": finding.after[:64] if finding.after else finding.after,
        "detail": finding.detail,
        "chart": finding.chart,
        "chart_subject": finding.chart_subject[:SUBJECT_LEN],
        "created_at": now,
        "since": finding.since,
        "metric": finding.metric,
        "referring_domain": _short(finding.referring_domain),
        "site": _short(finding.site),
    }


def _short(text: str | None) -> str | None:
    return text[:SUBJECT_LEN] if text else text
