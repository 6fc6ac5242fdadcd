"""Writes (POST, DELETE) happen exactly once per user action.

A rerun never repeats a write (writes run in widget callbacks, which reruns do not call again), and
a double click or a second submit of the same write while the first is running, or within a few
seconds after it succeeded, is answered with the first result instead of being sent again. A failed
write is reported and never retried silently; the user may try again with a new click.
After a successful write, the cached reads it changed are dropped, so the page shows what the
server now holds.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

import streamlit as st

from client.errors import ApiError, AuthError
from components import data
from components.connection import Connection
from components.errors import show_error
from components.sidebar import RESULT_PREFIX

#: A repeat of the same write this soon after it succeeded is a double click, not a new intent.
DEDUP_WINDOW_S = 10.0
_REGISTRY = RESULT_PREFIX + "writes"
_FLASH = RESULT_PREFIX + "write_flash:"

State = Literal["running", "done", "failed"]


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
) -> WriteOutcome:
    """Call ``client.<operation>(*args)`` unless this very write is running or just succeeded.

    ``invalidates`` lists the reads (``(operation, *args)``) whose cached answers the write changes.
    """
    registry = _registry()
    token = (conn.base_url, conn.fingerprint, operation, args)
    previous = registry.get(token)
    if previous is not None and (
        previous.state == "running"
        or (previous.state == "done" and time.monotonic() - previous.at < DEDUP_WINDOW_S)
    ):
        return WriteOutcome(
            operation, previous.state, previous.value, previous.error, previous.at, True, previous.message
        )
    outcome = WriteOutcome(operation, "running", message=success)
    registry[token] = outcome
    client = data.client_for(conn)
    try:
        if not conn.has_key:
            raise AuthError("No API key is set.", operation=operation)
        outcome.value = getattr(client, operation)(*args)
    except ApiError as err:
        outcome.state, outcome.error = "failed", err
    else:
        outcome.state = "done"
        for read in invalidates:
            data.forget(conn, *read)
    finally:
        outcome.at = time.monotonic()
        data.record_quota(conn, client.last_quota)
    return outcome


def flash(slot: str, outcome: WriteOutcome) -> None:
    """Keep an outcome to show on the next run (callbacks run before the page is drawn)."""
    st.session_state[_FLASH + slot] = outcome


def show_flash(slot: str, *, subject: str = "this change") -> WriteOutcome | None:
    """Show, once, what the last write from ``slot`` did; returns it for pages that want more."""
    outcome: WriteOutcome | None = st.session_state.pop(_FLASH + slot, None)
    if outcome is None:
        return None
    if outcome.error is not None:
        show_error(outcome.error, subject=subject)
    elif outcome.duplicate:
        st.info("That was already done; it was not sent again.", icon=":material/done_all:")
    elif outcome.ok:
        st.success(outcome.message or "Done.", icon=":material/check_circle:")
    return outcome
