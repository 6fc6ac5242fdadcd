"""The alerts' records: which rules there are and their defaults (``catalog``), and the ``HistoryStore``
side (``state``: settings, alerts found, deliveries pending, acknowledging). The rules themselves, their
evaluation and delivery are services (``services.alerts``); the links an alert points to are the app's
link schema (``analysis.links``). No Streamlit here.
"""

from store.alerts.catalog import RULES, Finding, RuleSetting, RuleSpec
from store.alerts.state import ALERT_COLUMNS, ALERT_STATES, AlertState, EvaluationReport

__all__ = [
    "ALERT_COLUMNS",
    "ALERT_STATES",
    "RULES",
    "AlertState",
    "EvaluationReport",
    "Finding",
    "RuleSetting",
    "RuleSpec",
]
