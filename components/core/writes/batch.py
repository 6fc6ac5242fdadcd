"""Several writes from one click (tracking the keywords chosen in a table): the same write once per item,
each through the one write path (``writes.write_once``: role, exactly once, client, audit, invalidation).

- ``request_writes`` is the widget callback: the role is checked at the click (a refused click is
  audited once, under the first item, and kept for the page: the refusal would refuse every item), the
  request is kept in the session, and a second click while it waits is ignored.
- ``take_writes`` takes the request out of the session before anything is sent, so an interrupted or
  repeated run can never send it twice; ``write_each`` then sends its items in order, one audit row
  each. A repeat of an item that just succeeded (a double click) is answered from the first, not sent.
- ``write_each`` stops at the first refusal that would refuse every later item (the role, and whatever
  the caller's ``stops`` says: a spent allowance, a key not accepted, a full list); the items after it
  are returned as not sent, so nothing chosen is lost: a later click sends them.
- The writes of one click share the reads they change, so each one's success drops those cached reads
  but ends no double-click window of the batch's other items (``WriteOutcome.batch``). Once the batch
  ends, the reads are dropped again when any item reached the service without a success (a refusal
  means the page's list was stale; a lost answer leaves the service's list unknown): the page shows
  what the service now holds.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import streamlit as st

from components.core.auth import access
from components.core.cache import data
from components.core.cache.connection import Connection, current_connection
from components.core.ui.sidebar import RESULT_PREFIX
from components.core.writes import writes

_REQUEST = RESULT_PREFIX + "batch_request:"
_FLASH = RESULT_PREFIX + "batch_flash:"


@dataclass(frozen=True)
class BatchRequest:
    """The writes a click asked for, waiting for the run that sends them: one ``operation`` per item of
    ``items`` (its arguments), each audited under its ``targets`` entry."""

    operation: str
    items: tuple[tuple[Any, ...], ...]
    targets: tuple[str, ...]
    invalidates: tuple[tuple[Any, ...], ...]
    at: float = field(default_factory=time.monotonic)


@dataclass
class BatchOutcome:
    """What became of a click's writes: one outcome per item sent (or answered from an earlier send), in
    order, then the targets of the items not sent because an earlier refusal would refuse them too."""

    sent: list[tuple[str, writes.WriteOutcome]] = field(default_factory=list)
    unsent: list[str] = field(default_factory=list)
    #: The outcome that stopped the batch (also in ``sent``); None when every item was sent.
    stopped_by: writes.WriteOutcome | None = None
    #: The targets the page left out at the send (``run_requested_writes``' ``keep``).
    skipped: list[str] = field(default_factory=list)


def request_writes(
    slot: str,
    operation: str,
    items: Sequence[tuple[Any, ...]],
    targets: Sequence[str],
    invalidates: Sequence[tuple[Any, ...]] = (),
) -> None:
    """Widget callback: ask for ``operation`` once per item. A second click while one waits is ignored."""
    request = BatchRequest(
        operation, tuple(tuple(i) for i in items), tuple(targets), tuple(tuple(r) for r in invalidates)
    )
    refusal = writes.role_refusal(access.current_person())
    if refusal is not None:
        if not request.items:  # nothing the row could name: the control itself is audited
            writes.refuse_click(current_connection(), slot, refusal)
            return
        st.session_state[_FLASH + slot] = write_each(current_connection(), request)
        return
    st.session_state.setdefault(_REQUEST + slot, request)


def writes_requested(slot: str) -> bool:
    """Whether a batch from ``slot`` is waiting: draw its button with ``disabled=`` this. A request not
    sent within ``writes.REQUEST_TTL_S`` (the person left the page meanwhile) is dropped, never sent late."""
    return writes.waiting_request(_REQUEST + slot) is not None


def take_writes(slot: str, *, note: str) -> BatchRequest | None:
    """The batch waiting in ``slot``, taken out of the session (so it is sent at most once), with
    ``note`` shown while it runs; None when none is waiting."""
    request: BatchRequest | None = writes.take_waiting(_REQUEST + slot, note=note)
    return request


def never(_outcome: writes.WriteOutcome) -> bool:
    return False


def write_each(
    conn: Connection,
    request: BatchRequest,
    *,
    stops: Callable[[writes.WriteOutcome], bool] = never,
    progress: Callable[[int, str], None] | None = None,
) -> BatchOutcome:
    """Send each item of ``request`` once, in order, through ``writes.write_once``; stop after a role
    refusal or an outcome ``stops`` says would refuse every later item. ``progress(done, target)`` is
    told before each item is sent."""
    batch = object()
    result = BatchOutcome()
    reached_without_success = False
    for done, (args, target) in enumerate(zip(request.items, request.targets, strict=True)):
        if result.stopped_by is not None:
            result.unsent.append(target)
            continue
        if progress is not None:
            progress(done, target)
        outcome = writes.write_once(
            conn, request.operation, *args, invalidates=request.invalidates, target=target, batch=batch
        )
        result.sent.append((target, outcome))
        reached_without_success |= outcome.error is not None and outcome.refusal is None
        if outcome.refusal is not None or (not outcome.ok and stops(outcome)):
            result.stopped_by = outcome
    if reached_without_success:
        for read in request.invalidates:
            data.forget(conn, *read)
    return result


def run_requested_writes(
    conn: Connection,
    slot: str,
    *,
    keep: Callable[[tuple[Any, ...]], bool] = lambda _args: True,
    stops: Callable[[writes.WriteOutcome], bool] = never,
    note: str = "Saving your changes…",
) -> None:
    """Send the batch waiting in ``slot`` (once), keep its outcome for ``take_outcome``, then rerun.

    ``keep(args)`` says, at the send, whether an item still needs sending (the page's data may have
    changed since the click: a keyword someone else tracked meanwhile); the others are left out here
    and the page says why. Call it after the slot's controls are drawn, so they show disabled.
    """
    request = take_writes(slot, note=note)
    if request is None:
        return
    pairs = list(zip(request.items, request.targets, strict=True))
    kept = [(args, target) for args, target in pairs if keep(args)]
    request = BatchRequest(
        request.operation,
        tuple(args for args, _ in kept),
        tuple(target for _, target in kept),
        request.invalidates,
        request.at,
    )
    bar = st.progress(0.0, text=note)

    def progress(done: int, target: str) -> None:
        bar.progress(done / max(1, len(kept)), text=f"[{done + 1}/{len(kept)}] {target}")

    outcome = write_each(conn, request, stops=stops, progress=progress)
    outcome.skipped = [target for args, target in pairs if (args, target) not in kept]
    st.session_state[_FLASH + slot] = outcome
    st.rerun()


def take_outcome(slot: str) -> BatchOutcome | None:
    """The outcome of the last batch from ``slot``, once (callbacks and sends run before it is shown)."""
    outcome: BatchOutcome | None = st.session_state.pop(_FLASH + slot, None)
    return outcome
