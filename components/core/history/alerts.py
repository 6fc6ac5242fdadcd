"""The app's side of alerts, shared by the sidebar, the Alerts page and the demo history.

- ``open_alerts(conn, store)``: the account's open alerts, one read shared by the sidebar's count
  (``open_alert_count``) and the Alerts page's Open tab, so the two always say the same number. It is
  kept in the history's query cache (``history.cached_read``) for ``history.QUERY_TTL_S`` (a minute) per
  database and account: alerts a job run in another process finds show on both within that minute.
  ``forget_count`` drops it at once after an acknowledgement, a reopen or a Check now from this process
  (and, with the shared cache, in every other process), and seeding the demo history drops it too. The
  sidebar is drawn before the page: when the page finds a different count (the demo history was just
  seeded), ``refresh_stale_sidebar`` reruns once so the sidebar says it too.
- ``check_now``: what ``python -m store alerts`` does for one account, without fetching: the rules run
  over the last ``RECENT_DAYS`` of recorded history. In Live mode with the deployment's own key, new
  alerts wait for the webhook like the job's (the next scheduled run sends them); with a key entered in
  the session they stay in the app, since the team's channels carry only the deployment's account.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING

import pandas as pd
import streamlit as st

from client.settings import key_fingerprint
from components.core.cache.connection import Connection, configured_settings
from components.core.history import store as history
from services.alerts.evaluate import evaluate_alerts

if TYPE_CHECKING:
    from store import EvaluationReport, HistoryStore

logger = logging.getLogger(__name__)

#: How many days, ending at the latest recorded one, "Check now" evaluates.
RECENT_DAYS = 7

#: The count the sidebar drew in this session's current run, and the count a rerun was last made for.
DRAWN_KEY = "_alerts_sidebar_count"
_RERUN_FOR_KEY = "_alerts_sidebar_rerun_for"


#: The open alerts the Open tab reads at most (newest first); the count counts them all.
OPEN_LIMIT = 500


@dataclass(frozen=True)
class OpenAlerts:
    """The account's open alerts as one read: ``rows`` (the store's columns, newest first, at most
    ``OPEN_LIMIT``) and ``count``, all of them. Shared by every session: never change ``rows``."""

    rows: pd.DataFrame
    count: int


def _read_open(store: HistoryStore, account: str) -> OpenAlerts:
    rows = store.alerts.entries(account, state="open", limit=OPEN_LIMIT)
    # Fewer than the limit: they are all of them. Only beyond it is a second question needed.
    count = len(rows) if len(rows) < OPEN_LIMIT else store.alerts.open_alert_count(account)
    return OpenAlerts(rows, count)


def open_alerts(conn: Connection, store: HistoryStore) -> OpenAlerts:
    """The account's open alerts, from the read the sidebar and the Alerts page share (kept up to
    ``history.QUERY_TTL_S``, dropped by ``forget_count``). Raises what the store raises."""
    account = conn.fingerprint
    return history.cached_read(account, "open_alerts", lambda: _read_open(store, account))


def open_alert_count(conn: Connection) -> int | None:
    """How many of the account's alerts are open (the count of ``open_alerts``); None when history is
    unavailable (the sidebar then says nothing)."""
    if not conn.has_key:
        return None
    try:
        store = history.history_store()
        if store is None:
            return None
        return open_alerts(conn, store).count
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
    Live mode with the deployment's own key only (the sandbox's demo alerts, and the alerts of a key
    someone entered in the session, are never sent to the team's channel)."""
    if conn.mode != "live" or not conn.has_key:
        return ()
    team = configured_settings().api_key
    if team is None or key_fingerprint(team.get_secret_value()) != conn.fingerprint:
        return ()
    from services.alerts.config import AlertConfig

    try:
        return tuple(AlertConfig.load().channels)
    except Exception as exc:  # settings that cannot be read: the alerts are still kept and shown
        logger.warning("alert settings not read: %s", type(exc).__name__)
        return ()


def check_now(conn: Connection, store: HistoryStore) -> EvaluationReport:
    """Run the account's rules over the last ``RECENT_DAYS`` of its history (no fetching)."""
    report = evaluate_alerts(store, conn.fingerprint, days=RECENT_DAYS, channels=channels(conn))
    forget_count(conn.fingerprint)
    return report
