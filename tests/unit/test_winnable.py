"""``analysis.opportunities.winnable``: when a keyword becomes winnable at the site's pace, on histories
whose answer is known (straight lines with and without noise), and the sentence and chart a marketer
sees."""

from __future__ import annotations

from datetime import date, timedelta

import numpy as np
import pandas as pd
import pytest

from analysis.opportunities import (
    answer_words,
    project,
    projection_dates,
    projection_words,
    theil_sen,
    winnable_chart,
)
from analysis.opportunities.series import site_dr_series, top10_dr_series
from analysis.opportunities.weeks import history_weeks
from analysis.opportunities.winnable import MONTH_DAYS, Projection, fit
from analysis.opportunities.words import projection_answer

START = date(2026, 1, 1)


def _line(start: float, per_month: float, days: int, noise: float = 0.0, seed: int = 0) -> pd.Series:
    rng = np.random.default_rng(seed)
    t = np.arange(days)
    values = start + per_month / MONTH_DAYS * t + rng.normal(0.0, noise, days)
    return pd.Series(values, index=pd.date_range(START, periods=days))


def test_known_straight_lines_cross_in_the_month_they_do() -> None:
    # The site gains 1 DR a month on a flat top 10 at 50; at day 119 the site is at ~43.9: ~6.1 months.
    site, top10 = _line(40, 1.0, 120), _line(50, 0.0, 120)
    projection = project(site, top10)
    truth = (50 - (40 + 119 / MONTH_DAYS)) / 1.0
    assert projection.state == "in_months"
    assert projection.months == pytest.approx(truth, abs=0.05)
    assert projection_words(projection) == "In about 6 months (between 6 and 7)"
    assert projection.day == START + timedelta(days=119) + timedelta(days=round(truth * MONTH_DAYS))


def test_a_noisy_history_still_gives_the_month_and_its_band_holds_the_truth() -> None:
    held, errors = 0, []
    for seed in range(20):
        site = _line(30, 1.5, 150, noise=0.8, seed=seed).round()
        top10 = _line(42, 0.1, 150, noise=1.5, seed=100 + seed)
        projection = project(site, top10)
        truth = (42 + 0.1 * 149 / MONTH_DAYS - 30 - 1.5 * 149 / MONTH_DAYS) / 1.4
        assert projection.state == "in_months"
        assert projection.months is not None and projection.band is not None
        errors.append(abs(projection.months - truth))
        held += projection.band[0] <= truth <= projection.band[1]
    assert float(np.median(errors)) < 1.0  # about 4 months ahead
    assert held >= 15  # a 90 % band: 18 expected, and fewer than 15 of 20 would be rare (p < 2 %)


def test_a_top_10_hardening_faster_than_the_site_grows_is_not_at_this_pace() -> None:
    projection = project(_line(30, 0.5, 120, noise=0.5), _line(45, 1.0, 120, noise=0.5, seed=1))
    assert projection.state == "not_at_this_pace"
    assert projection_words(projection) == (
        "Not at the current pace — the top 10 is hardening faster than the site grows"
    )
    assert projection_dates(projection) == ""


def test_a_site_losing_ground_to_a_flat_top_10_is_not_at_this_pace_and_says_why() -> None:
    projection = project(_line(30, -0.5, 120), _line(45, 0.0, 120))
    assert projection.state == "not_at_this_pace"
    assert "not gaining" in projection_words(projection)


def test_seven_weeks_is_too_little_history_and_eight_is_enough() -> None:
    short = project(_line(30, 2, 49), _line(40, 0, 49))
    assert short.state == "too_little_history"
    assert projection_words(short) == "Not enough history yet (needs at least 8 weeks; 7 recorded)"
    assert project(_line(30, 2, 56), _line(40, 0, 56)).state == "in_months"


def test_readings_far_apart_are_not_enough_weeks() -> None:
    # Four readings over 120 days: the span is long enough, the evidence is not.
    sparse = _line(30, 2, 120).iloc[::30]
    assert history_weeks(sparse) == 4
    assert project(sparse, _line(40, 0, 120)).state == "too_little_history"


def test_an_outlier_day_barely_moves_the_trend() -> None:
    steady = _line(30, 1.0, 120, noise=0.3, seed=3)
    spiked = steady.copy()
    spiked.iloc[-10:-3] = 95.0  # a week of lookups that went wrong, near the end where it weighs most
    assert fit(spiked).slope == pytest.approx(fit(steady).slope, rel=0.1)
    # A least-squares line through the same days would more than double its slope.
    t = np.arange(120)
    assert np.polyfit(t, spiked, 1)[0] > 2 * np.polyfit(t, steady, 1)[0]


def test_theil_sen_interval_matches_a_worked_example() -> None:
    x = np.arange(10.0)
    y = np.array([0.0, 1, 2, 3, 4, 5, 6, 7, 8, 20])  # one outlier at the end
    slope, intercept, low, high = theil_sen(x, y)
    assert slope == 1.0 and intercept == 0.0
    assert low == 1.0 and high >= 1.0


def test_a_site_already_at_the_top_10s_median_is_within_reach_now() -> None:
    projection = project(_line(52, 0.2, 90), _line(50, 0.5, 90))
    assert projection.state == "within_reach"
    assert projection_words(projection) == "Within reach now"


def test_a_crossing_beyond_two_years_is_not_claimed() -> None:
    projection = project(_line(20, 0.5, 120), _line(50, 0.0, 120))  # ~56 months away
    assert projection.state == "not_at_this_pace"
    assert projection_words(projection) == "Not within two years at this pace"


def test_a_band_that_reaches_too_far_is_too_uncertain() -> None:
    # A slow gain buried in noise: the central month exists, its slow end does not.
    projection = project(_line(30, 0.4, 70, noise=3, seed=5), _line(36, 0.0, 70, noise=3, seed=6))
    assert projection.state == "too_uncertain"
    assert projection_words(projection).startswith("Too uncertain to say yet")


def test_the_lowest_dr_is_a_first_foothold_projected_the_same_way() -> None:
    top10 = pd.DataFrame({"median_dr": _line(60, 0, 120), "min_dr": _line(45, 0, 120)})
    site = _line(40, 1.0, 120)
    median = project(site, top10["median_dr"], "median")
    lowest = project(site, top10["min_dr"], "lowest")
    assert lowest.state == "in_months" and median.state == "in_months"
    assert lowest.months is not None and median.months is not None and lowest.months < median.months


def test_the_series_leave_the_sites_own_result_out_of_the_top_10() -> None:
    day = pd.Timestamp(START)
    serps = pd.DataFrame(
        {
            "site": "mine.com",
            "keyword": "k",
            "day": day,
            "position": [1, 2, 3],
            "domain": ["a.com", "mine.com", "b.com"],
            "dr": [60, 20, 40],
        }
    )
    top10 = top10_dr_series(serps, "k", site="mine.com")
    assert top10.loc[day, "median_dr"] == 50 and top10.loc[day, "min_dr"] == 40
    domains = pd.DataFrame({"domain": ["mine.com", "mine.com"], "day": [day, day + pd.Timedelta(days=1)]})
    domains["dr"] = [20, None]
    assert site_dr_series(domains, "mine.com").tolist() == [20.0]


def test_the_chart_draws_both_lines_their_bands_and_the_crossing() -> None:
    site, top10 = _line(40, 1.0, 120, noise=0.5), _line(50, 0.0, 120, noise=0.5, seed=1)
    projection = project(site, top10)
    fig = winnable_chart(site, top10, projection, "cold brew")
    names = [trace.name for trace in fig.data]
    assert "your DR, carried forward" in names and "top-10 median DR, carried forward" in names
    assert "the crossing (shaded: its band)" in names
    assert len(fig.layout.shapes) == 1  # the crossing's band
    assert projection_words(projection) in fig.layout.title.text


def test_the_chart_of_too_little_history_says_so_in_words() -> None:
    projection = project(_line(30, 1, 20), _line(40, 0, 20))
    fig = winnable_chart(_line(30, 1, 20), _line(40, 0, 20), projection, "k")
    assert isinstance(projection, Projection) and not fig.data
    assert "Not enough history yet" in fig.layout.annotations[0].text


def test_weeks_that_carry_their_deviation_into_the_next_widen_the_band() -> None:
    # The same line and the same spread of noise; in one history each day keeps 90 % of the day
    # before's deviation (a DR that moves in steps), which is less evidence than independent days.
    rng = np.random.default_rng(7)
    steps = np.zeros(150)
    for day in range(1, 150):
        steps[day] = 0.9 * steps[day - 1] + rng.normal(0.0, 0.9)
    site = _line(30, 1.5, 150) + steps
    independent = _line(30, 1.5, 150, noise=float(steps.std()), seed=8)
    top10 = _line(42, 0.0, 150)
    wide, narrow = fit(site), fit(independent)
    assert (wide.high - wide.low) > 3.5 * (narrow.high - narrow.low)  # about 2.3 × without the correction
    assert project(site, top10).band is not None


def test_the_words_round_the_band_outwards_and_say_a_near_month_plainly() -> None:
    now = date(2026, 6, 1)
    soon = Projection("in_months", "median", now, 20, months=0.4, band=(0.1, 1.2))
    assert projection_words(soon) == "In less than a month (at most 2)"
    later = Projection(
        "in_months",
        "lowest",
        now,
        20,
        months=5.4,
        band=(3.6, 8.2),
        day=date(2026, 11, 12),
        band_days=(date(2026, 9, 19), date(2027, 2, 6)),
    )
    assert projection_words(later) == "In about 5 months (between 3 and 9)"
    assert projection_dates(later) == "around Nov 2026, between Sep 2026 and Feb 2027"
    assert projection_answer(later) == "Around Nov 2026"  # a table cell's few words
    wide = Projection("too_uncertain", "median", now, 20, reason="too_wide", months=14, band=(6.5, 50))
    assert projection_words(wide) == (
        "Too uncertain to say yet — the history allows anything from 6 to more than 36 months"
    )
    assert projection_answer(wide) == "Too uncertain yet"


def test_each_answer_in_a_few_words_fits_a_narrow_table_cell() -> None:
    """The When winnable and Opportunities tables show these at a laptop's width: none is a sentence."""
    now = date(2026, 6, 1)
    answers = [
        answer_words("within_reach", None),
        answer_words("in_months", date(2027, 12, 1)),
        answer_words("not_at_this_pace", None),
        answer_words("too_uncertain", None),
        answer_words("too_little_history", None),
        projection_answer(Projection("not_at_this_pace", "median", now, 20, reason="beyond_horizon")),
    ]
    assert answers[:5] == [
        "Within reach now",
        "Around Dec 2027",
        "Not at this pace",
        "Too uncertain yet",
        "Too little history",
    ]
    assert answers[5] == "Not at this pace" and all(len(a) <= 18 for a in answers)
    assert answer_words("", None) == ""  # a keyword not watched


def test_the_chart_never_draws_past_two_years() -> None:
    site, top10 = _line(30, 0.6, 120, noise=0.5), _line(40, 0.0, 120, noise=0.5, seed=1)
    projection = project(site, top10)
    fig = winnable_chart(site, top10, projection, "k")
    last = max(pd.Timestamp(x) for trace in fig.data for x in trace.x)
    assert last <= pd.Timestamp(projection.now) + pd.Timedelta(days=round(24 * MONTH_DAYS))


def test_the_month_counts_from_the_latest_reading_when_the_site_was_last_read_earlier() -> None:
    site, top10 = _line(40, 1.0, 110), _line(50, 0.0, 120)  # the site's last ten days not recorded
    projection = project(site, top10)
    assert projection.now == START + timedelta(days=119)
    assert projection.months == pytest.approx(50 - 40 - 119 / MONTH_DAYS, abs=0.05)
