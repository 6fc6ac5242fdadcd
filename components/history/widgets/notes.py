"""Notes on charts, in the app: each time chart's "Notes on the chart" switch and the markers it draws
(editors' notes, Google's confirmed updates, a group's keyword-set changes), and the Notes tab where
editors add and remove notes. Adding and removing go through the one audited write path."""

from __future__ import annotations

import functools
from collections.abc import Iterable
from datetime import date
from typing import TYPE_CHECKING

import pandas as pd
import streamlit as st

from analysis.market.markers import every_marker, markers_for
from analysis.wording import screen_day
from components.core.auth import access
from components.core.cache.connection import Connection
from components.core.history.source import HistorySource
from components.core.ui.tables import table_with_export
from components.core.writes.history_changes import history_change_words, tell_after_rerun
from store.notes import Note

if TYPE_CHECKING:
    from store import HistoryStore

RESULT_KEY = "_chart_notes_result"
NOTE_CONFIG = {
    "day": st.column_config.DateColumn("Day", format="MMM D, YYYY", pinned=True),
    "end_day": st.column_config.DateColumn("Until", format="MMM D, YYYY"),
    "kind": st.column_config.TextColumn("Kind"),
    "text": st.column_config.TextColumn("Note", width="large"),
    "subject": st.column_config.TextColumn("About"),
    "keyword_group": st.column_config.TextColumn("Group"),
    "created_by": st.column_config.TextColumn("By"),
}
KIND_WORDS = {"note": "note", "google_update": "Google update"}


def chart_markers(
    source: HistorySource,
    *,
    key: str,
    since: date | None,
    until: date,
    subjects: Iterable[str] = (),
    group: str | None = None,
    extra: pd.DataFrame | None = None,
) -> pd.DataFrame | None:
    """The markers one chart shows, under its own switch (None when switched off): the notes of its
    days that name none or one of its ``subjects`` (and its ``group``), Google's updates, and ``extra``."""
    if not st.toggle("Notes on the chart", value=True, key=f"{key}_notes"):
        return None
    return markers_for(every_marker(source.notes(since), extra), since, until, subjects, group)


def _add(conn: Connection, note: Note) -> str:
    person = access.current_person().email

    def add(store: HistoryStore, account: str) -> bool:
        return bool(store.notes.add_note(account, note, person))

    added = "Note added: it shows on the charts of its day."
    return history_change_words(
        conn, "add_note", f"{note.day:%Y-%m-%d}: {note.text[:200]}", add, (added, added)
    )


def _remove(conn: Connection, note_id: int, words: str) -> str:
    def remove(store: HistoryStore, account: str) -> bool:
        return store.notes.remove_note(account, note_id)

    return history_change_words(
        conn, "remove_note", words, remove, ("Note removed.", "That note was already removed.")
    )


def notes_tab(
    conn: Connection, source: HistorySource, today: date, subjects: list[str], groups: list[str]
) -> None:
    may_write, reason = access.write_permission()
    result = st.session_state.pop(RESULT_KEY, None)
    if result:
        st.success(result, icon=":material/edit_note:")
    with st.form("chart_note_form", border=True):
        left, right = st.columns([1, 3])
        day = left.date_input("Day", value=today, max_value=today, key="note_day", disabled=not may_write)
        text = right.text_input(
            "What happened", key="note_text", disabled=not may_write, placeholder="Pricing page relaunched"
        )
        about, group_column, kind_column = st.columns(3)
        subject = about.selectbox(
            "About",
            ["", *subjects],
            format_func=lambda s: s or "Everything",
            key="note_subject",
            disabled=not may_write,
        )
        group = group_column.selectbox(
            "Keyword group",
            ["", *groups],
            format_func=lambda g: g or "Any",
            key="note_group",
            disabled=not may_write,
        )
        google = kind_column.checkbox("A Google update", key="note_google", disabled=not may_write)
        added = st.form_submit_button("Add note", type="primary", disabled=not may_write, help=reason)
    access.read_only_note(reason)
    if added:
        note = Note(day, text, subject or None, group or None, "google_update" if google else "note")
        tell_after_rerun(RESULT_KEY, functools.partial(_add, conn, note))
    notes = source.notes(None)
    if notes.empty:
        st.caption("No note yet. Google's confirmed ranking updates are marked on the charts already.")
        return
    shown = notes.assign(kind=notes["kind"].map(lambda k: KIND_WORDS.get(k, k)))
    table_with_export(
        shown.drop(columns=["id", "link"]).iloc[::-1],
        what="chart-notes",
        key="chart_notes",
        column_config=NOTE_CONFIG,
    )
    if may_write:
        labels = {int(row.id): f"{screen_day(row.day)}: {row.text[:60]}" for row in notes.itertuples()}
        chosen = st.selectbox(
            "Remove a note",
            [None, *labels],
            format_func=lambda i: "—" if i is None else labels[i],
            key="note_remove",
        )
        if chosen is not None and st.button("Remove note", key="note_remove_button"):
            tell_after_rerun(RESULT_KEY, functools.partial(_remove, conn, chosen, labels[chosen]))
