"""Numbers on the History page that must agree: "Best ever" is the best of all the history kept (the
Period buttons do not change it), and a short history is drawn on an axis of its own days, never
running into days to come, with one recorded day said in words. No store, no Streamlit."""

from __future__ import annotations

from datetime import date, timedelta

import pandas as pd

from analysis.figures import history_charts as charts
from analysis.figures import history_frames as frames
from components.core.history.source import FrameSource
from schema.history import KEYWORD_BEST_COLUMNS, KEYWORD_COLUMNS

START = date(2025, 1, 6)


def positions(keyword: str, places: list[int | None], first: date = START) -> pd.DataFrame:
    """One keyword's rows of ``example-com``, a day each from ``first``."""
    return pd.DataFrame(
        [
            {"site": "example-com", "keyword": keyword, "day": first + timedelta(days=i), "position": p}
            for i, p in enumerate(places)
        ]
    ).reindex(columns=list(KEYWORD_COLUMNS))


def _period(history: pd.DataFrame, days: int) -> pd.DataFrame:
    last = pd.to_datetime(history["day"]).max()
    return history[pd.to_datetime(history["day"]) > last - pd.Timedelta(days=days)]


def test_best_ever_is_the_best_of_all_the_history_whatever_the_period() -> None:
    # #2 on the second day, then never better than #6: a 5-day period holds none of the best days.
    history = pd.concat([positions("crm", [9, 2, 4, 6, 7, 8, 6, 7, 9, 8]), positions("seo", [None] * 10)])
    best = FrameSource(keywords=history).keyword_best("example-com")
    assert tuple(best.columns) == KEYWORD_BEST_COLUMNS
    assert best.values.tolist() == [["crm", 2, START + timedelta(days=1)]]  # "seo" never ranked
    for days in (5, 10):
        summary = frames.keyword_summary(_period(history, days), best).set_index("keyword")
        assert summary.loc["crm", "best_position"] == 2
        assert summary.loc["crm", "best_day"] == START + timedelta(days=1)
        assert pd.isna(summary.loc["seo", "best_position"]) and summary.loc["seo", "best_day"] is None
    # What the period alone holds is still told apart: days in the top 10 and days recorded.
    recent = frames.keyword_summary(_period(history, 5), best).set_index("keyword")
    assert recent.loc["crm", "days_recorded"] == 5 and recent.loc["crm", "days_in_top_10"] == 5


def test_a_best_newer_than_the_all_time_answer_wins() -> None:
    """The period's rows and the all-time best are two reads a moment apart: a day recorded in between
    (the job's) may be better than the answer, and is never shown worse than the position it holds."""
    history = positions("crm", [5, 6, 1])
    stale = frames.best_positions(history.iloc[:2])
    summary = frames.keyword_summary(history, stale)
    assert summary["best_position"].tolist() == [1]
    assert summary["best_day"].tolist() == [START + timedelta(days=2)]


def test_a_two_day_history_is_ticked_by_day_on_an_axis_ending_on_its_latest_day() -> None:
    rows = frames.keyword_rows(positions("crm", [12, 9]), ["crm"])
    fig = charts.rank_chart(rows, ["crm"])
    low, high = (pd.Timestamp(x) for x in fig.layout.xaxis.range)
    latest = pd.Timestamp(START + timedelta(days=1))
    assert low == pd.Timestamp(START) - pd.Timedelta(hours=12) and high == latest + pd.Timedelta(hours=12)
    assert high < latest + pd.Timedelta(days=1)  # the next day, still to come, is not drawn
    assert fig.data[0].mode == "lines+markers" and fig.layout.xaxis.dtick == 86_400_000


def test_one_recorded_day_is_said_to_be_the_first_or_the_only_one_of_the_period() -> None:
    assert frames.single_day(positions("crm", [4])) == START
    assert frames.single_day(positions("crm", [4, 5])) is None
    assert frames.single_day(frames.empty(KEYWORD_COLUMNS)) is None
    first = frames.one_day_words(START, first=True)
    assert first.startswith("Jan 06, 2025 is the first recorded day") and "one point" in first
    only = frames.one_day_words(START, first=False)
    assert "Only Jan 06, 2025 is recorded in this period" in only and "first" not in only
