"""The sandbox's day: which date its drifting demo numbers stand for.

The demo numbers (ratings, traffic, Trust Map members, tracked positions) move with the day, the same
on every machine. The day is, in order: the one a running server was configured with (pinned for the
length of each request, see ``pinned``), the ``VERIFIEDDR_SANDBOX_TODAY`` environment variable
(YYYY-MM-DD, so tests and demos can fix it), else today's UTC date.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import UTC, date, datetime

#: The environment variable that fixes the sandbox's day.
TODAY_ENV = "VERIFIEDDR_SANDBOX_TODAY"
#: The day the demo data was first written for: every number drifts by exactly zero on it.
EPOCH_DAY = date(2025, 1, 6)

_pinned_day: ContextVar[date | None] = ContextVar("sandbox_day", default=None)


def parse_day(text: str) -> date:
    """A YYYY-MM-DD day, or ValueError saying what was wrong."""
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        raise ValueError(f"{TODAY_ENV} must be a day written YYYY-MM-DD, not {text!r}.") from None


def today(environ: dict[str, str] | os._Environ[str] | None = None) -> date:
    """The sandbox's day: a pinned day (a server's configured ``today``), else the env, else UTC today."""
    pinned = _pinned_day.get()
    if pinned is not None:
        return pinned
    source = os.environ if environ is None else environ
    text = source.get(TODAY_ENV)
    if text:
        return parse_day(text)
    return datetime.now(UTC).date()


def resolve(day: date | None) -> date:
    """``day`` itself, or the sandbox's day when None (the default of every ``day=`` argument)."""
    return today() if day is None else day


def days_from_epoch(day: date) -> int:
    """Whole days from the epoch day (negative before it)."""
    return (day - EPOCH_DAY).days


@contextmanager
def pinned(day: date | None) -> Iterator[None]:
    """Within the block (and what it awaits), ``today()`` is ``day``; None leaves the clock alone."""
    if day is None:
        yield
        return
    token = _pinned_day.set(day)
    try:
        yield
    finally:
        _pinned_day.reset(token)
