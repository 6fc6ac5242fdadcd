"""The weekly points a projection is fitted through, and what else it reads of a day → DR series (its
weeks of history, its first and last day): of one series, or of every watched keyword's at once. Pure.

A week's point is the median of its readings, counted in 7-day steps back from the series' last day,
placed on the week's middle reading day (as days since the first reading); see
``analysis.opportunities.winnable`` for why weeks. A report projects every watched keyword against the
site twice (the top 10's median and lowest DR): at 5,000 keywords, making those points one series at a
time in pandas was most of its time, so ``readings_of`` makes them for all of a site's keywords in one
numpy pass, by the same arithmetic as ``readings`` of each (the tests hold the two to the same numbers).
That pass sorts the readings by series and week once (``_Weeks``: near linear, as the DRs arrive in
that order) and takes a week's medians in a short row of its own, not by sorting 3.6 million readings by
value again for each median: 2.0 s became 0.4 s at 5,000 keywords.
A series' line (``Trend``, fitted by ``winnable.fit``) is kept with its readings, so a site's is fitted
once however many keywords it is projected against.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date

import numpy as np
import pandas as pd

from analysis.opportunities.series import DR_COLUMNS, KeywordDrs

#: ``date.toordinal()`` of 1970-01-01, the day numbers' zero.
_EPOCH = date(1970, 1, 1).toordinal()


@dataclass(frozen=True)
class Trend:
    """A Theil–Sen line through weekly points: ``level`` on ``centre`` (the middle of the weekly points,
    where the line is surest), ``slope`` in DR per day with its interval (``low``, ``high``) at the
    level it was fitted at (``winnable.LEVEL`` unless asked); ``anchor`` is the last recorded day
    ("now")."""

    anchor: date
    centre: date
    level: float
    slope: float
    low: float
    high: float
    points: int

    def at(self, day: date, slope: float | None = None) -> float:
        """The line's value on ``day`` (with ``slope``: one of its band's edges, pivoting on the centre)."""
        return self.level + (self.slope if slope is None else slope) * (day - self.centre).days

    @property
    def value(self) -> float:
        """The line's value now (on ``anchor``)."""
        return self.at(self.anchor)


@dataclass(frozen=True, eq=False)  # its arrays are compared by identity, never hashed
class Readings:
    """One day → DR series as a projection reads it: its weekly points (``x``: days since the first
    reading, ``y``: the week's median, from the first week on), its weeks of history (the weeks with a
    reading, at most the whole weeks from the first reading to the last, inclusive) and its first and
    last day (None without a reading). Made once a series, however many projections read it."""

    x: np.ndarray
    y: np.ndarray
    weeks: int
    first: date | None
    last: date | None
    #: The reading on its last day (None without a reading): what the series says now.
    latest: float | None = None
    #: Its line by level (``winnable.fit``), made when first asked for.
    trends: dict[float, Trend] = field(default_factory=dict, repr=False)


def _empty() -> Readings:
    return Readings(np.empty(0), np.empty(0), 0, None, None)


def _day_numbers(index: pd.Index) -> np.ndarray:
    """Each label's day (midnight of it) as days since 1970-01-01."""
    days = index if isinstance(index, pd.DatetimeIndex) else pd.DatetimeIndex(pd.to_datetime(index))
    if days.tz is not None:  # its own day, as ``normalize`` takes it
        days = days.tz_localize(None)
    return days.to_numpy().astype("datetime64[D]").astype(np.int64)


def _numbers(series: pd.Series) -> tuple[np.ndarray, np.ndarray]:
    """The day numbers and values of ``series``' readings (not numbers and missing ones dropped)."""
    if series.dtype != "float64":
        series = pd.to_numeric(series, errors="coerce").astype("float64")
    values = series.to_numpy(dtype=float)
    known = ~np.isnan(values)
    return _day_numbers(series.index)[known], values[known]


#: A week's readings side by side (``_Weeks``) while the widest week is at most this many times the
#: readings on average: a week holds 7 days, more only when a series gives a day twice.
_PADDED_AT_MOST = 8


@dataclass(frozen=True)
class _Weeks:
    """Readings grouped by key, each group's once: ``order`` sorts the readings by key (stably),
    ``keys`` holds each group's key ascending, ``starts`` and ``counts`` where each group's readings
    lie in that order. Found with one sort for all the medians taken over the same groups."""

    order: np.ndarray
    keys: np.ndarray
    starts: np.ndarray
    counts: np.ndarray

    @classmethod
    def of(cls, keys: np.ndarray) -> _Weeks:
        order = np.argsort(keys, kind="stable")  # near linear on keys already in order, as the DRs come
        ordered = keys[order]
        starts = np.flatnonzero(np.concatenate(([True], ordered[1:] != ordered[:-1])))
        return cls(order, ordered[starts], starts, np.diff(np.append(starts, len(keys))))

    def medians(self, values: np.ndarray) -> np.ndarray:
        """The median of ``values`` in each group: its readings sorted side by side in a row of their
        own when no week is much wider than the rest (a sort of a few values a row), else sorted by
        group and value together."""
        ordered, counts = values[self.order], self.counts
        width = int(counts.max())
        if width * len(counts) <= _PADDED_AT_MOST * len(ordered):
            group = np.repeat(np.arange(len(counts)), counts)
            padded = np.full((len(counts), width), np.inf)
            padded[group, np.arange(len(ordered)) - self.starts[group]] = ordered
            padded.sort(axis=1)
            rows = np.arange(len(counts))
            return (padded[rows, (counts - 1) // 2] + padded[rows, counts // 2]) / 2
        by_value = np.lexsort((ordered, np.repeat(np.arange(len(counts)), counts)))
        ordered = ordered[by_value]
        return (ordered[self.starts + (counts - 1) // 2] + ordered[self.starts + counts // 2]) / 2


def _readings(series: list[tuple[np.ndarray, np.ndarray]]) -> list[Readings]:
    """``Readings`` of each (day numbers, values) series, in one pass over all their readings."""
    sizes = np.array([len(days) for days, _values in series], dtype=np.int64)
    found = [_empty() for _ in series]
    if not sizes.sum():
        return found
    groups = np.repeat(np.arange(len(series)), sizes)
    days = np.concatenate([days for days, _values in series])
    values = np.concatenate([values for _days, values in series])
    first = np.zeros(len(series), dtype=np.int64)
    last = np.zeros(len(series), dtype=np.int64)
    given = np.flatnonzero(sizes)  # each series' readings lie together: reduced where each starts
    offsets = np.cumsum(sizes) - sizes
    first[given] = np.minimum.reduceat(days, offsets[given])
    last[given] = np.maximum.reduceat(days, offsets[given])
    weeks = (last[groups] - days) // 7  # week 0 is each series' latest
    span = int(weeks.max()) + 1
    # One key per series and week, ascending from each series' first week to its latest.
    grouped = _Weeks.of(groups * span + (span - 1 - weeks))
    x = grouped.medians((days - first[groups]).astype(float))
    y = grouped.medians(values)
    owners = grouped.keys // span
    starts = np.searchsorted(owners, np.arange(len(series)), side="left")
    ends = np.searchsorted(owners, np.arange(len(series)), side="right")
    # Each series' reading on its last day (its latest given, when a day is given twice).
    on_last = np.flatnonzero(days == last[groups])
    latest_at = np.full(len(series), -1)
    np.maximum.at(latest_at, groups[on_last], on_last)
    for n in given:
        start, end = starts[n], ends[n]
        covered = int(last[n] - first[n]) + 1
        found[n] = Readings(
            x[start:end],
            y[start:end],
            min(int(end - start), covered // 7),
            date.fromordinal(int(first[n]) + _EPOCH),
            date.fromordinal(int(last[n]) + _EPOCH),
            float(values[latest_at[n]]),
        )
    return found


def readings(series: pd.Series) -> Readings:
    """``series`` (day → DR) as a projection reads it (``Readings``)."""
    return _readings([_numbers(series)])[0]


def readings_of(frames: Mapping[str, pd.DataFrame], column: str) -> dict[str, Readings]:
    """``readings`` of ``column`` of each frame (day-indexed, as ``top10_dr_by_keyword`` gives them), by
    the frame's key, all at once."""
    return readings_by_column(frames, (column,))[column]


def readings_by_column(
    frames: Mapping[str, pd.DataFrame], columns: Sequence[str]
) -> dict[str, dict[str, Readings]]:
    """``readings_of`` of each of ``columns``, each frame's days and values taken out once for all of
    them (at 5,000 keywords, a column and a day index made a keyword and column were seconds)."""
    keys = list(frames)
    if isinstance(frames, KeywordDrs):  # every keyword's days in one array: sliced, no frame made
        numbers = _sliced_numbers(frames, keys, columns)
    else:
        numbers = [_frame_numbers(frames[key], columns) for key in keys]
    found: dict[str, dict[str, Readings]] = {}
    for n, column in enumerate(columns):
        series = [_known(days, values[:, n]) for days, values in numbers]
        found[column] = dict(zip(keys, _readings(series), strict=True))
    return found


def _frame_numbers(frame: pd.DataFrame, columns: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """The day numbers of ``frame``'s rows and its ``columns`` as floats, one column each (a value that
    is not a number: NaN)."""
    names = list(frame.columns)  # a few names: looked up in a list (an index's lookup is 0.5 ms a call)
    try:  # numbers already (the DR series are): the frame's values at once, no column made
        values = frame.to_numpy(dtype=float, na_value=np.nan)[:, [names.index(column) for column in columns]]
    except (TypeError, ValueError):  # a column holding text: each chosen column coerced
        values = np.column_stack(
            [pd.to_numeric(frame[column], errors="coerce").to_numpy(dtype=float) for column in columns]
        ).reshape(len(frame), len(columns))
    return _day_numbers(frame.index), values


def _sliced_numbers(
    frames: KeywordDrs, keys: Sequence[str], columns: Sequence[str]
) -> list[tuple[np.ndarray, np.ndarray]]:
    """``_frame_numbers`` of each keyword of ``frames``, cut from its arrays."""
    days = _day_numbers(frames.days)
    values = frames.drs[:, [DR_COLUMNS.index(column) for column in columns]]
    return [(days[start:end], values[start:end]) for start, end in (frames.bounds[key] for key in keys)]


def _known(days: np.ndarray, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    known = ~np.isnan(values)
    return days[known], values[known]


def weekly(series: pd.Series) -> pd.Series:
    """One point per week from a day → value series (missing values dropped): the median of each week's
    readings, counted in 7-day steps back from the last day, placed on the week's middle reading day
    (as days since the first reading). Empty when there is nothing."""
    found = readings(series)
    if found.last is None:
        return pd.Series(dtype="float64")
    return pd.Series(found.y, index=found.x)


def history_weeks(series: pd.Series) -> int:
    """How many weeks of history ``series`` holds: the weeks with a reading, at most the whole weeks from
    the first reading to the last (inclusive)."""
    return readings(series).weeks
