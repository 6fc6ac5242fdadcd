"""The app's side of alerts, shared by the sidebar, the Alerts page and the demo history.

- ``open_alert_count(conn)``: how many of the account's alerts are open, for the sidebar. Cheap: kept
  in the history's query cache (``history.cached_read``, up to a minute per database and account), and
  None (say nothing) when history is unavailable. ``forget_count`` drops it after an acknowledgement,
  a reopen or an evaluation from this process, and seeding the demo history drops it too, so the
  sidebar shows the new number on the very next run. The sidebar is drawn before the page: when the
  page finds a different count (the demo history was just seeded), ``refresh_stale_sidebar`` reruns
  once so the sidebar says it too.
- ``check_now``: what ``python -m store alerts`` does for one account, without fetching: the rules run
  over the last ``RECENT_DAYS`` of recorded history. In Live mode, new alerts wait for the webhook
  like the job's (the next scheduled run sends them).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import streamlit as st

from components.core import history
from components.core.connection import Connection

if TYPE_CHECKING:
    from store import EvaluationReport, HistoryStore

logger = logging.getLogger(__name__)

#: How many days, ending at the latest recorded one, "Check now" evaluates.
RECENT_DAYS = 7

#: The count the sidebar drew in this session's current run, and the count a rerun was last made for.
DRAWN_KEY = "_alerts_sidebar_count"
_RERUN_FOR_KEY = "_alerts_sidebar_rerun_for"


def open_alert_count(conn: Connection) -> int | None:
    """The account's open alerts; None when history is unavailable (the sidebar then says nothing)."""
    if not conn.has_key:
        return None
    try:
        store = history.history_store()
        if store is None:
            return None
        account = conn.fingerprint
        return history.cached_read(account, "open_alert_count", lambda: store.open_alert_count(account))
    except Exception:  # the sidebar never fails a page; the Alerts page says what is wrong
        return None


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
    history.account_changed(account)


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
