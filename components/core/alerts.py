"""The app's side of alerts, shared by the sidebar, the Alerts page and the demo history.

- ``open_alert_count(conn)``: how many of the account's alerts are open, for the sidebar. Cheap: kept
  ``COUNT_TTL_S`` per database and account, and None (say nothing) when history is unavailable.
  ``forget_count`` drops it after an acknowledgement or an evaluation from this process, so the
  sidebar shows the new number on the very next run. The sidebar is drawn before the page: when the
  page finds a different count (the demo history was just seeded), ``refresh_stale_sidebar`` reruns
  once so the sidebar says it too.
- ``evaluate_demo_alerts``: after the sandbox's demo history is seeded, its last ``DEMO_DAYS`` are
  evaluated once, so the demo shows a month of alerts. Demo alerts are never delivered to a webhook.
- ``check_now``: what ``python -m store alerts`` does for one account, without fetching: the rules run
  over the last ``RECENT_DAYS`` of recorded history. In Live mode, new alerts wait for the webhook
  like the job's (the next scheduled run sends them).
"""

from __future__ import annotations

import logging
import threading
import time
from typing import TYPE_CHECKING

import streamlit as st

from components.core import history
from components.core.connection import Connection

if TYPE_CHECKING:
    from store import EvaluationReport, HistoryStore

logger = logging.getLogger(__name__)

#: How long the sidebar trusts its count (an alert found by the job shows within this time).
COUNT_TTL_S = 30.0
#: How many days, ending at the latest recorded one, the demo and "Check now" evaluate.
RECENT_DAYS = 7
#: How many days the demo history's alerts cover: a month shows several rules (a week shows one or two).
DEMO_DAYS = 30

#: The count the sidebar drew in this session's current run, and the count a rerun was last made for.
DRAWN_KEY = "_alerts_sidebar_count"
_RERUN_FOR_KEY = "_alerts_sidebar_rerun_for"

_counts: dict[tuple[str, str], tuple[float, int]] = {}
_counts_lock = threading.Lock()


def _database() -> str:
    from store import database_url

    return database_url()


def open_alert_count(conn: Connection) -> int | None:
    """The account's open alerts; None when history is unavailable (the sidebar then says nothing)."""
    if not conn.has_key:
        return None
    try:
        store = history.history_store()
        if store is None:
            return None
        key = (_database(), conn.fingerprint)
        with _counts_lock:
            cached = _counts.get(key)
        if cached is not None and cached[0] > time.monotonic():
            return cached[1]
        count = store.open_alert_count(conn.fingerprint)
    except Exception:  # the sidebar never fails a page; the Alerts page says what is wrong
        return None
    with _counts_lock:
        _counts[key] = (time.monotonic() + COUNT_TTL_S, count)
    return count


def remember_drawn(count: int) -> None:
    """The sidebar drew this count in this run."""
    st.session_state[DRAWN_KEY] = count


def refresh_stale_sidebar(conn: Connection) -> None:
    """Rerun once when the open count changed after the sidebar was drawn in this run."""
    drawn = st.session_state.get(DRAWN_KEY)
    now = open_alert_count(conn)
    if drawn is None or now is None or now == drawn or st.session_state.get(_RERUN_FOR_KEY) == now:
        return
    st.session_state[_RERUN_FOR_KEY] = now
    st.rerun()


def forget_count(account: str) -> None:
    """The account's open alerts changed here: count them afresh on the next run."""
    with _counts_lock:
        for key in [key for key in _counts if key[1] == account]:
            del _counts[key]


def evaluate_demo_alerts(store: HistoryStore, account: str) -> None:
    """Evaluate the demo history's last ``DEMO_DAYS`` once (nothing is sent anywhere). A failure is
    logged and leaves the history as it is: the demo's charts never depend on its alerts."""
    try:
        store.evaluate_alerts(account, days=DEMO_DAYS)
    except Exception as exc:
        logger.warning("demo alerts not evaluated: %s", getattr(exc, "reason", None) or type(exc).__name__)
    forget_count(account)


def channels(conn: Connection) -> tuple[str, ...]:
    """Where new alerts of this connection go besides the app: the webhook when one is configured, in
    Live mode only (the sandbox's demo alerts are never sent)."""
    if conn.mode != "live":
        return ()
    from store.alerts.config import AlertConfig

    try:
        return tuple(AlertConfig.load().channels)
    except Exception as exc:  # settings that cannot be read: the alerts are still kept and shown
        logger.warning("alert settings not read: %s", type(exc).__name__)
        return ()


def check_now(conn: Connection, store: HistoryStore) -> EvaluationReport:
    """Run the account's rules over the last ``RECENT_DAYS`` of its history (no fetching)."""
    report = store.evaluate_alerts(conn.fingerprint, days=RECENT_DAYS, channels=channels(conn))
    forget_count(conn.fingerprint)
    return report
