"""``analysis.opportunities.score``: the opportunities queue on hand-made keywords whose clicks and scores
can be worked out on paper under the team's CTR curve (30 22 14 10 8 6 4 3 2 2 % by position)."""

from __future__ import annotations

from datetime import date

import pandas as pd
import pytest

from analysis.opportunities import (
    OPPORTUNITY_LABELS,
    filter_opportunities,
    labelled,
    opportunity_rows,
    score_opportunities,
)
from analysis.opportunities.score import IMPRESSIONS, SEARCH_VOLUME


def _rows(*rows: tuple[str, int | None, float | None, float, float, float]) -> pd.DataFrame:
    frame = pd.DataFrame(rows, columns=["keyword", "position", "volume", "median_dr", "min_dr", "site_dr"])
    frame["volume_source"] = SEARCH_VOLUME
    return frame


def test_a_high_volume_striking_distance_keyword_ranks_above_a_low_volume_one() -> None:
    scored = score_opportunities(
        _rows(("small", 6, 100, 45, 30, 40), ("big", 6, 5_000, 45, 30, 40), ("far", 35, 200, 45, 30, 40))
    )
    assert scored["keyword"].tolist() == ["big", "far", "small"]
    assert scored.set_index("keyword")["striking_distance"].to_dict() == {
        "big": True,
        "far": False,
        "small": True,
    }


def test_the_parts_add_up_to_the_score() -> None:
    scored = score_opportunities(_rows(("k", 8, 1_000, 50, 30, 40))).iloc[0]
    # Position 8: 3 %; target 3: 14 %; 1,000 searches; the site lacks 10 DR points against the median.
    assert scored["clicks_now"] == pytest.approx(30)
    assert scored["clicks_target"] == pytest.approx(140)
    assert scored["clicks_gained"] == pytest.approx(scored["clicks_target"] - scored["clicks_now"])
    assert scored["gap"] == 10 and scored["lowest_gap"] == -10 and scored["difficulty"] == 10
    assert scored["score"] == pytest.approx(1_000 * (14 - 3) / 10)


def test_a_position_beyond_10_earns_no_clicks_now() -> None:
    scored = score_opportunities(_rows(("k", 14, 1_000, 40, 30, 40), ("gone", None, 1_000, 40, 30, 40)))
    assert scored["clicks_now"].tolist() == [0.0, 0.0]
    assert scored["clicks_gained"].tolist() == [140.0, 140.0]


def test_a_keyword_the_site_already_matches_is_divided_by_one_not_by_zero() -> None:
    scored = score_opportunities(_rows(("easy", 12, 1_000, 35, 20, 40), ("level", 12, 1_000, 40, 20, 40)))
    assert scored["difficulty"].tolist() == [0.0, 0.0]
    assert scored["score"].tolist() == [14_000.0, 14_000.0]  # 1,000 × 14 ÷ 1, finite and positive


def test_a_keyword_already_above_the_target_gains_nothing() -> None:
    scored = score_opportunities(_rows(("top", 1, 1_000, 40, 20, 30))).iloc[0]
    assert scored["clicks_gained"] == 0 and scored["score"] == 0


def test_a_keyword_without_a_volume_has_no_score_and_comes_last() -> None:
    scored = score_opportunities(_rows(("unknown", 5, None, 40, 30, 40), ("known", 15, 10, 40, 30, 40)))
    assert scored["keyword"].tolist() == ["known", "unknown"]
    assert pd.isna(scored.iloc[1]["score"]) and pd.isna(scored.iloc[1]["clicks_gained"])


def test_a_custom_ctr_curve_changes_the_clicks() -> None:
    rows = _rows(("k", 5, 1_000, 40, 30, 40))
    flat = score_opportunities(rows, ctr=(10, 10, 10, 10, 10, 10, 10, 10, 10, 10)).iloc[0]
    steep = score_opportunities(rows, ctr=(50, 30, 20, 10, 5, 2, 1, 1, 1, 1)).iloc[0]
    assert flat["clicks_gained"] == 0
    assert steep["clicks_now"] == pytest.approx(50) and steep["clicks_gained"] == pytest.approx(150)


def test_the_target_position_can_be_set() -> None:
    scored = score_opportunities(_rows(("k", 5, 1_000, 40, 30, 40)), target=1).iloc[0]
    assert scored["ctr_target"] == 30 and scored["clicks_gained"] == pytest.approx(220)
    with pytest.raises(ValueError, match="between 1 and 10"):
        score_opportunities(_rows(("k", 5, 1_000, 40, 30, 40)), target=11)


def test_filters_by_striking_distance_gap_and_group() -> None:
    scored = score_opportunities(
        _rows(("near", 5, 100, 45, 30, 40), ("hard", 9, 100, 70, 30, 40), ("far", 40, 100, 41, 30, 40))
    )
    assert set(filter_opportunities(scored, striking_only=True)["keyword"]) == {"near", "hard"}
    assert set(filter_opportunities(scored, max_gap=10)["keyword"]) == {"near", "far"}
    assert filter_opportunities(scored, keywords={"far"})["keyword"].tolist() == ["far"]


def test_rows_from_the_history_take_the_latest_row_and_say_where_the_volume_comes_from() -> None:
    history = pd.DataFrame(
        {
            "keyword": ["a", "a", "b"],
            "day": [date(2026, 3, 1), date(2026, 3, 2), date(2026, 3, 2)],
            "position": [9, 7, 12],
            "median_dr": [50, 51, 40],
            "min_dr": [30, 31, 20],
            "user_dr": [40, 41, 41],
            "search_volume": [900, None, None],
            "impressions": [None, None, 300],
        }
    )
    rows = opportunity_rows(history).set_index("keyword")
    assert rows.loc["a", "position"] == 7 and rows.loc["a", "site_dr"] == 41
    assert rows.loc["a", "volume"] == 900 and rows.loc["a", "volume_source"] == SEARCH_VOLUME
    assert rows.loc["b", "volume"] == 300 and rows.loc["b", "volume_source"] == IMPRESSIONS


def test_every_column_has_a_plain_label() -> None:
    scored = score_opportunities(_rows(("k", 5, 100, 40, 30, 40)))
    assert set(scored.columns) == set(OPPORTUNITY_LABELS)
    assert "Opportunity score" in labelled(scored).columns
