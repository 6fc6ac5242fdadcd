"""The Alerts page's Rules tab: each rule's switch and threshold, with edits kept until saved or discarded.

Edits are a draft until saved. Only the open tab is drawn, and Streamlit forgets the state of a widget
that is not drawn, so each edit is copied to the session as it is made (``DRAFT_KEY``): switching to
another tab and back brings the edits back, under an "Unsaved changes" note that names them, with Save
and Discard below the rules. Saving goes through the page's role check and audit log, one "done" row
per changed rule; saving with nothing changed leaves one "no change" row, so the log never claims a
change that did not happen.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

import streamlit as st

from analysis.text import escape_md
from components.alerts.changes import change, flash
from components.alerts.frames import (
    RULE_COLUMNS,
    RuleRow,
    rule_rows,
    rules_frame,
    setting_changes,
    setting_words,
)
from components.core.auth import access
from components.core.cache.connection import Connection
from components.core.history import store as history
from components.core.ui.tables import table_with_export

if TYPE_CHECKING:
    from store import HistoryStore, RuleSetting

#: The rules' edits not saved yet: rule → (on, threshold), as last set on the tab.
DRAFT_KEY = "_alerts_rules_draft"
SAVE_KEY = "alerts_rules_save"
DISCARD_KEY = "alerts_rules_discard"
#: What an unchanged save is about in the audit log.
ALL_RULES = "Alert rules"
RULE_COLUMN_CONFIG: dict[str, Any] = {
    "rule": None,
    "threshold": "Threshold",
    "unit": "Unit",
    "name": st.column_config.TextColumn("Rule"),
    "enabled": st.column_config.CheckboxColumn("On"),
    "threshold_words": st.column_config.TextColumn("Fires at"),
    "describes": st.column_config.TextColumn("What it watches", width="large"),
}


def _on_key(rule: str) -> str:
    return f"alerts_rule_on_{rule}"


def _threshold_key(rule: str) -> str:
    return f"alerts_rule_threshold_{rule}"


def _draft() -> dict[str, tuple[bool, float | None]]:
    return st.session_state.setdefault(DRAFT_KEY, {})


def _saved_threshold(row: RuleRow) -> float | None:
    return row.threshold if row.threshold is not None else row.default_threshold


def _remember(row: RuleRow) -> None:
    """Widget callback: this rule's switch and threshold, as just set, go into the draft (and out of it
    when they are back as saved)."""
    enabled = bool(st.session_state.get(_on_key(row.rule), row.enabled))
    threshold = st.session_state.get(_threshold_key(row.rule), _saved_threshold(row))
    wanted = (enabled, threshold if row.has_threshold else None)
    if setting_changes([row], {row.rule: wanted}):
        _draft()[row.rule] = wanted
    else:
        _draft().pop(row.rule, None)


def _forget_edits() -> None:
    """Drop the draft and the widgets' own state: the next run draws the rules as saved."""
    for rule in st.session_state.pop(DRAFT_KEY, {}):
        st.session_state.pop(_on_key(rule), None)
        st.session_state.pop(_threshold_key(rule), None)


def _unsaved(rows: list[RuleRow]) -> list[RuleSetting]:
    """The edits that differ from the saved rules (an edit put back as it was is no edit)."""
    return setting_changes(rows, _draft())


def _save_rules(conn: Connection) -> None:
    store = history.history_store()
    if store is None:
        flash("error", f"{history.UNAVAILABLE}: nothing was changed.")
        return
    rows = rule_rows(store.alerts.alert_settings(conn.fingerprint))
    for row in rows:  # the switches as now set win, whatever order this run's callbacks came in
        if _on_key(row.rule) in st.session_state:
            _remember(row)
    changes = _unsaved(rows)
    if not changes:  # nothing edited, or someone else saved the same meanwhile
        done, _ = change(conn, "change_alert_rule", ALL_RULES, lambda: False, changed=bool)
        if done:
            _forget_edits()
            flash("ok", "Nothing to save: the rules are as they were.")
        return
    by_rule = {row.rule: row for row in rows}
    person = access.current_person().email
    saved = []
    for setting in changes:
        row = by_rule[setting.rule]
        words = setting_words(setting, row.unit)
        done, _ = change(
            conn,
            "change_alert_rule",
            f"{row.name}: {words}",
            partial(
                store.alerts.set_alert_setting,
                conn.fingerprint,
                setting.rule,
                threshold=setting.threshold,
                enabled=setting.enabled,
                person=person,
            ),
        )
        if not done:  # refused or failed (flashed): the edits stay, to save again
            return
        saved.append(f"{row.name} ({words})")
    _forget_edits()
    flash("ok", "Saved: " + "; ".join(saved) + ". The next check uses them.")


def _discard() -> None:
    _forget_edits()
    flash("ok", "Discarded: the rules are as saved.")


def _rule_controls(row: RuleRow, allowed: bool, reason: str | None) -> None:
    """One rule's switch and threshold, drawn from the draft when it was edited, else as saved."""
    enabled, threshold = _draft().get(row.rule, (row.enabled, _saved_threshold(row)))
    st.session_state.setdefault(_on_key(row.rule), enabled)
    with st.container(border=True):
        switch, box = st.columns([3, 1], vertical_alignment="center")
        switch.toggle(
            row.name,
            key=_on_key(row.rule),
            disabled=not allowed,
            help=reason,
            on_change=_remember,
            args=(row,),
        )
        switch.caption(escape_md(row.describes))
        if row.has_threshold:
            st.session_state.setdefault(_threshold_key(row.rule), threshold)
            box.number_input(
                f"At least ({row.unit})" if row.unit else "At least",
                min_value=1.0,
                max_value=row.max_threshold,
                step=1.0,
                format="%g",
                key=_threshold_key(row.rule),
                disabled=not allowed,
                help=reason or f"Default: {row.default_threshold:g}.",
                on_change=_remember,
                args=(row,),
            )
        else:
            box.caption("No threshold: it fires whenever this happens.")


def _unsaved_note(rows: list[RuleRow], unsaved: list[RuleSetting]) -> None:
    by_rule = {row.rule: row for row in rows}
    edits = "; ".join(f"{by_rule[s.rule].name} ({setting_words(s, by_rule[s.rule].unit)})" for s in unsaved)
    st.warning(
        f"**Unsaved changes:** {escape_md(edits)}. They are not used until saved: **Save rules** or "
        "**Discard changes** below the rules.",
        icon=":material/edit_note:",
    )


def rules_tab(conn: Connection, store: HistoryStore) -> None:
    rows = rule_rows(store.alerts.alert_settings(conn.fingerprint))
    allowed, reason = access.write_permission()
    st.caption("Which rules make alerts for this account, and from what size of change.")
    access.read_only_note(reason)
    if not allowed:
        _forget_edits()  # e.g. taken off the editors' list meanwhile: nothing left to save
    unsaved = _unsaved(rows)
    if unsaved:
        _unsaved_note(rows, unsaved)
    for row in rows:
        _rule_controls(row, allowed, reason)
    with st.container(horizontal=True, gap="small"):
        st.button(
            "Save rules",
            key=SAVE_KEY,
            icon=":material/save:",
            type="primary",
            disabled=not allowed,
            help=reason,
            on_click=_save_rules,
            args=(conn,),
        )
        st.button(
            "Discard changes",
            key=DISCARD_KEY,
            icon=":material/undo:",
            disabled=not unsaved,
            help=reason or "Put every rule back as saved.",
            on_click=_discard,
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
