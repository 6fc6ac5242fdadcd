"""How demo numbers move with the day: bounded, deterministic shifts that are exactly zero on the epoch.

Every shift is a function of (words naming the series, days from the epoch) and nothing else, so any
day is computed directly (no walking day by day) and agrees on every machine. A series is a sum of a
few slow sine waves and a small staircase (a level that changes every few weeks), minus its value on
the epoch day: bounded by the sum of its amplitudes for any number of years, and exactly 0.0 on the
epoch. The sites the demo keys own follow a different shape (a slow climb with an occasional setback)
so their trend is visible over the demo history's months. On top of either, ``wobble`` adds the
weeks-long ups and downs a real site's numbers show within a month (a few short waves, the same kind
of bounded sum), so no month of a series reads "held" from its first day to its last.

``knotted`` bends a series near the epoch so that chosen past days take chosen values: the weekly
and monthly changes the epoch's answers always reported then equal the history's own differences.
"""

from __future__ import annotations

import itertools
import math
from functools import lru_cache

from sandbox.hashing import rng_for, unit

_TAU = 2 * math.pi
#: Days between staircase steps (each series its own phase).
STEP_DAYS = 26
#: Knots bend a series only within this many days before the epoch.
KNOT_REACH = 60
#: The owned sites' climb: a sawtooth of this period, rising for ``CLIMB_SHARE`` of it.
CLIMB_PERIOD = 365
CLIMB_SHARE = 0.8
#: Where the climb starts, in days from the epoch: the demo history up to the epoch rises.
CLIMB_START = -250


@lru_cache(maxsize=65536)
def _terms(words: tuple[str, ...], waves: int) -> tuple[tuple[float, float, float], ...]:
    """(relative amplitude, period in days, phase) of each wave; amplitudes add up to 1."""
    r = rng_for("drift-terms", *words)
    raw = [(r.uniform(0.4, 1.0), r.uniform(35, 420), r.uniform(0, _TAU)) for _ in range(waves)]
    total = sum(a for a, _, _ in raw)
    return tuple((a / total, period, phase) for a, period, phase in raw)


def _waves(words: tuple[str, ...], t: int, waves: int) -> float:
    return sum(a * math.sin(_TAU * t / period + phase) for a, period, phase in _terms(words, waves))


@lru_cache(maxsize=65536)
def _at_epoch(words: tuple[str, ...], waves: int) -> tuple[float, float]:
    """The waves and the staircase on the epoch day, subtracted from every other day."""
    return _waves(words, 0, waves), _staircase(words, 0)


@lru_cache(maxsize=65536)
def _step_offset(words: tuple[str, ...]) -> int:
    return int(unit("drift-step-offset", *words) * STEP_DAYS)


@lru_cache(maxsize=262144)
def _step_level(words: tuple[str, ...], block: int) -> float:
    return unit("drift-step", *words, block) * 2 - 1


def _staircase(words: tuple[str, ...], t: int) -> float:
    """A level in [-1, 1] that holds for ``STEP_DAYS`` and then moves to another."""
    return _step_level(words, (t + _step_offset(words)) // STEP_DAYS)


def shift(words: tuple[str, ...], t: int, amplitude: float, step: float = 0.0, waves: int = 3) -> float:
    """A bounded shift (|shift| ≤ 2 × (amplitude + step)), exactly 0.0 when t is 0."""
    if t == 0:
        return 0.0
    wave0, stair0 = _at_epoch(words, waves)
    value = amplitude * (_waves(words, t, waves) - wave0)
    if step:
        value += step * (_staircase(words, t) - stair0)
    return value


#: Shortest and longest period of the weeks-long waves, in days: long enough that a number moves
#: by small steps from one day to the next, short enough that every month has some ups and downs.
WOBBLE_PERIODS = (11, 34)


@lru_cache(maxsize=65536)
def _wobble_terms(words: tuple[str, ...]) -> tuple[tuple[float, float, float], ...]:
    """(relative amplitude, period, phase) of the two short waves; amplitudes add up to 1."""
    r = rng_for("wobble-terms", *words)
    raw = [(r.uniform(0.5, 1.0), r.uniform(*WOBBLE_PERIODS), r.uniform(0, _TAU)) for _ in range(2)]
    total = sum(a for a, _, _ in raw)
    return tuple((a / total, period, phase) for a, period, phase in raw)


def _wobble_at(words: tuple[str, ...], t: int) -> float:
    return sum(a * math.sin(_TAU * t / period + phase) for a, period, phase in _wobble_terms(words))


def wobble(words: tuple[str, ...], t: int, amplitude: float) -> float:
    """Weeks-long ups and downs (|wobble| ≤ 2 × amplitude), exactly 0.0 when t is 0.

    The day-to-day move is at most about amplitude × 2π / 11, so an amplitude of a point and a half
    moves a rating by at most a point a day."""
    if t == 0:
        return 0.0
    return amplitude * (_wobble_at(words, t) - _wobble_at(words, 0))


def _sawtooth(t: int) -> float:
    """0 → 1 over the climb, then a smooth fall back to 0; period ``CLIMB_PERIOD``."""
    phase = ((t - CLIMB_START) % CLIMB_PERIOD) / CLIMB_PERIOD
    if phase < CLIMB_SHARE:
        return phase / CLIMB_SHARE
    fall = (phase - CLIMB_SHARE) / (1 - CLIMB_SHARE)
    return (1 + math.cos(math.pi * fall)) / 2


def climb(t: int, amplitude: float, lead: int = 0) -> float:
    """The owned sites' shape: a slow rise of ``amplitude`` with a setback once a year, ``lead`` days
    ahead of the other sites'; 0.0 at t = 0."""
    if t == 0:
        return 0.0
    return amplitude * (_sawtooth(t + lead) - _sawtooth(lead))


Knots = tuple[tuple[int, float], ...]


def knots(values: dict[int, float]) -> Knots:
    """The bend's corner points for ``knotted``: (day, value) pairs, days in (-KNOT_REACH, 0)."""
    return tuple(sorted([(-KNOT_REACH, 0.0), *values.items(), (0, 0.0)]))


def knotted(t: int, points: Knots) -> float:
    """A piecewise-linear bend through the knots before the epoch; 0 at t ≥ 0 and far back.

    Between knots the bend is linear, so a series moves smoothly through the chosen values instead of
    jumping.
    """
    if t >= 0 or t <= -KNOT_REACH or len(points) < 3:
        return 0.0
    for (t0, v0), (t1, v1) in itertools.pairwise(points):
        if t0 <= t <= t1:
            return v0 + (v1 - v0) * (t - t0) / (t1 - t0)
    return 0.0


@lru_cache(maxsize=65536)
def _event_shape(words: tuple[str, ...], shortest: int, longest: int) -> tuple[int, int]:
    r = rng_for("event-shape", *words)
    length = r.randint(shortest, longest)
    return length, r.randrange(length)


@lru_cache(maxsize=262144)
def _event_in_block(words: tuple[str, ...], block: int, chance: float, length: int) -> tuple[int, int] | None:
    """(start, end) of the event within a block, as positions in the block, or None when it has none."""
    if unit("event", *words, block) >= chance:
        return None
    start = int(unit("event-start", *words, block) * length * 0.6)
    span = max(7, int(length * (0.15 + 0.35 * unit("event-span", *words, block))))
    return start, start + span


def window_event(words: tuple[str, ...], t: int, chance: float, period: tuple[int, int]) -> bool:
    """Whether ``t`` falls in this series' event: each period-long block has one with ``chance``.

    Used for a referring domain that disappears for a while (or an extra one that appears), and a live
    link that is lost for a while. The block holding the epoch never has an event, so the epoch's
    answer is the one the demo data always gave.
    """
    length, offset = _event_shape(words, *period)
    block = (t + offset) // length
    if block == offset // length:  # the epoch's block
        return False
    event = _event_in_block(words, block, chance, length)
    return event is not None and event[0] <= (t + offset) % length < event[1]


# --- Trust Map members ------------------------------------------------------------------------
#: The first this-many members of a site (in the order they were drawn) never leave its map, so a
#: site always keeps enough referring domains for its top and bottom backlinks.
STABLE_MEMBERS = 10
#: Who links to a site is re-read once a week (as a crawl would): members join and leave, and
#: links are lost, on the week's first day; the members' ratings still move daily.
MAP_REFRESH_DAYS = 7


def map_day(t: int) -> int:
    """The day the site's map membership was last re-read (t itself on refresh days)."""
    return t - t % MAP_REFRESH_DAYS


def extra_members(wanted: int) -> int:
    """How many referring domains may join a site's map over time, besides its epoch members."""
    return 6 + wanted // 6


def member_gone(domain: str, index: int, t: int) -> bool:
    """Whether the site's epoch member number ``index`` has left its map on day ``t`` (for a while)."""
    words = ("map-gone", domain, str(index))
    return index >= STABLE_MEMBERS and window_event(words, map_day(t), 0.5, (120, 360))


def extra_joined(domain: str, index: int, t: int) -> bool:
    """Whether the site's extra member number ``index`` links to it on day ``t``."""
    return window_event(("map-new", domain, str(index)), map_day(t), 0.6, (90, 300))


def link_lost(domain: str, member: str, t: int) -> bool:
    """Whether a live link from ``member`` to the site is lost on day ``t`` (it may come back)."""
    return window_event(("map-lost", domain, member), map_day(t), 0.35, (60, 240))


def members_present(domain: str, wanted: int, t: int) -> int:
    """How many referring domains the site's map holds on day ``t`` (no names needed)."""
    if t == 0:
        return wanted
    kept = sum(1 for i in range(wanted) if not member_gone(domain, i, t))
    return kept + sum(1 for j in range(extra_members(wanted)) if extra_joined(domain, j, t))
