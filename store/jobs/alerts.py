"""The ``alerts`` command's work, and the evaluation the snapshot runs after recording a day.

Evaluation reads only the store (no API request, no quota); delivery posts the alerts that wait in the
outbox to the webhook (``store.alerts.webhook.deliver_pending``), for every account at once. The lines
printed here are what cron mail shows: how many alerts are new, how many were already known, and what
became of the webhook deliveries.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from typing import TYPE_CHECKING

from store.alerts.state import EvaluationReport
from store.history import HistoryStore

if TYPE_CHECKING:
    from store.alerts.config import AlertConfig
    from store.alerts.webhook import DeliveryReport

Progress = Callable[[str], None]


@dataclass
class AlertsRun:
    """What one run found and delivered (``delivery`` is None when nothing was posted)."""

    new: int = 0
    known: int = 0
    by_rule: dict[str, int] = field(default_factory=dict)
    delivery: DeliveryReport | None = None

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
        d = self.delivery
        return (
            f"webhook: delivered {d.delivered}, waiting {d.waiting}, rejected {d.rejected}"
            if d is not None
            else "webhook: not configured"
        )


def _deliver(store: HistoryStore, config: AlertConfig, progress: Progress) -> DeliveryReport:
    from store.alerts.webhook import deliver_pending

    return deliver_pending(store, config, progress=progress)


def run_alerts(
    store: HistoryStore,
    config: AlertConfig,
    *,
    as_of: date | None,
    days: int,
    progress: Progress,
) -> AlertsRun:
    """Re-evaluate every account with history (``days`` days ending ``as_of``, or each account's latest
    snapshot day), then deliver whatever waits for the webhook."""
    run = AlertsRun()
    for account in store.alert_accounts():
        report = store.evaluate_alerts(account, as_of=as_of, days=days, channels=config.channels)
        run.add(report)
        found = ", ".join(f"{rule} {count}" for rule, count in report.by_rule.items())
        progress(
            f"account {account[:12]}: {report.new} new, {report.known} already known"
            + (f" ({found})" if found else "")
        )
    run.delivery = _deliver(store, config, progress)
    return run


def after_snapshot(
    store: HistoryStore, config: AlertConfig, account: str, day: date, progress: Progress
) -> AlertsRun:
    """Evaluate the day just recorded for its account; post to the webhook when one is configured."""
    run = AlertsRun()
    run.add(store.evaluate_alerts(account, as_of=day, days=1, channels=config.channels))
    if config.channels:
        run.delivery = _deliver(store, config, progress)
    return run
