"""The Reports page's schedule: a site's monthly report by e-mail, who receives it and whether an editor
approves each one before it goes (editors set and remove it; everyone sees it), the reports waiting for
review with an Approve button for editors, and the latest ones sent or not, in plain words.

``python -m store reports`` (cron) builds and mails them; this page only changes the schedule and
approves. Every change goes through the one audited write path (role check, once, audit row, every page
and replica reads afresh)."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

import streamlit as st

from analysis.text import escape_md
from analysis.wording import counted, screen_day
from components.core.auth import access
from components.core.cache.connection import Connection
from components.core.history import store as app_history
from components.core.history.source import HistorySource
from components.core.writes.history_changes import (
    audited_history_change,
    history_change_words,
    refusal_words,
    tell_after_rerun,
)
from store.reports.schedules import ReportSchedule, ReportSend, check_recipients

if TYPE_CHECKING:
    from store import HistoryStore

RESULT_KEY = "_report_schedule_result"
#: How many of the site's latest reports the page lists.
RECENT = 12
#: How the results of changes that happened begin (anything else, a refusal or a typo, is a warning).
DONE_WORDS = ("Schedule saved", "Schedule removed", "Approved")


def _schedule_words(schedule: ReportSchedule | None, site: str) -> str:
    if schedule is None:
        return f"No monthly report of {escape_md(site)} is scheduled."
    review = (
        "an editor approves each one here before it is sent"
        if schedule.review_first
        else "each one is sent as soon as it is built"
    )
    people = ", ".join(escape_md(address) for address in schedule.recipients)
    return (
        f"Each month's report of {escape_md(site)} goes to {people} after the month ends; {review}. "
        f"Set by {escape_md(schedule.updated_by)} on {screen_day(schedule.updated_at)}."
    )


def _save(conn: Connection, site: str, recipients: str, review_first: bool) -> str:
    wanted = check_recipients(recipients)  # a typo is said at once, before anything is written
    person = access.current_person().email
    target = f"{site}: to {', '.join(wanted)}" + ("; review before sending" if review_first else "")

    def save(store: HistoryStore, account: str) -> bool:
        return store.report_schedules.set_report_schedule(account, site, wanted, review_first, person)

    done = audited_history_change(conn, "set_report_schedule", target, save)
    if done is None:
        return refusal_words()
    if not done:
        return "The schedule already said that: nothing changed."
    count = counted(len(wanted), "recipient")
    after = "after an editor approves it here" if review_first else "as soon as it is built"
    return f"Schedule saved: each month's report goes to {count}, {after}."


def _remove(conn: Connection, site: str) -> str:
    def remove(store: HistoryStore, account: str) -> bool:
        return store.report_schedules.remove_report_schedule(account, site)

    said = ("Schedule removed: no more monthly reports of this site.", "There was no schedule.")
    return history_change_words(conn, "remove_report_schedule", site, remove, said)


def approve(conn: Connection, send: ReportSend) -> str:
    """Let one report waiting for review go out with the next run of the reports job."""
    person = access.current_person().email

    def approve_it(store: HistoryStore, account: str) -> bool:
        return store.report_schedules.approve_report_send(account, send.id, person)

    done = audited_history_change(conn, "approve_report", f"{send.site}, {send.period.words}", approve_it)
    if done is None:
        return refusal_words()
    if not done:
        return "That report was approved already (or is no longer waiting)."
    return f"Approved: the {send.period.words} report goes out with the next run of the reports job."


def _reads(
    conn: Connection, store: HistoryStore, site: str
) -> tuple[ReportSchedule | None, list[ReportSend]]:
    account = conn.fingerprint
    schedule = app_history.cached_read(
        account, f"report_schedule|{site}", lambda: store.report_schedules.report_schedule(account, site)
    )
    sends = app_history.cached_read(
        account,
        f"report_sends|{site}",
        lambda: store.report_schedules.report_sends(account, site, limit=RECENT),
    )
    return schedule, sends


def _form(
    conn: Connection, site: str, schedule: ReportSchedule | None, may_write: bool, reason: str | None
) -> None:
    with st.form(f"report_schedule_form_{site}", border=True):
        recipients = st.text_area(
            "Recipients: one e-mail address a line (at most 20)",
            value="\n".join(schedule.recipients) if schedule else "",
            key=f"report_schedule_recipients_{site}",
            disabled=not may_write,
            placeholder="seo@client.com",
        )
        review = st.checkbox(
            "Review before sending: an editor approves each report here first",
            value=schedule.review_first if schedule else False,
            key=f"report_schedule_review_{site}",
            disabled=not may_write,
        )
        saved = st.form_submit_button("Save schedule", type="primary", disabled=not may_write, help=reason)
    access.read_only_note(reason)
    if saved:
        tell_after_rerun(RESULT_KEY, functools.partial(_save, conn, site, recipients, review))
    if (
        schedule is not None
        and may_write
        and st.button("Remove schedule", key=f"report_schedule_remove_{site}")
    ):
        tell_after_rerun(RESULT_KEY, functools.partial(_remove, conn, site))


def _waiting(
    conn: Connection, store: HistoryStore, sends: list[ReportSend], may_write: bool, reason: str | None
) -> None:
    st.markdown("**Waiting for review**")
    if not sends:
        st.caption("No report is waiting for review.")
        return
    for send in sends:
        words, download, button = st.columns([4, 1.3, 1], vertical_alignment="center")
        to = ", ".join(escape_md(address) for address in send.recipients)
        words.markdown(f"{send.period.words}: built {screen_day(send.built_at)}, for {to}")
        pdf = store.report_schedules.report_send_pdf(conn.fingerprint, send.id)
        if pdf is not None:
            download.download_button(
                "Read the PDF",
                pdf,
                file_name=f"report-{send.site}-{send.period.slug}.pdf",
                mime="application/pdf",
                key=f"report_review_pdf_{send.id}",
            )
        if button.button("Approve", key=f"report_approve_{send.id}", disabled=not may_write, help=reason):
            tell_after_rerun(RESULT_KEY, functools.partial(approve, conn, send))


def _recent(sends: list[ReportSend]) -> None:
    st.markdown("**Latest reports**")
    if not sends:
        st.caption("None yet: the first is built at the first run of the reports job after a month ends.")
        return
    lines = []
    for send in sends:
        when = f" on {screen_day(send.sent_at)}" if send.sent_at is not None else ""
        lines.append(f"- {escape_md(send.words)}{when}")
    st.markdown("\n".join(lines))


def schedule_tab(conn: Connection, source: HistorySource | None, site: str) -> None:
    """``site``'s monthly report schedule and its reports (``source``: the page's history, which says
    whether ``site`` is one of the account's own sites; only those have reports)."""
    store = app_history.history_store()
    if store is None or not conn.has_key or source is None:
        problem = app_history.history_problem() or "there is no history database for this key"
        st.info(
            f"Scheduled reports are kept in the history database, which cannot be used: {escape_md(problem)}"
        )
        return
    own = {
        subject
        for kind, subject, origin, _site in source.watch_items()
        if kind == "domain" and origin == "own"
    }
    if site not in own:
        st.info(f"{escape_md(site)} is not one of your sites: only your own sites have monthly reports.")
        return
    result = st.session_state.pop(RESULT_KEY, None)
    if result:
        done = result.startswith(DONE_WORDS)
        (st.success if done else st.warning)(result, icon=":material/schedule_send:" if done else None)
    may_write, reason = access.write_permission()
    try:
        schedule, sends = _reads(conn, store, site)
    except Exception as exc:  # a failing database never breaks the page
        app_history.store_failed(exc)
        st.warning(f"The schedule cannot be read just now: {escape_md(app_history.history_problem())}")
        return
    st.markdown(_schedule_words(schedule, site))
    _form(conn, site, schedule, may_write, reason)
    _waiting(conn, store, [send for send in sends if send.state == "waiting_review"], may_write, reason)
    _recent([send for send in sends if send.state != "waiting_review"])
