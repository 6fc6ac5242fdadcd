"""Deterministic randomness: the same words give the same numbers on every run and machine.

Python's ``hash()`` is salted per process, so it would make the demo data change on every start;
blake2b of the inputs seeds a private ``random.Random`` instead.
"""

from __future__ import annotations

import hashlib
import random

_SEPARATOR = "\x1f"


def _digest(parts: tuple[object, ...]) -> int:
    text = _SEPARATOR.join(str(p) for p in parts)
    return int.from_bytes(hashlib.blake2b(text.encode("utf-8"), digest_size=8).digest(), "big")


def rng_for(*parts: object) -> random.Random:
    """A generator seeded by the parts; use one purpose word first so streams never collide."""
    return random.Random(_digest(parts))


def unit(*parts: object) -> float:
    """A stable number in [0, 1) for the parts, for yes/no decisions such as 'is this listed'."""
    return _digest(parts) / 2**64
