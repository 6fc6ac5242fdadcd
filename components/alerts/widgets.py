"""The Alerts page's Streamlit pieces: the open alerts as cards (evidence, a link to the chart, an
Acknowledge button), the acknowledged ones as cards with Reopen, their tables, and "Check now".

Rows come from the history store (``components.core.history.store.history_store``), one account at a time.
What the buttons change (and how it is checked and audited) is in ``components.alerts.changes``; the
controls are drawn disabled for people who may only read, each saying why. The Rules tab is
``components.alerts.rules_tab``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pandas as pd
import streamlit as st

from analysis.links import MARKET_PATH, alert_query, chart_path
from analysis.text import escape_md
from analysis.wording import counted, screen_day
from components.alerts.changes import acknowledge, check_now, reopen
from components.alerts.frames import (
    ACKNOWLEDGED_COLUMNS,
    OPEN_COLUMNS,
    alert_frame,
    alert_words,
    change_words,
    filter_alerts,
    person_words,
    rule_choices,
    subject_choices,
)
from components.core.auth import access
from components.core.cache.connection import Connection
from components.core.history import alerts
from components.core.nav.pages import HISTORY, MARKET, link_to
from components.core.ui.tables import TWO_LINE_ROW_HEIGHT, table_with_export

if TYPE_CHECKING:
    from store import HistoryStore

TAB_KEY = "alerts_tab"
OPEN_TAB = "Open"
ACKNOWLEDGED_TAB = "Acknowledged"
RULES_TAB = "Rules"
#: How many alerts a tab draws as cards at first, and how many more each "Show more" adds.
CARDS_AT_ONCE = 20
SHOWN_KEY = "_alerts_cards_shown"
ACKNOWLEDGED_SHOWN_KEY = "_alerts_acknowledged_cards_shown"
ACKNOWLEDGE_HELP = "Mark as seen: it moves to the Acknowledged tab, kept for history (and can be reopened)."
REOPEN_HELP = "Put it back among the open alerts, to look at again. The team's webhook does not get it twice."


@dataclass(frozen=True)
class CardChange:
    """A card's button that changes its alert: the label, its key (before the alert's id), its icon, its
    help (when the person may change it) and the change, run in the button's callback."""

    label: str
    key: str
    icon: str
    help: str
    change: Callable[[Connection, int, str, str], None]


ACKNOWLEDGE = CardChange("Acknowledge", "alert_ack", ":material/done:", ACKNOWLEDGE_HELP, acknowledge)
REOPEN = CardChange("Reopen", "alert_reopen", ":material/undo:", REOPEN_HELP, reopen)
RULES_FILTER_KEY = "alerts_rules_filter"
SUBJECTS_FILTER_KEY = "alerts_subjects_filter"
#: The acknowledged alerts the page reads at most (newest first).
ACKNOWLEDGED_LIMIT = 500
#: Column widths (pixels) that fit either table in a 1280 px laptop's page beside the sidebar (about
#: 780 px inside the fold).
COLUMN_CONFIG: dict[str, Any] = {
    "id": None,
    "rule": None,
    "chart": None,
    "chart_subject": None,
    "since": None,
    "metric": None,
    "referring_domain": None,
    "site": None,
    "day": st.column_config.DateColumn("Day", format="YYYY-MM-DD", width=95),
    "title": st.column_config.TextColumn("What happened", width=260),
    "change": st.column_config.TextColumn("Before → after", width=95),
    "rule_name": st.column_config.TextColumn("Rule", width=120),
    "subject": st.column_config.TextColumn("About", width=120),
    "delivery": st.column_config.TextColumn("Webhook", width=80),
    "before": "Before",
    "after": "After",
    "detail": "Details",
    "created_at": st.column_config.DatetimeColumn("Found (UTC)", format="YYYY-MM-DD HH:mm"),
    "acknowledged_by": st.column_config.TextColumn("Acknowledged by", width=150),
    "acknowledged_at": st.column_config.DatetimeColumn(
        "Acknowledged (UTC)", format="YYYY-MM-DD HH:mm", width=140
    ),
}


# --- "Check now" ---------------------------------------------------------------------------------


def check_now_row(conn: Connection, *, is_demo: bool) -> None:
    """What the page is fed by, and "Check now" (editors and admins)."""
    allowed, reason = access.write_permission()
    with st.container(horizontal=True, vertical_alignment="center"):
        st.caption(
            ("**Demo alerts**, found in the sandbox's demo history. " if is_demo else "")
            + "The rules run after each daily snapshot (`python -m store snapshot`). "
            f"Check now runs them over the last {alerts.RECENT_DAYS} days of recorded history without "
            "fetching anything.",
        )
        st.button(
            "Check now",
            key="alerts_check_now",
            icon=":material/refresh:",
            disabled=not allowed,
            help=reason or f"Run the rules over the last {alerts.RECENT_DAYS} days of recorded history.",
            on_click=check_now,
            args=(conn,),
        )


# --- open alerts ---------------------------------------------------------------------------------


def _change_button(button: CardChange, conn: Connection, row: Any, allowed: bool, reason: str | None) -> None:
    """``button`` on the card of ``row``; greyed, with the ``reason`` as its help, when not ``allowed``."""
    st.button(
        button.label,
        key=f"{button.key}_{row.id}",
        icon=button.icon,
        disabled=not allowed,
        help=reason or button.help,
        on_click=button.change,
        args=(conn, int(row.id), _named(row), str(row.title)),
    )


def _named(row: Any) -> str:
    """The alert as its audit row names it: rule, subject and day."""
    return alert_words(row.rule_name, row.subject, row.day)


def _card(conn: Connection, row: Any, allowed: bool, reason: str | None) -> None:
    """One open alert: what happened, its evidence and rule, the chart, and Acknowledge."""
    with st.container(border=True, key=f"alert_card_{row.id}"):
        words, actions = st.columns([5, 2], vertical_alignment="center")
        with words:
            st.markdown(f"**{escape_md(str(row.title))}**")
            facts = [screen_day(row.day), escape_md(str(row.rule_name))]
            change = change_words(row.before, row.after)
            if change and change not in str(row.title):  # many titles say it already
                facts.insert(1, f"**{escape_md(change)}**")
            if isinstance(row.delivery, str) and row.delivery:
                facts.append(f"webhook: {escape_md(row.delivery)}")
            st.caption(" · ".join(facts))
            if isinstance(row.detail, str) and row.detail:
                st.caption(escape_md(row.detail))
        with actions, st.container(horizontal=True, gap="small", vertical_alignment="center"):
            on_market = chart_path(str(row.chart)) == MARKET_PATH
            link_to(
                MARKET if on_market else HISTORY,
                label="Chart",
                icon=":material/show_chart:",
                query_params=alert_query(row),
                help=f"The {'Market' if on_market else 'History'} page on {escape_md(row.chart_subject)}, "
                "marking what the alert compared.",
            )
            _change_button(ACKNOWLEDGE, conn, row, allowed, reason)


def _filters(frame: pd.DataFrame) -> pd.DataFrame:
    """Rule and subject filters, when there is something to choose between."""
    rules, subjects = rule_choices(frame), subject_choices(frame)
    if len(rules) < 2 and len(subjects) < 2:
        return frame
    left, right = st.columns(2)
    chosen_rules = left.multiselect("Rule", rules, key=RULES_FILTER_KEY, placeholder="Every rule")
    chosen_subjects = right.multiselect(
        "About", subjects, key=SUBJECTS_FILTER_KEY, placeholder="Every domain and keyword"
    )
    return filter_alerts(frame, rules=chosen_rules, subjects=chosen_subjects)


def open_tab(conn: Connection, store: HistoryStore) -> None:
    found = alerts.open_alerts(conn, store)  # the read the sidebar's count comes from: one number
    frame = alert_frame(found.rows)
    if frame.empty:
        st.success(
            "**No open alerts.** When a rule fires (a watched domain loses DR, a tracked keyword leaves "
            "the top 10, a partner stops linking…) the alert is listed here with its evidence.",
            icon=":material/notifications_off:",
        )
        return
    shown = _filters(frame)
    allowed, reason = access.write_permission()
    access.read_only_note(reason)
    st.caption(f"{len(shown)} of {counted(found.count, 'open alert')}, newest first.")
    _cards(shown, SHOWN_KEY, "alerts_show_more", lambda row: _card(conn, row, allowed, reason))
    with st.expander(f"The {counted(len(shown), 'open alert')} as a table", icon=":material/table:"):
        _table(shown, OPEN_COLUMNS, what="open-alerts", key="alerts_open")


def _table(frame: pd.DataFrame, columns: tuple[str, ...], *, what: str, key: str) -> None:
    table_with_export(
        frame,
        what=what,
        key=key,
        column_config=COLUMN_CONFIG,
        column_order=list(columns),
        row_height=TWO_LINE_ROW_HEIGHT,
        narrowed_to_fit=True,
    )


# --- acknowledged alerts ---------------------------------------------------------------------------


def _cards(frame: pd.DataFrame, shown_key: str, more_key: str, draw: Callable[[Any], None]) -> None:
    """The first cards of ``frame`` and a button for the next ones, so a long list never draws hundreds
    of cards at once; how many are shown is kept in ``shown_key`` for the session."""
    limit = max(CARDS_AT_ONCE, int(st.session_state.get(shown_key, CARDS_AT_ONCE)))
    for row in frame.head(limit).itertuples(index=False):
        draw(row)
    if len(frame) > limit:
        st.button(
            f"Show {min(CARDS_AT_ONCE, len(frame) - limit)} more",
            key=more_key,
            on_click=lambda: st.session_state.__setitem__(shown_key, limit + CARDS_AT_ONCE),
        )


def _acknowledged_card(conn: Connection, row: Any, allowed: bool, reason: str | None) -> None:
    """One acknowledged alert: what happened, who acknowledged it and when, and Reopen."""
    with st.container(border=True, key=f"alert_done_card_{row.id}"):
        words, actions = st.columns([5, 2], vertical_alignment="center")
        with words:
            st.markdown(f"**{escape_md(str(row.title))}**")
            facts = [screen_day(row.day), escape_md(str(row.rule_name))]
            who = person_words(row.acknowledged_by)
            when = f" on {row.acknowledged_at:%b %d, %Y %H:%M} UTC" if pd.notna(row.acknowledged_at) else ""
            if who:
                facts.append(f"acknowledged by {escape_md(who)}{when}")
            st.caption(" · ".join(facts))
        with actions:
            _change_button(REOPEN, conn, row, allowed, reason)


def acknowledged_tab(conn: Connection, store: HistoryStore) -> None:
    frame = alert_frame(
        store.alerts.entries(conn.fingerprint, state="acknowledged", limit=ACKNOWLEDGED_LIMIT)
    )
    if frame.empty:
        st.info("Nothing acknowledged yet. Acknowledged alerts are kept here.", icon=":material/inbox:")
        return
    frame = frame.sort_values("acknowledged_at", ascending=False, kind="stable").reset_index(drop=True)
    allowed, reason = access.write_permission()
    access.read_only_note(reason)
    st.caption(f"{counted(len(frame), 'acknowledged alert')}, last acknowledged first.")
    _cards(
        frame,
        ACKNOWLEDGED_SHOWN_KEY,
        "alerts_acknowledged_show_more",
        lambda row: _acknowledged_card(conn, row, allowed, reason),
    )
    with st.expander(f"The {counted(len(frame), 'acknowledged alert')} as a table", icon=":material/table:"):
        _table(frame, ACKNOWLEDGED_COLUMNS, what="acknowledged-alerts", key="alerts_acknowledged")
