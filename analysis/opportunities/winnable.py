"""When a keyword becomes winnable at the site's own pace: the site's DR trend against the trend of the
keyword's top 10 (its median DR, or its lowest DR for a first foothold), each a Theil–Sen line with a
confidence band, and the month the two lines cross. Pure (series in, a typed answer out).

**The fit.** Each series is first reduced to one point per week (the median of the week's readings):
DR moves in steps and a day is much like the day before, so daily points would pass that persistence
off as evidence and make the band too narrow. Through the weekly points: the Theil–Sen line (the
median of the slopes between every pair of points, so one odd day or week barely moves it) and Sen's
confidence interval of the slope (from the ranks of the pairwise slopes, ties counted; Sen 1968, the
interval ``scipy.stats.theilslopes`` gives). It is written here in numpy (about 20 lines) rather than
taken from scipy: scipy would add some 40 MB to every install for one function, and the app uses
nothing else of it; the tests hold this one to worked examples.

**The crossing.** Both lines are read at the last recorded day ("now"). The gap now, divided by how
fast the site gains on the top 10 (its slope minus the top 10's), is the time to the crossing. The
band of that time comes from the band of the gaining speed: the two slopes' intervals are taken as
independent and their half-widths added in quadrature, so the band keeps about the slopes' level
(``LEVEL``); the backtest (``bench/winnable_backtest.py``) measures how often it holds.

**What it will not claim.**
- Less than ``MIN_WEEKS`` weeks of history (a reading in each of 8 different weeks, the first and
  last reading at least 56 days apart counted inclusively): too little history.
- The site not gaining on the top 10 at the central slopes: not at the current pace.
- A crossing beyond ``HORIZON_MONTHS`` (two years) at the central pace: not within two years.
- A band whose slow end never arrives (the slow edge of the gaining speed is 0 or less) or lies beyond
  ``UNCERTAIN_BEYOND_MONTHS`` (three years, half as far again as the horizon): too uncertain — a
  month whose band reaches past anything the app would ever state says nothing a marketer can plan on.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from datetime import date, timedelta
from statistics import NormalDist
from typing import Literal

import numpy as np
import pandas as pd

State = Literal["within_reach", "in_months", "not_at_this_pace", "too_little_history", "too_uncertain"]
Target = Literal["median", "lowest"]
#: Why the site does not reach the top 10 at this pace: the top 10 rises at least as fast as the
#: site; the site does not gain on a flat or falling top 10; the crossing lies beyond the horizon.
Reason = Literal["", "hardening", "not_gaining", "beyond_horizon", "unbounded", "too_wide"]

#: Days in an average month (365.25 / 12): months are counted as this many days.
MONTH_DAYS = 30.4375
#: Weeks of history a projection needs (and so days from the first reading to the last, inclusive).
MIN_WEEKS = 8
MIN_DAYS = MIN_WEEKS * 7
#: The level of each slope's interval, and so (about) of the crossing's band.
LEVEL = 0.90
#: No crossing is stated further ahead than this.
HORIZON_MONTHS = 24
#: A band whose slow end lies beyond this is too wide to state.
UNCERTAIN_BEYOND_MONTHS = 36


@dataclass(frozen=True)
class Trend:
    """A Theil–Sen line through weekly points: ``value`` on ``anchor`` (the last recorded day), ``slope``
    in DR per day with its interval (``low``, ``high``) at ``LEVEL``."""

    anchor: date
    value: float
    slope: float
    low: float
    high: float
    points: int

    def at(self, day: date, slope: float | None = None) -> float:
        """The line's value on ``day`` (with ``slope``: one of its band's edges, pivoting on the anchor)."""
        return self.value + (self.slope if slope is None else slope) * (day - self.anchor).days


@dataclass(frozen=True)
class Projection:
    """When the site's DR reaches the keyword's top 10 (``target``: its median DR or its lowest DR).

    ``months`` and ``band`` (months from ``now``) and ``day`` and ``band_days`` are set for
    ``in_months`` only; ``weeks`` is how many weeks of history the fit had (for the words when too
    little); ``site`` and ``top10`` are the fitted lines for the chart (None with too little history).
    """

    state: State
    target: Target
    now: date | None
    weeks: int
    reason: Reason = ""
    months: float | None = None
    band: tuple[float, float] | None = None
    day: date | None = None
    band_days: tuple[date, date] | None = None
    site: Trend | None = None
    top10: Trend | None = None
    site_now: float | None = None
    target_now: float | None = None


def theil_sen(x: np.ndarray, y: np.ndarray, level: float = LEVEL) -> tuple[float, float, float, float]:
    """The Theil–Sen slope of y on x, its intercept (median of y − slope·x) and the slope's two-sided
    interval at ``level`` by Sen's method (the variance of Kendall's S with ties in x and in y removed):
    (slope, intercept, low, high). Needs at least two distinct x."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    dx = x[:, None] - x[None, :]
    dy = y[:, None] - y[None, :]
    pairs = dx > 0
    slopes = np.sort(dy[pairs] / dx[pairs])
    if not slopes.size:
        raise ValueError("a slope needs readings on at least two different days")
    slope = float(np.median(slopes))
    intercept = float(np.median(y - slope * x))
    n = len(y)

    def tied(values: np.ndarray) -> float:
        counts = np.unique(values, return_counts=True)[1]
        return float(np.sum(counts * (counts - 1) * (2 * counts + 5)))

    variance = (n * (n - 1) * (2 * n + 5) - tied(x) - tied(y)) / 18.0
    z = NormalDist().inv_cdf(0.5 + level / 2)
    spread = z * math.sqrt(max(variance, 0.0))
    total = len(slopes)
    upper = min(round((total + spread) / 2), total - 1)
    lower = max(round((total - spread) / 2) - 1, 0)
    return slope, intercept, float(slopes[lower]), float(slopes[upper])


def weekly(series: pd.Series) -> pd.Series:
    """One point per week from a day → value series (missing values dropped): the median of each week's
    readings, counted in 7-day steps back from the last day, placed on the week's middle reading day
    (as days since the first reading). Empty when there is nothing."""
    values = pd.to_numeric(series, errors="coerce").dropna()
    if values.empty:
        return pd.Series(dtype="float64")
    days = pd.to_datetime(pd.Series(values.index, index=values.index)).dt.normalize()
    offsets = (days - days.min()).dt.days.to_numpy()
    weeks = (offsets.max() - offsets) // 7
    frame = pd.DataFrame({"week": weeks, "offset": offsets, "value": values.to_numpy(dtype=float)})
    grouped = frame.groupby("week")
    points = pd.Series(grouped["value"].median().to_numpy(), index=grouped["offset"].median().to_numpy())
    return points.sort_index()


def history_weeks(series: pd.Series) -> int:
    """How many weeks of history ``series`` holds: the weeks with a reading, at most the whole weeks from
    the first reading to the last (inclusive)."""
    values = pd.to_numeric(series, errors="coerce").dropna()
    if values.empty:
        return 0
    days = pd.to_datetime(pd.Series(values.index)).dt.normalize()
    covered = (days.max() - days.min()).days + 1
    return min(len(weekly(values)), covered // 7)


def fit(series: pd.Series, level: float = LEVEL) -> Trend:
    """The Theil–Sen line of a day → DR series through its weekly points, anchored on its last day."""
    values = pd.to_numeric(series, errors="coerce").dropna()
    days = pd.to_datetime(pd.Series(values.index)).dt.normalize()
    first, last = days.min().date(), days.max().date()
    points = weekly(values)
    slope, intercept, low, high = theil_sen(points.index.to_numpy(dtype=float), points.to_numpy(), level)
    return Trend(last, intercept + slope * (last - first).days, slope, low, high, len(points))


def _months(days: float) -> float:
    return days / MONTH_DAYS


def project(
    site_dr: pd.Series,
    top10_dr: pd.Series,
    target: Target = "median",
    *,
    horizon_months: float = HORIZON_MONTHS,
    level: float = LEVEL,
) -> Projection:
    """When the site (``site_dr``: day → its DR) reaches the keyword's top 10 (``top10_dr``: day → the
    top 10's median DR, or its lowest for ``target="lowest"``), at the pace both have kept so far."""
    site_values = pd.to_numeric(site_dr, errors="coerce").dropna()
    top_values = pd.to_numeric(top10_dr, errors="coerce").dropna()
    weeks = min(history_weeks(site_values), history_weeks(top_values))
    if not len(site_values) or not len(top_values):
        return Projection("too_little_history", target, None, weeks)
    now = max(pd.Timestamp(site_values.index.max()), pd.Timestamp(top_values.index.max())).date()
    if weeks < MIN_WEEKS:
        return Projection("too_little_history", target, now, weeks)
    site, top10 = fit(site_values, level), fit(top_values, level)
    site_now, target_now = site.at(now), top10.at(now)
    reached = max(site_now, float(site_values.sort_index().iloc[-1]))
    fitted = Projection(
        "within_reach", target, now, weeks, site=site, top10=top10, site_now=reached, target_now=target_now
    )
    if reached >= target_now:
        return fitted
    gaining = site.slope - top10.slope
    if gaining <= 0:
        return replace(
            fitted, state="not_at_this_pace", reason="hardening" if top10.slope > 0 else "not_gaining"
        )
    gap = target_now - site_now
    central = _months(gap / gaining)
    if central > horizon_months:
        return replace(fitted, state="not_at_this_pace", reason="beyond_horizon")
    fast = gaining + math.hypot(site.high - site.slope, top10.slope - top10.low)
    slow = gaining - math.hypot(site.slope - site.low, top10.high - top10.slope)
    if slow <= 0:
        return replace(fitted, state="too_uncertain", reason="unbounded", months=central)
    earliest, latest = _months(gap / fast), _months(gap / slow)
    if latest > UNCERTAIN_BEYOND_MONTHS:
        return replace(
            fitted, state="too_uncertain", reason="too_wide", months=central, band=(earliest, latest)
        )
    return replace(
        fitted,
        state="in_months",
        months=central,
        band=(earliest, latest),
        day=_after(now, central),
        band_days=(_after(now, earliest), _after(now, latest)),
    )


def _after(now: date, months: float) -> date:
    return now + timedelta(days=round(months * MONTH_DAYS))
