"""Reads that spend quota units are writes: they go through the one write path (``writes``).

The specification prices two reads: GET /dr/:domain and GET /site-check/:domain, one quota unit per
call, cached by the service or not (a site check spends it on "no report yet" too). Every other read
is free, and the writes that spend a plan's allowance (tracking or refreshing a keyword, sending an
exchange proposal, an AI-visibility run, a Search Console audit) already take the write path. So the
controls that call the two priced reads (the Bulk DR checker, Site check's "Read the report" and
Domain overview's "Check its DR" for an unlisted site) are write controls:

- drawn disabled for viewers with the reason other writes give (``access.write_permission``);
- clicked, they only ask (``request_spend``, a widget callback): the role is checked at the click, so
  a forged click, or one by someone taken off every list since the page opened, is refused and audited;
- the page then spends once (``run_requested_spend``): the request is taken out of the session before
  anything is asked, a rerun never asks again, and the answers land in the cached data layer, where
  the page reads them for free for the next 15 minutes;
- a priced read changes no answer the app has cached, so it drops none (the write path's
  invalidation step has nothing to do); the sidebar's quota follows from the answers' headers;
- the audit row names the operation, the subjects and the units spent (``Units``: one per call the
  service answered, counted as the specification prices them; the service reports only what is left,
  which the row adds).

A page never spends because it was opened: a link fills the page in, and only a click spends.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import streamlit as st

from client.errors import NotFoundError
from components.core.cache import data
from components.core.cache.connection import Connection
from components.core.writes import writes

#: The client operations that spend quota units: GET /dr/:domain and GET /site-check/:domain.
PRICED_READS = frozenset({"dr", "site_check"})


@dataclass
class Units:
    """The quota units one spend has cost so far (read for its audit row, even when it stopped early)."""

    spent: int = 0


def request_spend(slot: str, operation: str, *subjects: str, target: str | None = None) -> None:
    """Widget callback of a control that spends quota units on ``subjects`` (normalised domains)."""
    writes.request_write(slot, operation, *subjects, target=target, spends_quota=True)


def spend_requested(slot: str) -> bool:
    """Whether a spend from ``slot`` is waiting or running: draw its button with ``disabled=`` this."""
    return writes.write_requested(slot)


def run_requested_spend(
    conn: Connection,
    slot: str,
    spend: Callable[[tuple[Any, ...], Units], Any],
    *,
    note: str = "Asking the service (this spends quota units)…",
) -> None:
    """Run the spend waiting in ``slot`` once, through the write path, then rerun.

    ``spend(subjects, units)`` does the reads (through the cached data layer) and counts the units it
    spent in ``units``; its outcome is kept for ``writes.show_flash(slot)``. A repeat is not answered
    from an earlier one (the cache answers it for free instead), so a second click on the same list
    gets a row of its own saying it spent nothing.
    """
    request = writes.take_request(slot, note=note)
    if request is None:
        return
    units = Units()
    outcome = writes.write_once(
        conn,
        request.operation,
        *request.args,
        success=request.success,
        target=request.target,
        send=lambda: spend(request.args, units),
        spent=lambda: units.spent,
        repeat_window_s=0.0,
    )
    writes.flash(slot, outcome)
    st.rerun()


def show_spend_outcome(slot: str, *, subject: str, answered: Callable[[], bool] = lambda: False) -> None:
    """Show, once, why the last spend from ``slot`` was refused, or how it failed when the page has no
    answer to show instead (``answered()``: the failure is cached, and the page shows it). A spend that
    went through says nothing here: the page shows its answer."""
    outcome = writes.peek_flash(slot)
    if outcome is None:
        return
    if outcome.refusal is not None or (outcome.error is not None and not answered()):
        writes.show_flash(slot, subject=subject)
    else:
        writes.drop_flash(slot)


def read_priced(conn: Connection, operation: str, subject: str, units: Units) -> Any:
    """One priced read of ``subject`` through the cached data layer, counting the unit it spends:
    none when the cache answers, one when the service answers (with its answer or with "not found",
    which it charges too), none when it refuses or cannot be reached."""
    if operation not in PRICED_READS:
        raise ValueError(f"{operation} is not a read that spends quota units")
    was_cached = data.is_cached(conn, operation, subject)
    try:
        value = data.call(conn, operation, subject)
    except NotFoundError:
        units.spent += 0 if was_cached else 1
        raise
    units.spent += 0 if was_cached else 1
    return value


def subjects_target(subjects: tuple[str, ...]) -> str:
    """What an audit row names for a spend on several domains: how many, then which."""
    if len(subjects) == 1:
        return subjects[0]
    return f"{len(subjects)} domains: {', '.join(subjects)}"
