"""Waiting for something another thread or process does: poll until it holds, with a deadline generous
enough for a busy machine (it costs nothing when things are fast). Tests wait this way, never for a
fixed time, so a slow machine makes them slower, not red."""

from __future__ import annotations

import time
from collections.abc import Callable

#: Long enough for a machine running two test suites at once; a passing check returns at once.
DEADLINE_S = 30.0


def until(check: Callable[[], object], within_s: float = DEADLINE_S, every_s: float = 0.05) -> bool:
    """True as soon as ``check()`` holds; False if it still does not after ``within_s``."""
    deadline = time.monotonic() + within_s
    while True:
        if check():
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(every_s)
