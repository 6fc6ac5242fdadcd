"""Alerts: rules evaluated on the recorded history, kept per account, delivered to a webhook.

``catalog`` names the rules and their defaults; ``rules`` are pure functions from history frames to
findings; ``evaluate`` reads the store and records what the rules find for a range of days; ``state``
is the ``HistoryStore`` side (settings, alerts, acknowledging); ``links`` builds the History page
links an alert points to. No Streamlit here.
"""

from store.alerts.catalog import RULES, Finding, RuleSetting, RuleSpec
from store.alerts.links import (
    HISTORY_PATH,
    MARKET_PATH,
    Evidence,
    alert_evidence,
    alert_query,
    alert_url,
    chart_path,
    chart_query,
    chart_url,
)
from store.alerts.state import ALERT_COLUMNS, ALERT_STATES, AlertState, EvaluationReport

__all__ = [
    "ALERT_COLUMNS",
    "ALERT_STATES",
    "HISTORY_PATH",
    "MARKET_PATH",
    "RULES",
    "AlertState",
    "EvaluationReport",
    "Evidence",
    "Finding",
    "RuleSetting",
    "RuleSpec",
    "alert_evidence",
    "alert_query",
    "alert_url",
    "chart_path",
    "chart_query",
    "chart_url",
]
