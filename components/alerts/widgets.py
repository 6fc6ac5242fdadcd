"""The Alerts page's Streamlit pieces: the open alerts as cards (evidence, a link to the chart, an
Acknowledge button), the acknowledged ones, the rules with their thresholds, and "Check now".

Rows come from the history store (``components.core.history.history_store``), one account at a time.
Acknowledging, changing a rule and "Check now" go through ``audited_store_write``: a viewer's attempt
is refused with the reason and audited, and the controls are drawn disabled for them. Every change
runs in a widget callback, before the sidebar is drawn, so its open-alert count is right at once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pandas as pd
import streamlit as st

from components.alerts.frames import (
    ACKNOWLEDGED_COLUMNS,
    OPEN_COLUMNS,
    RULE_COLUMNS,
    RuleRow,
    alert_frame,
    change_words,
    count_words,
    day_words,
    filter_alerts,
    rule_choices,
    rule_rows,
    rules_frame,
    setting_changes,
    setting_words,
    subject_choices,
)
from components.common.text import escape_md
from components.core import access, alerts, history
from components.core.connection import Connection
from components.core.pages import HISTORY, link_to
from components.core.tables import TWO_LINE_ROW_HEIGHT, table_with_export
from components.core.writes import audited_store_write
from store.alerts import chart_query

if TYPE_CHECKING:
    from store import HistoryStore

TAB_KEY = "alerts_tab"
OPEN_TAB = "Open"
ACKNOWLEDGED_TAB = "Acknowledged"
RULES_TAB = "Rules"
#: Where a change leaves its message for the next run to show: (kind, words).
FLASH = "_alerts_flash"
#: How many open alerts are drawn as cards at first, and how many more each "Show more" adds.
CARDS_AT_ONCE = 20
SHOWN_KEY = "_alerts_cards_shown"
RULES_FILTER_KEY = "alerts_rules_filter"
SUBJECTS_FILTER_KEY = "alerts_subjects_filter"
RULES_FORM = "alerts_rules_form"
#: The acknowledged alerts the page reads at most (newest first).
ACKNOWLEDGED_LIMIT = 500
#: Column widths (pixels) that fit either table in a 1280 px laptop's page beside the sidebar (about
#: 780 px inside the fold).
COLUMN_CONFIG: dict[str, Any] = {
    "id": None,
    "rule": None,
    "chart": None,
    "chart_subject": None,
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
RULE_COLUMN_CONFIG: dict[str, Any] = {
    "rule": None,
    "threshold": "Threshold",
    "unit": "Unit",
    "name": st.column_config.TextColumn("Rule"),
    "enabled": st.column_config.CheckboxColumn("On"),
    "threshold_words": st.column_config.TextColumn("Fires at"),
    "describes": st.column_config.TextColumn("What it watches", width="large"),
}


def _flash(kind: str, words: str) -> None:
    st.session_state[FLASH] = (kind, words)


def show_flash() -> None:
    """Once, what the last change from this page did (or why it was refused)."""
    said = st.session_state.pop(FLASH, None)
    if said is None:
        return
    kind, words = said
    if kind == "ok":
        st.success(words, icon=":material/check_circle:")
    elif kind == "refused":
        st.warning(words, icon=":material/lock:")
    else:
        st.error(words, icon=":material/error:")


def _change(conn: Connection, operation: str, target: str, action: Callable[[], Any]) -> tuple[bool, Any]:
    """``action`` through the role check and the audit log: (True, its result), or (False, None) after
    the refusal or the failure was flashed."""
    try:
        result = audited_store_write(conn, operation, target, action)
    except Exception as exc:  # audited as failed; said in words, never a traceback
        _flash("error", f"That did not work: {getattr(exc, 'reason', None) or exc}.")
        return False, None
    if result is None:
        _flash("refused", access.write_permission()[1] or access.EDITORS_ONLY)
        return False, None
    return True, result


# --- "Check now" ---------------------------------------------------------------------------------


def _check_now(conn: Connection) -> None:
    store = history.history_store()
    if store is None:
        _flash("error", f"{history.UNAVAILABLE}: nothing was checked.")
        return
    span = f"last {alerts.RECENT_DAYS} days"
    done, report = _change(conn, "check_alerts", span, lambda: alerts.check_now(conn, store))
    if done:
        known = f"; {report.known} found before are listed already" if report.known else ""
        webhook = (
            " The team's webhook gets them with the next scheduled run."
            if report.new and alerts.channels(conn)
            else ""
        )
        found = count_words(report.new, "new alert")
        _flash("ok", f"Checked the {span} of recorded history: {found}{known}.{webhook}")


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
            on_click=_check_now,
            args=(conn,),
        )


# --- open alerts ---------------------------------------------------------------------------------


def acknowledge(conn: Connection, alert_id: int, subject: str) -> None:
    """Acknowledge one of the account's open alerts (a callback: the outcome is flashed for the next run)."""
    store = history.history_store()
    if store is None:
        _flash("error", f"{history.UNAVAILABLE}: nothing was changed.")
        return
    person = access.current_person().email
    done, changed = _change(
        conn,
        "acknowledge_alert",
        subject,
        lambda: store.acknowledge_alert(conn.fingerprint, alert_id, person),
    )
    alerts.forget_count(conn.fingerprint)
    if done and changed:
        _flash("ok", "Acknowledged: it is on the Acknowledged tab now.")
    elif done:
        _flash("ok", "That alert was acknowledged already (perhaps by someone else).")


def _card(conn: Connection, row: Any, allowed: bool, reason: str | None) -> None:
    """One open alert: what happened, its evidence and rule, the chart, and Acknowledge."""
    with st.container(border=True, key=f"alert_card_{row.id}"):
        words, actions = st.columns([5, 2], vertical_alignment="center")
        with words:
            st.markdown(f"**{escape_md(str(row.title))}**")
            facts = [day_words(row.day), escape_md(str(row.rule_name))]
            change = change_words(row.before, row.after)
            if change and change not in str(row.title):  # many titles say it already
                facts.insert(1, f"**{escape_md(change)}**")
            if isinstance(row.delivery, str) and row.delivery:
                facts.append(f"webhook: {escape_md(row.delivery)}")
            st.caption(" · ".join(facts))
            if isinstance(row.detail, str) and row.detail:
                st.caption(escape_md(row.detail))
        with actions, st.container(horizontal=True, gap="small", vertical_alignment="center"):
            link_to(
                HISTORY,
                label="Chart",
                icon=":material/show_chart:",
                query_params=chart_query(str(row.chart), str(row.chart_subject)),
                help=f"The History page on {row.chart_subject}.",
            )
            st.button(
                "Acknowledge",
                key=f"alert_ack_{row.id}",
                icon=":material/done:",
                disabled=not allowed,
                help=reason or "Mark as seen: it moves to the Acknowledged tab, kept for history.",
                on_click=acknowledge,
                args=(conn, int(row.id), str(row.subject)),
            )


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
    frame = alert_frame(store.alerts(conn.fingerprint, state="open"))
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
    limit = max(CARDS_AT_ONCE, int(st.session_state.get(SHOWN_KEY, CARDS_AT_ONCE)))
    st.caption(f"{len(shown)} of {count_words(len(frame))}, newest first.")
    for row in shown.head(limit).itertuples(index=False):
        _card(conn, row, allowed, reason)
    if len(shown) > limit:
        st.button(
            f"Show {min(CARDS_AT_ONCE, len(shown) - limit)} more",
            key="alerts_show_more",
            on_click=lambda: st.session_state.__setitem__(SHOWN_KEY, limit + CARDS_AT_ONCE),
        )
    with st.expander(f"The {count_words(len(shown))} as a table", icon=":material/table:"):
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


def acknowledged_tab(conn: Connection, store: HistoryStore) -> None:
    frame = alert_frame(store.alerts(conn.fingerprint, state="acknowledged", limit=ACKNOWLEDGED_LIMIT))
    if frame.empty:
        st.info("Nothing acknowledged yet. Acknowledged alerts are kept here.", icon=":material/inbox:")
        return
    frame = frame.sort_values("acknowledged_at", ascending=False, kind="stable").reset_index(drop=True)
    st.caption(f"{count_words(len(frame), 'acknowledged alert')}, last acknowledged first.")
    _table(frame, ACKNOWLEDGED_COLUMNS, what="acknowledged-alerts", key="alerts_acknowledged")


# --- rules -----------------------------------------------------------------------------------------


def _on_key(rule: str) -> str:
    return f"alerts_rule_on_{rule}"


def _threshold_key(rule: str) -> str:
    return f"alerts_rule_threshold_{rule}"


def _save_rules(conn: Connection) -> None:
    store = history.history_store()
    if store is None:
        _flash("error", f"{history.UNAVAILABLE}: nothing was changed.")
        return
    rows = rule_rows(store.alert_settings(conn.fingerprint))
    wanted = {
        row.rule: (
            bool(st.session_state.get(_on_key(row.rule), row.enabled)),
            st.session_state.get(_threshold_key(row.rule), row.threshold),
        )
        for row in rows
    }
    changes = setting_changes(rows, wanted)
    if not changes:
        _flash("ok", "Nothing to save: the rules are as they were.")
        return
    by_rule = {row.rule: row for row in rows}
    person = access.current_person().email
    saved = []
    for change in changes:
        row = by_rule[change.rule]
        words = setting_words(change, row.unit)
        done, _ = _change(
            conn,
            "change_alert_rule",
            f"{row.name}: {words}",
            lambda c=change: store.set_alert_setting(
                conn.fingerprint, c.rule, threshold=c.threshold, enabled=c.enabled, person=person
            ),
        )
        if not done:
            return
        saved.append(f"{row.name} ({words})")
    _flash("ok", "Saved: " + "; ".join(saved) + ". The next check uses them.")


def _rule_controls(row: RuleRow, allowed: bool, reason: str | None) -> None:
    with st.container(border=True):
        switch, threshold = st.columns([3, 1], vertical_alignment="center")
        switch.toggle(row.name, value=row.enabled, key=_on_key(row.rule), disabled=not allowed, help=reason)
        switch.caption(escape_md(row.describes))
        if row.has_threshold:
            threshold.number_input(
                f"At least ({row.unit})" if row.unit else "At least",
                min_value=1.0,
                max_value=row.max_threshold,
                value=row.threshold if row.threshold is not None else row.default_threshold,
                step=1.0,
                format="%g",
                key=_threshold_key(row.rule),
                disabled=not allowed,
                help=reason or f"Default: {row.default_threshold:g}.",
            )
        else:
            threshold.caption("No threshold: it fires whenever this happens.")


def rules_tab(conn: Connection, store: HistoryStore) -> None:
    rows = rule_rows(store.alert_settings(conn.fingerprint))
    allowed, reason = access.write_permission()
    st.caption("Which rules make alerts for this account, and from what size of change.")
    access.read_only_note(reason)
    with st.form(RULES_FORM, border=False):
        for row in rows:
            _rule_controls(row, allowed, reason)
        st.form_submit_button(
            "Save rules",
            icon=":material/save:",
            type="primary",
            disabled=not allowed,
            help=reason,
            on_click=_save_rules,
            args=(conn,),
        )
    with st.expander("The rules as a table", icon=":material/table:"):
        table_with_export(
            rules_frame(rows),
            what="alert-rules",
            key="alerts_rules",
            column_config=RULE_COLUMN_CONFIG,
            column_order=list(RULE_COLUMNS),
            narrowed_to_fit=True,
        )
