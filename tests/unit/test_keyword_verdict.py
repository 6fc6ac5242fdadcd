"""Keyword research's advice agrees with where the site stands: a site already in the top 10 is told
its place and what its gap means there, never that it is "short"; only a site outside it is told how
far short of the median DR it is. Pure: reports built as the service sends them."""

from __future__ import annotations

import statistics

import pytest

from analysis.keywords.frames.report import site_position, verdict
from client.models import KeywordReport

MINE = "mine.com"


def _report(drs: list[int | None], *, user_dr: int | None, mine_at: int | None = None) -> KeywordReport:
    """A top 10 with the given DRs; with ``mine_at``, the asked-for site holds that position."""
    known = [d for d in drs if d is not None]
    median = statistics.median(known)
    return KeywordReport.model_validate(
        {
            "keyword": "crm software",
            "results": [
                {"position": i, "domain": MINE if i == mine_at else f"site{i}.com", "dr": dr}
                for i, dr in enumerate(drs, start=1)
            ],
            "medianDr": median,
            "minDr": min(known),
            "user": {"domain": MINE, "dr": user_dr, "gap": None if user_dr is None else median - user_dr},
        }
    )


STRONG_TOP_10 = [98, 96, 95, 94, 17, 92, 91, 90, 89, 88]  # median 91.5, mine the DR 17 at #5


def test_a_site_ranked_5th_far_below_the_median_is_told_its_place_not_that_it_is_short() -> None:
    report = _report(STRONG_TOP_10, user_dr=17, mine_at=5)
    reading = verdict(report)
    assert reading is not None and site_position(report) == 5
    assert reading.level == "success"
    assert reading.headline == "You rank #5, in the top 10"
    said = reading.headline + reading.detail
    assert "short" not in said and "long climb" not in said.lower()
    assert "74.5 points below the median DR of the top 10 (91.5)" in reading.detail  # what the gap is
    assert "yet your page ranks #5" in reading.detail
    assert "the 4 results above you (median DR 95.5)" in reading.detail  # whom it would climb past


def test_the_same_gap_outside_the_top_10_is_still_a_long_climb() -> None:
    reading = verdict(_report([*STRONG_TOP_10[:4], 93, *STRONG_TOP_10[5:]], user_dr=17))
    assert reading is not None and reading.level == "warning"
    assert reading.headline.startswith("A long climb") and "not in the top 10" in reading.detail


@pytest.mark.parametrize(
    ("mine_at", "user_dr", "words"),
    [
        (1, 60, "authority is on your side"),
        (3, 60, "authority is not what keeps you below the 2 results above you"),
        (1, 17, "keep the spot against sites with more authority"),
    ],
)
def test_a_site_in_the_top_10_is_read_by_its_place(mine_at: int, user_dr: int, words: str) -> None:
    drs = [40, 45, 50, 35, 30, 55, 20, 25, 60, 33]
    drs[mine_at - 1] = user_dr
    reading = verdict(_report(drs, user_dr=user_dr, mine_at=mine_at))
    assert reading is not None and reading.level == "success"
    assert f"#{mine_at}" in reading.headline
    assert words in reading.detail


def test_a_subdomain_in_the_results_is_the_site_and_an_unknown_dr_still_says_the_place() -> None:
    report = _report([50, 40, 30], user_dr=None, mine_at=None)
    report.results[1].domain = "www.Mine.com"
    assert site_position(report) == 2
    reading = verdict(report)
    assert reading is not None and reading.headline == "You rank #2, in the top 10"
    assert "could not resolve" in reading.detail
    assert site_position(report.model_copy(update={"user": None})) is None
