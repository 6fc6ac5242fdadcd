"""Alerts: what changed in the history that someone should look at, found by the alert rules.

Open alerts first (each with its evidence, a link to the chart on the History page and Acknowledge),
then the acknowledged ones kept for history (each with Reopen), then the rules (edits kept until saved
or discarded). The rows are read through the history store; when it cannot be used the page says why,
like the History page. The pieces live in ``components.alerts``.
"""

from __future__ import annotations

from components.alerts.changes import show_flash
from components.alerts.rules_tab import rules_tab
from components.alerts.widgets import (
    ACKNOWLEDGED_TAB,
    OPEN_TAB,
    RULES_TAB,
    TAB_KEY,
    acknowledged_tab,
    check_now_row,
    open_tab,
)
from components.core.cache.connection import current_connection
from components.core.history import alerts
from components.core.history import store as history
from components.core.nav.pages import ALERTS, page_header
from components.core.nav.tabs import lazy_tabs
from components.history.widgets import guarded, unavailable_notice


def _page() -> None:
    conn = current_connection()
    is_demo = history.ensure_demo_history(conn)
    store = history.history_store()
    if store is None or not conn.has_key:
        unavailable_notice()
        return
    alerts.refresh_stale_sidebar(conn)  # e.g. the demo history's alerts were just found
    check_now_row(conn, is_demo=is_demo)
    show_flash()
    lazy_tabs(
        {
            OPEN_TAB: guarded(lambda: open_tab(conn, store)),
            ACKNOWLEDGED_TAB: guarded(lambda: acknowledged_tab(conn, store)),
            RULES_TAB: guarded(lambda: rules_tab(conn, store)),
        },
        key=TAB_KEY,
    )


page_header(
    ALERTS,
    "Drops in DR, keywords leaving the top 10, links lost, partners who stopped linking: found in the "
    "history every day, each with its evidence and a link to the chart.",
)
guarded(_page)()
