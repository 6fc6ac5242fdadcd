"""The Coach's sentences from a row of the opportunities list: the numbers as the list's table rounds
them, a keyword the site does not rank for, an unknown top 10, and what was not read."""

from __future__ import annotations

import math

import pytest

from analysis.opportunities.next_words import (
    lacking_words,
    push_words,
    score_words,
    unasked_words,
    winnable_line,
)

ROW = {"keyword": "cold brew kit", "position": 7, "clicks_gained": 137.4, "median_dr": 41.0, "site_dr": 38.0}


def test_a_ranking_keyword_is_pushed_from_its_position_to_the_target() -> None:
    assert push_words(ROW, 3) == (
        "Push “cold brew kit” from position 7 to 3: about 137 more clicks a month; its top 10's median DR "
        "is 41, yours 38"
    )


def test_a_keyword_not_ranking_and_an_unknown_top_10_are_said_as_such() -> None:
    row = {**ROW, "position": None, "median_dr": math.nan, "clicks_gained": 1234.6}
    assert push_words(row, 1) == (
        "Get “cold brew kit” to position 1 (not ranking yet): about 1,235 more clicks a month; its top "
        "10's DR is not known yet"
    )


def test_only_a_watched_keyword_says_when_it_becomes_winnable() -> None:
    assert winnable_line({**ROW, "median_words": ""}) == ""
    assert winnable_line({**ROW, "median_words": "Within reach now"}).endswith(": Within reach now")


def test_what_the_list_lacks_is_counted_and_what_was_not_read_is_named() -> None:
    assert lacking_words(0) == "" and lacking_words(1).startswith("1 more keyword has no top 10 yet")
    assert unasked_words([]) == ""
    said = unasked_words(["keyword suggestions", "tracked keywords"])
    assert said.startswith("Your site's keyword suggestions and your site's tracked keywords were not read")
    assert "as the history last recorded them" in said


SCORED = {
    **ROW,
    "volume": 2120.0,
    "ctr_now": 1.0,
    "ctr_target": 15.0,
    "clicks_gained": 296.8,
    "difficulty": 25.5,
    "score": 1163.92,
    "problem": "",
}


def test_a_score_is_told_with_the_parts_it_is_computed_from() -> None:
    said = score_words(SCORED)
    assert said == (
        "Opportunity score 1,163.9 = 2,120 monthly searches × 14 % points of CTR gained (about 297 more "
        "clicks a month) ÷ 25.5 DR points lacking"
    )
    assert pytest.approx(1163.92, abs=0.01) == 2120 * 14 / 25.5  # the sentence's own arithmetic holds


def test_a_keyword_lacking_no_dr_is_divided_by_one_and_a_missing_score_says_why() -> None:
    assert score_words({**SCORED, "difficulty": 0.0, "score": 29680.0}).endswith(
        "÷ 1 DR point lacking (at least 1)"
    )
    unread = {**SCORED, "score": math.nan, "median_dr": math.nan, "problem": "top 10 not read (timeout)"}
    assert score_words(unread) == "No opportunity score: top 10 not read (timeout)"
    assert score_words({**unread, "problem": ""}).endswith("its top 10's DR is not known yet")
    unknown_volume = {**unread, "problem": "", "median_dr": 41.0, "volume": math.nan}
    assert score_words(unknown_volume).endswith("its monthly volume is not known")


def test_a_site_that_already_reaches_the_median_dr_is_told_so() -> None:
    level = {**ROW, "median_dr": 18.0, "site_dr": 18.0}
    assert push_words(level, 3).endswith("; your DR 18 already reaches its top 10's median DR 18")
    above = {**ROW, "median_dr": 30.0, "site_dr": 38.4}
    assert push_words(above, 3).endswith("; your DR 38.4 already reaches its top 10's median DR 30")
    assert push_words({**ROW, "site_dr": math.nan}, 3).endswith("; its top 10's median DR is 41")
