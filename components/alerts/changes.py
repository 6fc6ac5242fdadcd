"""What the Alerts page changes: "Check now", acknowledging and reopening an alert, and the message each
leaves for the next run.

Every change goes through ``audited_store_write``: a viewer's attempt is refused with the reason and
audited, and nothing is sent to the service, so a change that went through is audited as "done", one
that found nothing to change (an alert someone else acknowledged a moment before) as "no change". An
alert is named in its audit row by its rule, subject and day (``alert_words``) with its title as the
detail, so two acknowledged alerts about one site can be told apart on the Activity page. Each change
runs in a widget callback, before the sidebar is drawn, so its open-alert count is right at once.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any, ParamSpec, TypeVar

import streamlit as st

from analysis.wording import counted
from components.core.auth import access
from components.core.cache.connection import Connection
from components.core.history import alerts
from components.core.history import store as history
from components.core.ui.errors import callout
from components.core.writes.writes import audited_store_write
from store.alerts import EvaluationReport

P = ParamSpec("P")
R = TypeVar("R")

#: Where a change leaves its message for the next run to show: (kind, words).
FLASH = "_alerts_flash"
#: How each kind of message is shown (any other kind is an error).
FLASH_LEVEL = {"ok": "success", "refused": "warning"}


def flash(kind: str, words: str) -> None:
    """Keep a message for the next run: ``kind`` is "ok", "refused" or "error"."""
    st.session_state[FLASH] = (kind, words)


def show_flash() -> None:
    """Once, what the last change from this page did (or why it was refused)."""
    said = st.session_state.pop(FLASH, None)
    if said is None:
        return
    kind, words = said
    refused = kind == "refused"
    callout(FLASH_LEVEL.get(kind, "error"), words, icon=":material/lock:" if refused else None)


def _flashed(write: Callable[P, R]) -> Callable[P, tuple[bool, R | None]]:
    """``write`` (taking the same arguments) whose refusal or failure is flashed: (True, its result), or
    (False, None) once the refusal or the failure was flashed for the next run."""

    def flashing(*args: P.args, **kwargs: P.kwargs) -> tuple[bool, R | None]:
        try:
            result = write(*args, **kwargs)
        except Exception as exc:  # audited as failed; said in words, never a traceback
            flash("error", f"That did not work: {getattr(exc, 'reason', None) or exc}.")
            return False, None
        if result is None:
            flash("refused", access.write_permission()[1] or access.EDITORS_ONLY)
            return False, None
        return True, result

    return flashing


#: ``action`` through the role check and the audit log (``audited_store_write``, with its arguments): (True,
#: its result), or (False, None) after the refusal or the failure was flashed.
change = _flashed(audited_store_write)


def _found_something_new(report: EvaluationReport) -> bool:
    """Whether a check opened any alert (finding nothing new is audited as no change)."""
    return report.new > 0


def check_now(conn: Connection) -> None:
    """Run the rules over the recent history (a callback); finding nothing new is audited as no change."""
    store = history.history_store()
    if store is None:
        flash("error", f"{history.UNAVAILABLE}: nothing was checked.")
        return
    span = f"last {alerts.RECENT_DAYS} days"
    # Assigned before unpacking: mypy infers the result's type from an unpacking target otherwise.
    outcome = change(
        conn, "check_alerts", span, partial(alerts.check_now, conn, store), changed=_found_something_new
    )
    done, report = outcome
    if done and report is not None:
        known = f"; {report.known} found before are listed already" if report.known else ""
        webhook = (
            " The team's webhook gets them with the next scheduled run."
            if report.new and alerts.channels(conn)
            else ""
        )
        found = counted(report.new, "new alert")
        flash("ok", f"Checked the {span} of recorded history: {found}{known}.{webhook}")


def acknowledge(conn: Connection, alert_id: int, about: str, title: str | None = None) -> None:
    """Acknowledge one of the account's open alerts (a callback: the outcome is flashed for the next run).

    ``about`` names the alert in the audit log (``alert_words``), ``title`` is what happened."""
    store = history.history_store()
    if store is None:
        flash("error", f"{history.UNAVAILABLE}: nothing was changed.")
        return
    person = access.current_person().email
    done, changed = _alert_change(
        conn,
        "acknowledge_alert",
        about,
        title,
        lambda: store.alerts.acknowledge_alert(conn.fingerprint, alert_id, person),
    )
    if done and changed:
        flash("ok", "Acknowledged: it is on the Acknowledged tab now.")
    elif done:
        flash("ok", "That alert was acknowledged already (perhaps by someone else).")


def reopen(conn: Connection, alert_id: int, about: str, title: str | None = None) -> None:
    """Put one of the account's acknowledged alerts back among the open ones (a callback, like
    ``acknowledge``). Its webhook message is not sent again: the store leaves its delivery as it was."""
    store = history.history_store()
    if store is None:
        flash("error", f"{history.UNAVAILABLE}: nothing was changed.")
        return
    done, changed = _alert_change(
        conn, "reopen_alert", about, title, lambda: store.alerts.reopen_alert(conn.fingerprint, alert_id)
    )
    if done and changed:
        flash("ok", "Reopened: it is on the Open tab again.")
    elif done:
        flash("ok", "That alert was open already (perhaps someone else reopened it).")


def _alert_change(
    conn: Connection, operation: str, about: str, title: str | None, action: Callable[[], bool]
) -> tuple[bool, Any]:
    """One alert's change, audited under its name; the sidebar's open-alert count is read afresh after."""
    try:
        return change(conn, operation, about, action, changed=bool, detail=title)
    finally:
        alerts.forget_count(conn.fingerprint)
