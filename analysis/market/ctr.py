"""The click-through-rate curve the market figures weigh positions with: c(1)…c(10) in % of searches.

The default, 30 22 14 10 8 6 4 3 2 2, rounds the organic CTR by position that published studies of
Google's results find (about 28–32 % for the first result, falling steeply to about 2 % at the tenth:
Advanced Web Ranking's CTR study, Backlinko's 2023 analysis of 4 million results). A team whose own
data says otherwise sets ``[visibility] ctr = [...]`` (ten numbers) in the secrets file
(read by ``services.market.team_ctr``). Only the
curve's shape matters to visibility (each position is read as a share of the first's), and share of
voice is a share of the day's total, so any scale works.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

DEFAULT_CTR: tuple[float, ...] = (30.0, 22.0, 14.0, 10.0, 8.0, 6.0, 4.0, 3.0, 2.0, 2.0)
POSITIONS = len(DEFAULT_CTR)


class CtrCurveError(ValueError):
    """A configured curve that cannot weigh positions; the message says what is wrong, in plain words."""


def ctr_curve(values: Sequence[Any]) -> tuple[float, ...]:
    """Ten numbers, none negative, none above the one before (a lower place never earns more clicks),
    the first above 0; CtrCurveError otherwise."""
    if isinstance(values, str | bytes) or len(values) != POSITIONS:
        raise CtrCurveError(f"[visibility] ctr needs {POSITIONS} numbers, one per position 1 to 10")
    try:
        curve = tuple(float(value) for value in values if not isinstance(value, bool))
    except (TypeError, ValueError):
        raise CtrCurveError("[visibility] ctr holds something that is not a number") from None
    if len(curve) != POSITIONS or curve[0] <= 0 or any(value < 0 for value in curve):
        raise CtrCurveError("[visibility] ctr needs numbers of 0 or more, the first above 0")
    if any(later > earlier for earlier, later in itertools.pairwise(curve)):
        raise CtrCurveError("[visibility] ctr must not rise from one position to the next")
    return curve
