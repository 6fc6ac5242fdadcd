"""Writes (POST, DELETE): exactly once per user action, only by people who may write, each audited.

The one write path, in this order: role check (a viewer's write is refused with "Editors only: …",
never sent, and audited as refused by role) → exactly-once guard → client call → audit row (sent,
refused by the service with its status and words, or failed) → the reads it changed are dropped.
The audit row never holds a write back: when the history store is unavailable the write still goes
out and the missing row is logged (``write_audit``). Watchlist and alert changes are store writes,
not API calls; ``audited_store_write`` gives them the same role check and audit, their rows saying
"done" (or "no change") instead of "sent".

A rerun never repeats a write (writes run in widget callbacks, which reruns do not call again); a
double click or a second submit of the same write while the first runs, or a few seconds after it
succeeded, is answered with the first result, not sent again. A failed write is reported and never
retried silently: the user may try again with a new click.
After a successful write, the cached reads it changed are dropped, so the page shows what the
server now holds, and earlier writes to those reads are no longer "just done": adding a keyword,
removing it and adding it again are three intents, not a double click.

``request_write`` / ``run_requested_write`` split a click in two so its control can be shown
disabled while the write runs: the callback checks the role at once (a forged click, or a click by
someone taken off every access list since the page opened, is refused and audited right there: the
sign-in gate would end that person's next run before any page could send or audit it), records the
request, the page draws its controls disabled (``write_requested``), then sends the write once and reruns.

Reads that spend quota units are writes too (``quota_spends``, beside this module): ``send`` performs
them through the cached data layer instead of ``client.<operation>``; ``spent`` says how many units
they spent, which their audit row states.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, TypeVar

import streamlit as st

from client.errors import ApiError, AuthError
from components.common.access_rules import may_write
from components.core.auth import access
from components.core.cache import data
from components.core.cache.connection import Connection, current_connection
from components.core.ui.errors import show_error
from components.core.ui.sidebar import RESULT_PREFIX
from components.core.writes import write_audit

if TYPE_CHECKING:
    from store.audit import AuditOutcome

#: A repeat of the same write this soon after it succeeded is a double click, not a new intent.
DEDUP_WINDOW_S = 10.0
_REGISTRY = RESULT_PREFIX + "writes"
_FLASH = RESULT_PREFIX + "write_flash:"
_REQUEST = RESULT_PREFIX + "write_request:"
#: A request not sent within this time (the user left the page meanwhile) is dropped, never sent late.
REQUEST_TTL_S = 30.0

State = Literal["running", "done", "failed"]
T = TypeVar("T")


@dataclass
class WriteOutcome:
    """What became of one write; ``duplicate`` marks an answer reused for a repeated action."""

    operation: str
    state: State
    value: Any = None
    error: ApiError | None = None
    at: float = field(default_factory=time.monotonic)
    duplicate: bool = False
    message: str | None = None
    #: The reads this write changes; a later successful write to one of them ends its dedup window.
    reads: frozenset[tuple[Any, ...]] = field(default_factory=frozenset, repr=False)
    #: Why the write was not sent because of the person's role ("Editors only: …"); None otherwise.
    refusal: str | None = None
    #: The several writes of one click it belongs to (``batch``): their shared reads end no window of
    #: each other's, or a double click would send the batch's earlier items again.
    batch: object | None = field(default=None, repr=False)

    @property
    def ok(self) -> bool:
        return self.state == "done"


def _registry() -> dict[tuple[Any, ...], WriteOutcome]:
    return st.session_state.setdefault(_REGISTRY, {})


def write_once(
    conn: Connection,
    operation: str,
    *args: Any,
    invalidates: Iterable[tuple[Any, ...]] = (),
    success: str | None = None,
    target: str | None = None,
    send: Callable[[], Any] | None = None,
    spent: Callable[[], int] | None = None,
    repeat_window_s: float = DEDUP_WINDOW_S,
    batch: object | None = None,
) -> WriteOutcome:
    """Call ``client.<operation>(*args)`` if the person may write, unless this very write is running or
    just succeeded; every attempt but a repeat answered from the first is audited.

    ``invalidates`` lists the reads (``(operation, *args)``) whose cached answers the write changes;
    ``target`` names what the write is about when its arguments do not say it in words (an id).
    A read that spends quota units passes ``send`` (how to perform it instead of the client call) and
    ``spent`` (the units it spent, asked once the outcome is known, also when it failed part way); its
    row then says how many units were spent ("No quota unit spent" when it was refused).
    ``batch`` marks the writes of one click that sends several (``components.core.writes.batch``).
    """
    person = access.current_person()
    about, detail = write_audit.describe(operation, args, target)
    audit = _auditor(conn, person, operation, about, detail)
    refusal = role_refusal(person)
    if refusal is not None:
        audit("refused_by_role", None, refusal, write_audit.units_words(0) if spent else None)
        return WriteOutcome(operation, "failed", refusal=refusal)
    registry = _registry()
    token = (conn.base_url, conn.fingerprint, operation, args)
    previous = registry.get(token)
    if previous is not None and (
        previous.state == "running"
        or (previous.state == "done" and time.monotonic() - previous.at < repeat_window_s)
    ):
        return WriteOutcome(
            operation, previous.state, previous.value, previous.error, previous.at, True, previous.message
        )
    reads = frozenset(tuple(read) for read in invalidates)
    outcome = WriteOutcome(operation, "running", message=success, reads=reads, batch=batch)
    registry[token] = outcome
    client = data.client_for(conn)

    def units(*, left: bool = True) -> str | None:  # what the row says about quota: reads that spend it
        if spent is None:
            return None
        return write_audit.units_words(spent(), data.quota(conn) if left else None)

    try:
        if not conn.has_key:
            raise AuthError("No API key is set.", operation=operation)
        outcome.value = send() if send is not None else getattr(client, operation)(*args)
    except ApiError as err:
        outcome.state, outcome.error = "failed", err
        audit(*write_audit.service_refusal(err), units())
    except BaseException as exc:
        outcome.state = "failed"  # never left "running": that would refuse every later attempt
        stopped = f"The write stopped unexpectedly ({type(exc).__name__})."
        audit("failed", None, stopped, units(left=False))  # asks nothing more while stopping
        raise
    else:
        outcome.state = "done"
        audit("sent", None, None, units())
        for read in reads:
            data.forget(conn, *read)
        _end_earlier_windows(registry, token, reads, batch)
    finally:
        outcome.at = time.monotonic()
        if send is None:  # a read through the data layer tells the sidebar itself
            data.record_quota(conn, client.last_quota)
    return outcome


def role_refusal(person: access.Person) -> str | None:
    """The words a refused write shows when ``person`` may not write; None when they may. Someone
    signed in but on no list any more (taken off since their page opened) is told, and the audit row
    says, just that."""
    if may_write(person.role):
        return None
    if person.signed_in and person.role is None:
        return access.NO_LONGER_LISTED
    return access.write_permission()[1] or access.EDITORS_ONLY


def _auditor(
    conn: Connection, person: access.Person, operation: str, target: str | None, detail: str | None
) -> Callable[..., None]:
    """Append the audit row of this attempt, once its outcome is known (``more`` adds to its detail)."""

    def audit(
        outcome: AuditOutcome, status: int | None, message: str | None, more: str | None = None
    ) -> None:
        write_audit.record(
            conn,
            person=person.email,
            role=person.role,
            operation=operation,
            target=target,
            detail="; ".join(part for part in (detail, more) if part) or None,
            outcome=outcome,
            status=status,
            message=message,
        )

    return audit


def audited_store_write(
    conn: Connection,
    operation: str,
    target: str,
    action: Callable[[], T],
    *,
    changed: Callable[[T], bool] | None = None,
    detail: str | None = None,
) -> T | None:
    """A change to the dashboard's own records (the watchlist, alerts, their rules) through the same role
    check and audit: ``action()``'s result, or None when the person may not write (audited as refused
    by role; the caller shows ``access.write_permission()``'s words). A store error is audited as
    failed and raised.

    Nothing goes to the service, so the row says "done", never "sent"; when ``changed(result)`` is
    false (watching what is watched already, acknowledging what someone else just acknowledged) it
    says "no_change", so the log never claims a change that did not happen. ``detail`` is what the
    row adds to its target (an alert's title).
    """
    person = access.current_person()
    audit = _auditor(conn, person, operation, target, detail)
    refusal = role_refusal(person)
    if refusal is not None:
        audit("refused_by_role", None, refusal)
        return None
    try:
        result = action()
    except Exception as exc:
        audit("failed", None, getattr(exc, "reason", None) or f"The change failed ({type(exc).__name__}).")
        raise
    audit("done" if changed is None or changed(result) else "no_change", None, None)
    return result


def _end_earlier_windows(
    registry: dict[tuple[Any, ...], WriteOutcome],
    token: tuple[Any, ...],
    reads: frozenset[tuple[Any, ...]],
    batch: object | None = None,
) -> None:
    """The data changed since those writes, so repeating one now is a new intent, not a double click
    (except the writes of the same click: the batch changed the data together)."""
    if not reads:
        return
    for other in [
        t
        for t, o in registry.items()
        if t != token and o.state == "done" and o.reads & reads and (batch is None or o.batch is not batch)
    ]:
        del registry[other]


def flash(slot: str, outcome: WriteOutcome) -> None:
    """Keep an outcome to show on the next run (callbacks run before the page is drawn)."""
    st.session_state[_FLASH + slot] = outcome


def peek_flash(slot: str) -> WriteOutcome | None:
    """The outcome ``show_flash`` will show, without using it up (e.g. to empty a field first)."""
    return st.session_state.get(_FLASH + slot)


def drop_flash(slot: str) -> None:
    """Forget the outcome kept for ``slot`` without showing it (the page shows its answer itself)."""
    st.session_state.pop(_FLASH + slot, None)


def show_flash(slot: str, *, subject: str = "this change") -> WriteOutcome | None:
    """Show, once, what the last write from ``slot`` did; returns it for pages that want more."""
    outcome: WriteOutcome | None = st.session_state.pop(_FLASH + slot, None)
    if outcome is None:
        return None
    if outcome.refusal is not None:
        st.warning(outcome.refusal, icon=":material/lock:")
    elif outcome.error is not None:
        show_error(outcome.error, subject=subject)
    elif outcome.duplicate:
        st.info("That was already done; it was not sent again.", icon=":material/done_all:")
    elif outcome.ok:
        st.success(outcome.message or "Done.", icon=":material/check_circle:")
    return outcome


# --- a click in two steps: record it in the callback, send it once its controls are drawn disabled ---


@dataclass(frozen=True)
class WriteRequest:
    """A write a click asked for, waiting for the run that sends it."""

    operation: str
    args: tuple[Any, ...]
    invalidates: tuple[tuple[Any, ...], ...]
    success: str | None
    at: float = field(default_factory=time.monotonic)
    target: str | None = None
    #: A read that spends quota units (its refusal says none were spent).
    spends_quota: bool = False


def request_write(
    slot: str,
    operation: str,
    *args: Any,
    invalidates: Iterable[tuple[Any, ...]] = (),
    success: str | None = None,
    target: str | None = None,
    spends_quota: bool = False,
) -> None:
    """Widget callback: ask for a write. A second click while one is waiting in ``slot`` is ignored.

    The role is checked here, at the click: a refused click is audited and its refusal kept for
    ``show_flash(slot)`` now, because a person taken off every list never gets a run that sends it.
    """
    if role_refusal(access.current_person()) is not None:
        nothing_spent = (lambda: 0) if spends_quota else None
        flash(slot, write_once(current_connection(), operation, *args, target=target, spent=nothing_spent))
        return
    request = WriteRequest(
        operation,
        tuple(args),
        tuple(tuple(r) for r in invalidates),
        success,
        target=target,
        spends_quota=spends_quota,
    )
    st.session_state.setdefault(_REQUEST + slot, request)


def write_requested(slot: str) -> bool:
    """Whether a write from ``slot`` is waiting or running: draw its buttons with ``disabled=`` this.

    Disable buttons, not text fields: Streamlit drops the value a field was submitted with when it
    is drawn disabled in that run, and typed text must survive a failed write.
    """
    return waiting_request(_REQUEST + slot) is not None


def run_requested_write(conn: Connection, slot: str, *, note: str = "Saving your change…") -> None:
    """Send the write waiting in ``slot`` (once), keep its outcome for ``show_flash``, then rerun.

    Call it after the slot's controls are drawn, so they show disabled while the write runs. The
    request is taken out of the session before the write is sent: an interrupted or repeated run can
    never send it twice.
    """
    request = take_request(slot, note=note)
    if request is None:
        return
    outcome = write_once(
        conn,
        request.operation,
        *request.args,
        invalidates=request.invalidates,
        success=request.success,
        target=request.target,
    )
    flash(slot, outcome)
    st.rerun()


def take_request(slot: str, *, note: str) -> WriteRequest | None:
    """The write waiting in ``slot``, taken out of the session (so it is sent at most once), with
    ``note`` shown while it runs; None when none is waiting."""
    request: WriteRequest | None = take_waiting(_REQUEST + slot, note=note)
    return request


def waiting_request(key: str) -> Any:
    """The request (anything with an ``at`` of ``time.monotonic()``) kept in the session under ``key``,
    or None; one not sent within ``REQUEST_TTL_S`` (the user left the page meanwhile) is dropped, never
    sent late. The one rule of a waiting click, for a single write and a batch (``batch``) alike."""
    request = st.session_state.get(key)
    if request is not None and time.monotonic() - request.at > REQUEST_TTL_S:
        del st.session_state[key]
        return None
    return request


def take_waiting(key: str, *, note: str) -> Any:
    """The request waiting under ``key``, taken out of the session (so it is sent at most once), with
    ``note`` shown while it runs; None when none is waiting."""
    if waiting_request(key) is None:
        return None
    st.info(note, icon=":material/hourglass_top:")
    return st.session_state.pop(key, None)


def refuse_click(conn: Connection, control: str, refusal: str) -> None:
    """Audit a click on a control that was drawn disabled for this person and is not a write the app
    can name: the row says which control, who and when (nothing was done)."""
    person = access.current_person()
    _auditor(conn, person, "disabled_control", control, None)("refused_by_role", None, refusal)


def refused(operation: str, err: ApiError) -> WriteOutcome:
    """An outcome for input refused before the write was even built (shown like any failed write)."""
    return WriteOutcome(operation, "failed", error=err)
