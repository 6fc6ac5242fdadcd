"""What the webhook is sent: an alert as it leaves the database (``OutgoingAlert``) and its body.

Two formats (``[alerts] format``): "slack", ``{"text": …}`` with the title, before → after, the detail and
a link to the chart, Slack's control characters escaped so a service's text cannot mention @channel or
fake a link; and "json", the alert's fields and the link. Neither holds the account, the API key or the
webhook URL.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from analysis.links import alert_url
from services.alerts.config import AlertConfig
from store.alerts.catalog import RULES


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
    #: The evidence its chart link opens on (see ``analysis.links.alert_evidence``).
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


def outgoing(row: Any) -> OutgoingAlert:
    """An ``alerts`` row as the webhook sees it."""
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
