"""The one way each number, count, day and missing value is written (``analysis.wording``)."""

from __future__ import annotations

import math
from datetime import date

import pandas as pd

from analysis.wording import (
    NO_VALUE,
    NOT_AVAILABLE,
    change_since,
    counted,
    direction,
    in_days,
    is_missing,
    iso_day,
    named_first,
    period_words,
    plural,
    say_day,
    screen_day,
    short_number,
    signed_whole,
    text_or_dash,
    whole_number,
    yes_no,
)


def test_missing_values() -> None:
    assert all(is_missing(v) for v in (None, pd.NA, math.nan, float("nan")))
    assert not any(is_missing(v) for v in (0, 0.0, "", "—", False))


def test_numbers() -> None:
    assert whole_number(12345.4) == "12,345" and whole_number(None) == NOT_AVAILABLE
    assert whole_number(None, NO_VALUE) == "—" and whole_number(pd.NA, NO_VALUE) == "—"
    assert short_number(2.5) == "2.5" and short_number(3.0) == "3" and short_number(1234.56, 2) == "1,234.56"
    assert short_number(math.nan) == NOT_AVAILABLE
    assert signed_whole(3) == "+3" and signed_whole(-1200) == "-1,200" and signed_whole(0.2) == "±0"
    assert signed_whole(None) == NO_VALUE
    assert direction(2) == "up" and direction(-2) == "down" and direction(0) == "" and direction(None) == ""
    assert direction(2, higher_is_better=False) == "down"
    assert yes_no(True) == "yes" and yes_no(None) == NOT_AVAILABLE and yes_no(False, "on", "off") == "off"
    assert text_or_dash(None) == "—" and text_or_dash(47) == "47"


def test_counts() -> None:
    assert (
        plural(1, "point") == "point"
        and plural(2, "point") == "points"
        and plural(0, "entry", "entries") == "entries"
    )
    assert counted(1, "keyword") == "1 keyword" and counted(3, "open alert") == "3 open alerts"
    assert counted(1200, "line") == "1,200 lines"
    assert counted(0, "alert") == "0 alerts" and counted(0, "alert", zero_as_no=True) == "no alerts"


def test_days() -> None:
    day = date(2025, 3, 4)
    assert (
        say_day(day) == "4 Mar 2025" and say_day(pd.Timestamp(day)) == "4 Mar 2025" and say_day(None) == "—"
    )
    assert screen_day(day) == "Mar 04, 2025" and iso_day(pd.Timestamp(day)) == "2025-03-04"
    assert period_words(date(2026, 11, 16), date(2026, 11, 22)) == "16–22 Nov 2026"
    assert period_words(date(2026, 12, 28), date(2027, 1, 3)) == "28 Dec 2026 – 3 Jan 2027"
    assert in_days(7) == "in 7 days" and in_days(8) == "in 8 days"


def test_a_change_says_since_when() -> None:
    assert change_since(1.26, date(2026, 8, 30)) == "+1.3 points since Aug 30, 2026"
    assert (
        change_since(-1234.5, date(2026, 8, 30), unit="visits", digits=0)
        == "-1,234 visits since Aug 30, 2026"
    )
    assert change_since(0.04, date(2026, 8, 30)) == "no change since Aug 30, 2026"


def test_a_long_list_names_its_first_and_counts_the_rest() -> None:
    assert named_first(["a", "b"], 3) == "a, b"
    assert named_first(["a", "b", "c"], 3) == "a, b, c"
    assert named_first(["a", "b", "c", "d"], 2) == "a, b and 2 more"
    assert named_first([f"k{n}" for n in range(1502)], 2) == "k0, k1 and 1,500 more"
