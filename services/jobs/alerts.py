"""The ``alerts`` command's work, and the evaluation the snapshot runs after recording a day.

Evaluation reads only the store (no API request, no quota) and covers every account with history, so
each key's alerts are on the Alerts page for the people using it. The team's channels carry only the
deployment's own account (``team``: the fingerprint of the key in its environment or secrets): only its
new alerts get a webhook delivery row, and delivery (``services.delivery.webhook.deliver_pending``) posts
only its alerts. Without a deployment key nothing is sent, and the run says why. The lines printed
here are what cron mail shows: how many alerts are new, how many were already known, and what became
of the webhook deliveries.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from typing import TYPE_CHECKING

from services.alerts.evaluate import evaluate_alerts
from store.alerts.state import EvaluationReport
from store.history import HistoryStore

if TYPE_CHECKING:
    from services.alerts.config import AlertConfig
    from services.delivery.webhook import DeliveryReport

Progress = Callable[[str], None]

NO_TEAM_KEY = (
    "webhook: nothing sent: no API key is configured for this deployment (VERIFIEDDR_API_KEY or api_key "
    "in .streamlit/secrets.toml), and the team's channels carry only that key's alerts"
)


@dataclass
class AlertsRun:
    """What one run found and delivered (``delivery`` is None when nothing was posted; ``no_team``: a
    webhook is configured but the deployment has no key, so nothing could be sent)."""

    new: int = 0
    known: int = 0
    by_rule: dict[str, int] = field(default_factory=dict)
    delivery: DeliveryReport | None = None
    no_team: bool = False

    def add(self, report: EvaluationReport) -> None:
        self.new += report.new
        self.known += report.known
        for rule, count in report.by_rule.items():
            self.by_rule[rule] = self.by_rule.get(rule, 0) + count

    @property
    def alerts_line(self) -> str:
        return f"alerts: {self.new} new, {self.known} already known"

    @property
    def webhook_line(self) -> str:
        if self.no_team:
            return "webhook: nothing sent (no API key for this deployment)"
        return self.delivery.summary if self.delivery is not None else "webhook: not configured"

    @property
    def ok(self) -> bool:
        """Everything due was sent or is waiting for a retry: nothing refused, nothing left for lack of
        time, and a configured webhook had a deployment key to send for."""
        return not self.no_team and (self.delivery is None or self.delivery.ok)


def _deliver(store: HistoryStore, config: AlertConfig, team: str, progress: Progress) -> DeliveryReport:
    from services.delivery.webhook import deliver_pending

    return deliver_pending(store, config, account=team, progress=progress)


def run_alerts(
    store: HistoryStore,
    config: AlertConfig,
    *,
    team: str | None,
    as_of: date | None,
    days: int,
    progress: Progress,
) -> AlertsRun:
    """Re-evaluate every account with history (``days`` days ending ``as_of``, or each account's latest
    snapshot day), then deliver whatever of ``team``'s alerts waits for the webhook."""
    run = AlertsRun()
    for account in store.alerts.alert_accounts():
        channels = config.channels if account == team else ()
        report = evaluate_alerts(store, account, as_of=as_of, days=days, channels=channels)
        run.add(report)
        found = ", ".join(f"{rule} {count}" for rule, count in report.by_rule.items())
        progress(
            f"account {account[:12]}: {report.new} new, {report.known} already known"
            + (f" ({found})" if found else "")
        )
    if team is None:
        run.no_team = bool(config.channels)
        if run.no_team:
            progress(NO_TEAM_KEY)
        return run
    run.delivery = _deliver(store, config, team, progress)
    return run


def after_snapshot(
    store: HistoryStore, config: AlertConfig, account: str, day: date, progress: Progress
) -> AlertsRun:
    """Evaluate the day just recorded for its account (the deployment's own: the snapshot runs with its
    key); post its alerts to the webhook when one is configured."""
    run = AlertsRun()
    run.add(evaluate_alerts(store, account, as_of=day, days=1, channels=config.channels))
    if config.channels:
        run.delivery = _deliver(store, config, account, progress)
    return run
