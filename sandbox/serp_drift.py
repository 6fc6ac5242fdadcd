"""When a keyword's top 10 changes with the day: challengers' stints in it, and neighbours trading places.

Who ranks for a keyword on a day is the epoch's top 10 (``keyword_data.serp``) changed by two kinds
of stint, each a pure function of the case-folded keyword and the days from the epoch (no walking
day by day, the same on every machine), which ``keyword_data.serp_on`` applies:

* an **entry**: one of the keyword's challengers (domains outside its epoch top 10) takes the place
  of one of its rows for days to weeks, then leaves and the row comes back;
* a **leader's entry**: the same for one of the leaders of the keyword's head terms (sites that rank
  for its single words, and so compete for every keyword with that word), in another row;
* a **rival's entry**: each of the well-known competitors a demo key follows holds a row of a keyword
  about one of its sites' topics for weeks at a time, then is out of it for a while (each rival on a
  timeline of its own, so the key's competitors rank on different days at different places);
* a **swap**: two adjacent rows trade places for a few days to two weeks; the leading three results
  also trade places among themselves now and then (a **top swap**), as a market's leaders do;
* an **owned move**: a row a demo key owns trades places with its neighbour above or below for days
  to a couple of weeks (a site's own rankings are what its owner watches move, so they move more
  often than a generic swap would move them; never out of the top 10).

Each kind runs on its own timeline of blocks, whose length and phase are the keyword's own, so
different keywords change on different days while any one keyword changes only now and then. A
block holds at most one stint, inside it, so stints of a kind never overlap and a change holds for
days (never flickers). A stint that would cover the epoch day is dropped: on the epoch every top
10 is exactly the one the demo data always gave.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from sandbox.hashing import rng_for, unit


@dataclass(frozen=True)
class Timeline:
    """How one kind of stint is laid out in time for every keyword."""

    name: str
    #: Shortest and longest block, in days (each keyword draws its own length).
    block: tuple[int, int]
    #: Chance that a block holds a stint.
    chance: float
    #: Shortest and longest stint, in days (capped to fit its block with a day to spare).
    span: tuple[int, int]


ENTRIES = Timeline("serp-entry", block=(24, 42), chance=0.92, span=(7, 28))
SWAPS = Timeline("serp-swap", block=(18, 36), chance=0.75, span=(3, 14))
TOP_SWAPS = Timeline("serp-top-swap", block=(30, 56), chance=0.55, span=(4, 12))
LEADER_ENTRIES = Timeline("serp-leader-entry", block=(30, 56), chance=0.7, span=(7, 28))
RIVAL_ENTRIES = Timeline("serp-rival-entry", block=(30, 60), chance=0.95, span=(20, 58))
OWNED_MOVES = Timeline("serp-owned-move", block=(12, 26), chance=0.85, span=(4, 14))


@dataclass(frozen=True)
class Stint:
    """Days ``start`` up to (not including) ``end`` from the epoch, and two draws in [0, 1) saying what
    changes (which challenger and which row for an entry; which pair of rows for a swap)."""

    start: int
    end: int
    first: float
    second: float


@lru_cache(maxsize=8192)
def _shape(timeline: Timeline, folded: str) -> tuple[int, int]:
    """The keyword's block length and its phase (days its blocks are shifted by)."""
    length = rng_for(timeline.name, "block", folded).randint(*timeline.block)
    return length, int(unit(timeline.name, "phase", folded) * length)


@lru_cache(maxsize=262144)
def _stint(timeline: Timeline, folded: str, block: int) -> Stint | None:
    """The stint of the keyword's block number ``block``, or None when the block has none."""
    r = rng_for(timeline.name, "stint", folded, block)
    if r.random() >= timeline.chance:
        return None
    length, phase = _shape(timeline, folded)
    shortest, longest = timeline.span
    span = r.randint(shortest, max(shortest, min(longest, length - 2)))
    begin = block * length - phase + r.randint(0, max(0, length - span - 1))
    if begin <= 0 < begin + span:
        return None  # the epoch's top 10 never changes
    return Stint(begin, begin + span, r.random(), r.random())


def stint_on(timeline: Timeline, folded: str, t: int) -> Stint | None:
    """The keyword's stint of this kind covering day ``t`` (days from the epoch), or None."""
    length, phase = _shape(timeline, folded)
    stint = _stint(timeline, folded, (t + phase) // length)
    return stint if stint is not None and stint.start <= t < stint.end else None


def entry_on(folded: str, t: int, challengers: int, places: int) -> tuple[int, int] | None:
    """(which challenger, which of the ``places`` it takes) on day ``t``, or None when none is in."""
    stint = stint_on(ENTRIES, folded, t)
    if stint is None or not challengers or not places:
        return None
    return int(stint.first * challengers), int(stint.second * places)


def leader_entry_on(folded: str, t: int, leaders: int, places: int) -> tuple[int, int] | None:
    """(which head-term leader, which of the ``places`` it takes) on day ``t``, or None when none is in."""
    stint = stint_on(LEADER_ENTRIES, folded, t)
    if stint is None or not leaders or not places:
        return None
    return int(stint.first * leaders), int(stint.second * places)


def rival_entry_on(
    folded: str, rival: str, band: tuple[int, int], t: int, places: int
) -> tuple[int, int] | None:
    """(the day its stint began, which of the ``places`` it takes) for the followed competitor ``rival``
    on day ``t``, or None when it is out of the keyword's top 10 that day.

    ``band`` is (the rival's rank among the keyword's followed competitors, how many there are): each
    ranks within its own band of the places, the first highest, as a market's big players keep their
    standing from one of its keywords to the next. The day its stint began says who came first when
    more want in than there is room for."""
    stint = stint_on(RIVAL_ENTRIES, f"{folded}\x1f{rival}", t)
    if stint is None or not places:
        return None
    rank, rivals = band
    return stint.start, min(places - 1, int((rank + stint.first) / rivals * places))


def swap_on(folded: str, t: int, rows: int) -> int | None:
    """The upper position (1-based) of the two adjacent rows trading places on day ``t``, or None."""
    stint = stint_on(SWAPS, folded, t)
    if stint is None or rows < 2:
        return None
    return 1 + int(stint.first * (rows - 1))


def top_swap_on(folded: str, t: int) -> int | None:
    """The upper position (1 or 2) of the two leading rows trading places on day ``t``, or None."""
    stint = stint_on(TOP_SWAPS, folded, t)
    return None if stint is None else 1 + int(stint.first * 2)


def owned_move_on(folded: str, t: int, owned: int) -> tuple[int, bool] | None:
    """(which of the keyword's ``owned`` rows, whether it moves up) on day ``t``, or None."""
    stint = stint_on(OWNED_MOVES, folded, t)
    if stint is None or not owned:
        return None
    return int(stint.first * owned), stint.second < 0.5
