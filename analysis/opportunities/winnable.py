"""When a keyword becomes winnable at the site's own pace: the site's DR trend against the trend of the
keyword's top 10 (its median DR, or its lowest DR for a first foothold), each a Theil–Sen line with a
confidence band, and the month the two lines cross. Pure (series in, a typed answer out).

**The fit.** Each series is first reduced to one point per week (the median of the week's readings):
DR moves in steps and a day is much like the day before, so daily points would pass that persistence
off as evidence and make the band too narrow. Through the weekly points: the Theil–Sen line (the
median of the slopes between every pair of points, so one odd day or week barely moves it) and Sen's
confidence interval of the slope (from the ranks of the pairwise slopes, ties counted; Sen 1968, the
interval ``scipy.stats.theilslopes`` gives). Weeks can still carry a deviation into the next (a DR
that sits above its trend for a month); the interval's variance is widened by (1 + ρ) / (1 − ρ), ρ the
weekly residuals' lag-1 autocorrelation (the modified Mann–Kendall correction; never narrowed). It is
written here in numpy (about 30 lines) rather than taken from scipy: scipy would add some 40 MB to
every install for one function, and the app uses nothing else of it; the tests hold this one to
worked examples and the backtest to known answers.

**The crossing.** Each line pivots on the middle of its weekly points, where it is surest; the month
is where the two lines meet, counted from the last recorded day ("now"). Its band comes from the band
of how fast the site gains on the top 10 (its slope minus the top 10's): the two slopes' intervals are
taken as independent and their half-widths added in quadrature (shared between the two slopes in
proportion to their variances), each edge pivoting on its line's middle, so an uncertain slope also
makes today's level uncertain. The band keeps about the slopes' level (``LEVEL``); the backtest
(``bench/winnable_backtest.py``) measures how often it holds.

**Within reach now** when the site's line is at or above the top 10's now, or the site's last
recorded week (its median) at or above the top 10's last recorded week.

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

from analysis.opportunities.weeks import Readings, Trend, readings

State = Literal["within_reach", "in_months", "not_at_this_pace", "too_little_history", "too_uncertain"]
Target = Literal["median", "lowest"]
#: Why no month is stated. Not at this pace: the top 10 rises at least as fast as the site
#: ("hardening"); the site does not gain on a flat or falling top 10; the crossing lies beyond the
#: horizon. Too uncertain: the band's slow end never arrives ("unbounded"), or lies too far ("too_wide").
Reason = Literal["", "hardening", "not_gaining", "beyond_horizon", "unbounded", "too_wide"]

#: Days in an average month (365.25 / 12): months are counted as this many days.
MONTH_DAYS = 30.4375
#: Weeks of history a projection needs (and so days from the first reading to the last, inclusive).
MIN_WEEKS = 8
#: The level of each slope's interval, and so (about) of the crossing's band.
LEVEL = 0.90
#: The most week-to-week persistence the band allows for (its width grows with it, ×4.4 at 0.9).
MAX_PERSISTENCE = 0.9
#: No crossing is stated further ahead than this.
HORIZON_MONTHS = 24
#: A band whose slow end lies beyond this is too wide to state.
UNCERTAIN_BEYOND_MONTHS = 36


@dataclass(frozen=True)
class Projection:
    """When the site's DR reaches the keyword's top 10 (``target``: its median DR or its lowest DR).

    ``months`` and ``band`` (months from ``now``) and ``day`` and ``band_days`` (as days) are set for
    ``in_months``; a ``too_uncertain`` one keeps its central ``months`` (and its ``band`` when bounded)
    for the chart, never for the words; ``weeks`` is how many weeks of history the fit had (for the
    words when too little); ``site`` and ``top10`` are the fitted lines for the chart (None with too
    little history).
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


def theil_sen(
    x: np.ndarray, y: np.ndarray, level: float = LEVEL, inflation: float = 1.0
) -> tuple[float, float, float, float]:
    """The Theil–Sen slope of y on x, its intercept (median of y − slope·x) and the slope's two-sided
    interval at ``level`` by Sen's method (the variance of Kendall's S with ties in x and in y removed,
    times ``inflation`` for points that are not independent): (slope, intercept, low, high). Needs at
    least two distinct x."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    slopes, slope, intercept = _slopes(x, y)
    return (slope, intercept, *_interval(slopes, x, y, level, inflation))


def _slopes(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, float, float]:
    """The pairwise slopes of y on x (sorted), their median and the line's intercept."""
    dx = x[:, None] - x[None, :]
    dy = y[:, None] - y[None, :]
    pairs = dx > 0
    slopes = np.sort(dy[pairs] / dx[pairs])
    if not slopes.size:
        raise ValueError("a slope needs readings on at least two different days")
    slope = float(np.median(slopes))
    return slopes, slope, float(np.median(y - slope * x))


def _interval(
    slopes: np.ndarray, x: np.ndarray, y: np.ndarray, level: float, inflation: float
) -> tuple[float, float]:
    """Sen's interval of the slope at ``level`` from the sorted pairwise ``slopes`` (``theil_sen``)."""
    n = len(y)

    def tied(values: np.ndarray) -> float:
        counts = np.unique(values, return_counts=True)[1]
        return float(np.sum(counts * (counts - 1) * (2 * counts + 5)))

    variance = inflation * (n * (n - 1) * (2 * n + 5) - tied(x) - tied(y)) / 18.0
    z = NormalDist().inv_cdf(0.5 + level / 2)
    spread = z * math.sqrt(max(variance, 0.0))
    total = len(slopes)
    upper = min(round((total + spread) / 2), total - 1)
    lower = max(round((total - spread) / 2) - 1, 0)
    return float(slopes[lower]), float(slopes[upper])


def fit(series: pd.Series, level: float = LEVEL) -> Trend:
    """The Theil–Sen line of a day → DR series through its weekly points, centred on their middle."""
    return _fit(readings(series), level)


def _fit(ready: Readings, level: float) -> Trend:
    if level in ready.trends:
        return ready.trends[level]
    if ready.first is None or ready.last is None:
        raise ValueError("a slope needs readings on at least two different days")
    first, last, x, y = ready.first, ready.last, ready.x, ready.y
    # The line's slopes once: its interval is then widened for persistence (``theil_sen``'s arithmetic).
    slopes, slope, intercept = _slopes(x, y)
    low, high = _interval(slopes, x, y, level, persistence_inflation(y - intercept - slope * x))
    middle = round(float(np.median(x)))
    centre = first + timedelta(days=middle)
    found = Trend(last, centre, intercept + slope * middle, slope, low, high, len(x))
    ready.trends[level] = found
    return found


def persistence_inflation(residuals: np.ndarray) -> float:
    """How much wider a slope's interval must be when one week's deviation from the line carries into
    the next: (1 + ρ) / (1 − ρ), ρ the residuals' lag-1 autocorrelation (0 when negative, at most
    ``MAX_PERSISTENCE``), the correction for persistent noise of the modified Mann–Kendall test."""
    centred = residuals - residuals.mean()
    scale = float(np.sum(centred**2))
    if len(centred) < 3 or not scale:
        return 1.0
    rho = min(max(float(np.sum(centred[1:] * centred[:-1])) / scale, 0.0), MAX_PERSISTENCE)
    return (1 + rho) / (1 - rho)


def crossing_days(site: Trend, top10: Trend, now: date, site_slope: float, top10_slope: float) -> float:
    """Days after ``now`` at which the site's line, at ``site_slope``, meets the top 10's, at
    ``top10_slope`` (each pivoting on its centre); the two slopes must differ."""
    origin = now.toordinal()
    site_centre, top_centre = site.centre.toordinal() - origin, top10.centre.toordinal() - origin
    numerator = top10.level - top10_slope * top_centre - site.level + site_slope * site_centre
    return numerator / (site_slope - top10_slope)


def _months(days: float) -> float:
    return days / MONTH_DAYS


def project(
    site_dr: pd.Series | Readings,
    top10_dr: pd.Series | Readings,
    target: Target = "median",
    *,
    horizon_months: float = HORIZON_MONTHS,
    level: float = LEVEL,
) -> Projection:
    """When the site (``site_dr``: day → its DR) reaches the keyword's top 10 (``top10_dr``: day → the
    top 10's median DR, or its lowest for ``target="lowest"``), at the pace both have kept so far.
    Either series may come as its ``readings`` already made (its line then fitted once), when one
    series is projected against many."""
    site_ready = site_dr if isinstance(site_dr, Readings) else readings(site_dr)
    top_ready = top10_dr if isinstance(top10_dr, Readings) else readings(top10_dr)
    weeks = min(site_ready.weeks, top_ready.weeks)
    if site_ready.last is None or top_ready.last is None:
        return Projection("too_little_history", target, None, weeks)
    now = max(site_ready.last, top_ready.last)
    if weeks < MIN_WEEKS:
        return Projection("too_little_history", target, now, weeks)
    site, top10 = _fit(site_ready, level), _fit(top_ready, level)
    site_now, target_now = site.at(now), top10.at(now)
    # Fitted against fitted, recorded against recorded: a single day's reading against a line would
    # call a lucky day "within reach".
    this_week = float(site_ready.y[-1]) >= float(top_ready.y[-1])
    fitted = Projection(
        "within_reach", target, now, weeks, site=site, top10=top10, site_now=site_now, target_now=target_now
    )
    if site_now >= target_now or this_week:
        return fitted
    gaining = site.slope - top10.slope
    if gaining <= 0:
        return replace(
            fitted, state="not_at_this_pace", reason="hardening" if top10.slope > 0 else "not_gaining"
        )
    central = _months(crossing_days(site, top10, now, site.slope, top10.slope))
    if central > horizon_months:
        return replace(fitted, state="not_at_this_pace", reason="beyond_horizon")
    # The band's edges: the gaining speed moved by the two intervals' half-widths added in quadrature,
    # shared between the two slopes in proportion to their variances (the likeliest split).
    rises, falls = site.high - site.slope, top10.slope - top10.low
    spread = math.hypot(rises, falls)
    fast = (site.slope + rises**2 / spread, top10.slope - falls**2 / spread) if spread else None
    drops, climbs = site.slope - site.low, top10.high - top10.slope
    spread = math.hypot(drops, climbs)
    slow = (site.slope - drops**2 / spread, top10.slope + climbs**2 / spread) if spread else None
    earliest = _months(crossing_days(site, top10, now, *fast)) if fast else central
    if slow is not None and slow[0] <= slow[1]:
        return replace(fitted, state="too_uncertain", reason="unbounded", months=central)
    latest = _months(crossing_days(site, top10, now, *slow)) if slow else central
    earliest, latest = max(min(earliest, central), 0.0), max(latest, central)
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
