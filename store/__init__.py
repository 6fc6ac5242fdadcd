"""The history store: a watchlist and daily snapshots per account, in SQLite or PostgreSQL.

No Streamlit here: the app (through one cached resource in ``components/core/history/store.py``), the
daily job (``python -m store snapshot``) and tests use it alike. See ``HistoryStore``.
"""

from store.alerts import ALERT_COLUMNS, RULES, EvaluationReport, RuleSetting
from store.audit import AUDIT_COLUMNS, AUDIT_OUTCOMES, AuditEvent, AuditOutcome
from store.config import database_url, display_url
from store.engine import StoreUnavailable
from store.history import HistoryStore
from store.recording import RecordOutcome, Source
from store.watchlist import WatchItem, WatchKind, WatchOrigin, normalise_subject

__all__ = [
    "ALERT_COLUMNS",
    "AUDIT_COLUMNS",
    "AUDIT_OUTCOMES",
    "RULES",
    "AuditEvent",
    "AuditOutcome",
    "EvaluationReport",
    "HistoryStore",
    "RecordOutcome",
    "RuleSetting",
    "Source",
    "StoreUnavailable",
    "WatchItem",
    "WatchKind",
    "WatchOrigin",
    "database_url",
    "display_url",
    "normalise_subject",
]
