"""Every watched keyword's weekly points made at once (``readings_of``, what a report and the When
winnable tab use) are each keyword's own (``readings`` of its series alone): the same points, weeks of
history and days, on series of different lengths, with gaps, missing values and none at all."""

from __future__ import annotations

from datetime import date

import numpy as np
import pandas as pd

from analysis.opportunities.series import KeywordDrs, drs_by_keyword
from analysis.opportunities.weeks import Readings, readings, readings_by_column, readings_of, weekly


def _series(days: int, start: str, step: int = 1, missing: tuple[int, ...] = ()) -> pd.DataFrame:
    index = pd.DatetimeIndex(pd.date_range(start, periods=days, freq=f"{step}D"), name="day")
    rng = np.random.default_rng(days)
    median = 40 + rng.integers(-3, 4, days).astype("float64")
    median[list(missing)] = np.nan
    return pd.DataFrame({"median_dr": median, "min_dr": median - 10}, index=index)


def _same(found: Readings, expected: Readings) -> None:
    np.testing.assert_array_equal(found.x, expected.x)
    np.testing.assert_array_equal(found.y, expected.y)
    assert (found.weeks, found.first, found.last, found.latest) == (
        expected.weeks,
        expected.first,
        expected.last,
        expected.latest,
    )


def _last_known(series: pd.Series) -> float | None:
    known = pd.to_numeric(series, errors="coerce").dropna().sort_index()
    return float(known.iloc[-1]) if len(known) else None


def test_all_keywords_at_once_are_each_keywords_own() -> None:
    frames = {
        "a year": _series(365, "2025-11-01"),
        "gaps": _series(40, "2026-01-03", step=3, missing=(0, 5, 6, 39)),
        "three days": _series(3, "2026-10-30"),
        "nothing known": _series(10, "2026-05-01", missing=tuple(range(10))),
        "nothing": _series(0, "2026-05-01"),
        "a text among numbers": _series(30, "2026-02-01").astype({"median_dr": "object"}),
    }
    frames["a text among numbers"].iloc[4, 0] = "n/a"
    both = readings_by_column(frames, ["median_dr", "min_dr"])
    for column in ("median_dr", "min_dr"):
        found = readings_of(frames, column)
        assert list(found) == list(frames) == list(both[column])
        for keyword, frame in frames.items():
            _same(found[keyword], readings(frame[column]))
            _same(both[column][keyword], found[keyword])
            assert found[keyword].latest == _last_known(frame[column])  # the table's DR "now"
    year = readings_of(frames, "median_dr")["a year"]
    assert (year.first, year.last, year.weeks, len(year.x)) == (date(2025, 11, 1), date(2026, 10, 31), 52, 53)
    assert readings_of(frames, "median_dr")["nothing known"].last is None


def test_the_series_kept_as_one_array_give_the_same_readings_as_a_frame_each() -> None:
    """``drs_by_keyword`` keeps every keyword's days in one array (a report reads 5,000 from it and makes
    a frame only for those it shows): the readings cut from it are those of each keyword's frame."""
    frames = {
        "a year": _series(365, "2025-11-01"),
        "gaps": _series(40, "2026-01-03", step=3, missing=(0, 5, 6, 39)),
        "three days": _series(3, "2026-10-30"),
    }
    spread = pd.concat(
        [frame.reset_index().assign(keyword=keyword) for keyword, frame in frames.items()], ignore_index=True
    ).sample(frac=1.0, random_state=7)  # as a database answers: in no particular order
    kept = drs_by_keyword(spread)
    assert isinstance(kept, KeywordDrs) and list(kept) == list(frames)
    both = readings_by_column(kept, ["median_dr", "min_dr"])
    for column in ("median_dr", "min_dr"):
        for keyword, frame in frames.items():
            _same(both[column][keyword], readings(frame[column]))
    for keyword, frame in frames.items():
        pd.testing.assert_frame_equal(kept[keyword], frame, check_freq=False)


def test_a_week_is_the_median_of_its_days_counted_back_from_the_last() -> None:
    """Nine days: the last seven are week 0 (their median on their middle day), the first two week 1."""
    series = pd.Series(
        [1.0, 3.0, 5.0, 5.0, 6.0, 9.0, 7.0, 8.0, 100.0], index=pd.date_range("2026-01-01", periods=9)
    )
    points = weekly(series)
    assert points.index.tolist() == [0.5, 5.0] and points.tolist() == [2.0, 7.0]
    assert readings(series).weeks == 1  # two weeks with a reading, one whole week covered


def _pandas_weeks(series: pd.Series) -> tuple[list[float], list[float]]:
    """The weekly points by their definition, with pandas: the median of each week's days (since the first
    reading) and of its readings, weeks counted back from the last day, earliest week first."""
    known = series.dropna()
    days = (known.index - known.index.min()).days.to_numpy()
    weeks = (days.max() - days) // 7
    frame = pd.DataFrame({"week": weeks, "x": days.astype(float), "y": known.to_numpy()})
    points = frame.groupby("week").median().sort_index(ascending=False)
    return points["x"].tolist(), points["y"].tolist()


def test_weekly_points_are_the_weeks_medians_even_when_one_week_is_far_wider() -> None:
    """A day given again and again (one week holding most readings) is grouped as evenly spread weeks are:
    each week's point is the median of its own days and readings."""
    rng = np.random.default_rng(3)
    even = pd.Series(rng.integers(20, 60, 200).astype(float), index=pd.date_range("2026-01-01", periods=200))
    crowded_days = pd.DatetimeIndex(
        [*pd.date_range("2026-03-01", periods=60), *[pd.Timestamp("2026-04-15")] * 500]
    )
    crowded = pd.Series(rng.integers(20, 60, len(crowded_days)).astype(float), index=crowded_days)
    for series in (even, crowded, pd.concat([even, crowded]).sort_index(kind="stable")):
        found = readings(series)
        x, y = _pandas_weeks(series)
        np.testing.assert_allclose(found.x, x)
        np.testing.assert_allclose(found.y, y)
    frames = {"even": even.to_frame("median_dr"), "crowded": crowded.to_frame("median_dr")}
    for keyword, each in readings_of(frames, "median_dr").items():
        _same(each, readings(frames[keyword]["median_dr"]))
