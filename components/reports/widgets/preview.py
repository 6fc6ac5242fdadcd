"""The report in the page: built once per site, month and comment (and dropped when the history
changes), shown as it will print, with its PDF and HTML downloads and the editor's comment."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

import streamlit as st

from components.core.auth import access
from components.core.cache.connection import Connection
from components.core.history import store as history
from components.core.writes.history_changes import history_change_words, tell_after_rerun
from components.reports.built import cached_report, report_pdf
from services.reports.branding import BrandingError, usable_branding
from services.reports.document import BuiltReport, ReportProblem
from store.reports.comments import MAX_COMMENT
from store.reports.period import Period

if TYPE_CHECKING:
    from store import HistoryStore

RESULT_KEY = "_report_comment_result"
#: The preview's height in pixels: about two A4 pages; it scrolls for the rest.
PREVIEW_HEIGHT = 1100


def built_report(conn: Connection, site: str, period: Period) -> BuiltReport | None:
    """The report, from the query cache when this process built it lately; None (said on the page)
    when there is nothing to report or the settings cannot be used."""
    store = history.history_store()
    if store is None:
        st.warning(history.history_problem() or "The history database cannot be used just now.")
        return None
    try:
        branding, logo_refused = usable_branding()
    except BrandingError as exc:
        st.error(f"The report settings cannot be used: {exc}. Fix `[report]` in the secrets file.")
        return None
    if logo_refused:
        st.warning(f"{logo_refused}. Fix `[report]` in the secrets file.", icon=":material/warning:")
    try:
        with st.spinner(f"Drawing the report of {site} for {period.words}…"):
            return cached_report(store, conn.fingerprint, site, period, branding)
    except ReportProblem as exc:
        st.info(str(exc), icon=":material/info:")
        return None


def downloads(built: BuiltReport, account: str) -> None:
    """The PDF (printed on the first click in the process, then kept) and the HTML of ``account``'s
    report."""
    pdf_column, html_column = st.columns(2)
    if built.charts_missing:
        pdf_column.button("Download PDF", disabled=True, key="report_pdf_missing", use_container_width=True)
        pdf_column.caption(built.charts_missing)
    else:
        pdf_column.download_button(
            "Download PDF",
            data=report_pdf(account, built),  # printed when asked for, not on every run
            file_name=f"{built.file_stem}.pdf",
            mime="application/pdf",
            type="primary",
            icon=":material/picture_as_pdf:",
            key="report_pdf",
            use_container_width=True,
        )
    html_column.download_button(
        "Download HTML",
        data=built.html,
        file_name=f"{built.file_stem}.html",
        mime="text/html",
        icon=":material/code:",
        key="report_html",
        use_container_width=True,
    )


def _save_comment(conn: Connection, site: str, period: Period, text: str) -> str:
    person = access.current_person().email

    def save(store: HistoryStore, account: str) -> bool:
        return store.report_comments.set_report_comment(account, site, period, text, person)

    said = ("Comment saved: it is printed in the report.", "The comment was already so.")
    return history_change_words(conn, "comment_report", f"{site} {period.words}: {text[:200]}", save, said)


def comment_form(conn: Connection, site: str, period: Period, current: str | None) -> None:
    may_write, reason = access.write_permission()
    said = st.session_state.pop(RESULT_KEY, None)
    if said:
        st.success(said, icon=":material/edit_note:")
    with st.form("report_comment_form", border=True):
        text = st.text_area(
            "Comment for the reader (printed after the cover; leave empty for none)",
            value=current or "",
            max_chars=MAX_COMMENT,
            key=f"report_comment_{site}_{period.start}_{period.end}",
            disabled=not may_write,
            placeholder="The new guides went live this month; links from two partners are still to come.",
        )
        saved = st.form_submit_button("Save comment", disabled=not may_write, help=reason)
    access.read_only_note(reason)
    if saved:
        tell_after_rerun(RESULT_KEY, functools.partial(_save_comment, conn, site, period, text))


def preview_tab(conn: Connection, site: str, period: Period) -> None:
    built = built_report(conn, site, period)
    if built is None:
        return
    downloads(built, conn.fingerprint)
    comment_form(conn, site, period, built.comment)
    st.iframe(built.html, height=PREVIEW_HEIGHT)
