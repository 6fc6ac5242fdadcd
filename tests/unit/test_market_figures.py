"""``analysis.market``: visibility, share of voice, churn and DR spread on hand-made top 10s whose figures
can be worked out on paper, and the CTR curve a team may set in its secrets."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pandas as pd
import pytest

from analysis.market import (
    DEFAULT_CTR,
    CtrCurveError,
    ctr_curve,
    dr_spread,
    one_top10_per_keyword,
    serp_churn,
    standing,
    visibility_and_share,
)
from services.market import load_ctr_curve

DAY1, DAY2 = date(2026, 3, 1), date(2026, 3, 2)


def _top10s(rows: list[tuple[date, str, int, str, int | None]], site: str = "mine.com") -> pd.DataFrame:
    frame = pd.DataFrame(rows, columns=["day", "keyword", "position", "domain", "dr"])
    frame.insert(0, "site", site)
    frame["day"] = pd.to_datetime(frame["day"])
    frame["dr"] = frame["dr"].astype("Int64")
    return one_top10_per_keyword(frame)


def _on(figures: pd.DataFrame, day: date, domain: str) -> pd.Series:
    return figures[(figures["day"] == pd.Timestamp(day)) & (figures["domain"] == domain)].iloc[0]


def test_visibility_is_the_mean_share_of_first_place_and_shares_of_a_day_add_to_100() -> None:
    top10s = _top10s(
        [
            (DAY1, "a", 1, "x.com", 50),
            (DAY1, "a", 2, "y.com", 40),
            (DAY1, "b", 1, "y.com", 60),
            (DAY1, "b", 3, "x.com", 20),
        ]
    )
    figures = visibility_and_share(top10s)
    x = _on(figures, DAY1, "x.com")
    assert x["visibility"] == pytest.approx((30 / 30 + 14 / 30) / 2 * 100)
    assert x["share_of_voice"] == pytest.approx((30 + 14) / (30 + 22 + 30 + 14) * 100)
    assert figures["share_of_voice"].sum() == pytest.approx(100.0)
    assert (figures["keywords"] == 2).all()


def test_a_domain_listed_twice_in_one_top_10_counts_once_at_its_best_place() -> None:
    top10s = _top10s([(DAY1, "a", 1, "x.com", 50), (DAY1, "a", 2, "x.com", 50), (DAY1, "a", 3, "y.com", 9)])
    x = _on(visibility_and_share(top10s), DAY1, "x.com")
    assert x["visibility"] == pytest.approx(100.0)
    assert x["share_of_voice"] == pytest.approx(30 / (30 + 14) * 100)


def test_a_keyword_missing_on_a_day_is_left_out_of_that_day_not_counted_as_not_ranking() -> None:
    top10s = _top10s([(DAY1, "a", 1, "x.com", 50), (DAY1, "b", 1, "x.com", 50), (DAY2, "a", 1, "x.com", 50)])
    figures = visibility_and_share(top10s)
    assert _on(figures, DAY2, "x.com")["visibility"] == pytest.approx(100.0)
    assert _on(figures, DAY2, "x.com")["keywords"] == 1


def test_volume_weighting_needs_every_keywords_volume() -> None:
    top10s = _top10s([(DAY1, "a", 1, "x.com", 50), (DAY1, "b", 2, "x.com", 50)])
    weighted = _on(visibility_and_share(top10s, volumes={"a": 100, "b": 300}), DAY1, "x.com")
    assert weighted["weighted_visibility"] == pytest.approx((100 * 30 + 300 * 22) / (30 * 400) * 100)
    partial = _on(visibility_and_share(top10s, volumes={"a": 100}), DAY1, "x.com")
    assert pd.isna(partial["weighted_visibility"])


def test_a_keyword_watched_for_two_sites_counts_once() -> None:
    one = _top10s([(DAY1, "a", 1, "x.com", 50)], site="mine.com")
    frame = pd.concat([one.assign(site="mine.com"), one.assign(site="other.com")], ignore_index=True)
    assert len(one_top10_per_keyword(frame)) == 1


def test_churn_names_who_entered_and_who_left_with_their_positions() -> None:
    top10s = _top10s(
        [
            (DAY1, "a", 1, "x.com", 50),
            (DAY1, "a", 2, "y.com", 40),
            (DAY2, "a", 1, "x.com", 51),
            (DAY2, "a", 2, "z.com", 33),
        ]
    )
    churn = serp_churn(top10s, DAY1, DAY2)
    assert churn.to_dict("records") == [
        {"keyword": "a", "change": "entered", "domain": "z.com", "position": 2, "dr": 33},
        {"keyword": "a", "change": "left", "domain": "y.com", "position": 2, "dr": 40},
    ]


def test_dr_spread_leaves_unresolved_ratings_out() -> None:
    top10s = _top10s(
        [(DAY1, "a", 1, "x.com", 80), (DAY1, "a", 2, "y.com", None), (DAY1, "a", 3, "z.com", 20)]
    )
    row = dr_spread(top10s).iloc[0]
    assert (row["median_dr"], row["min_dr"], row["max_dr"], row["spread"], row["rated"]) == (
        50,
        20,
        80,
        60,
        2,
    )


def test_the_ctr_curve_comes_from_the_secrets_or_is_the_default(tmp_path: Path) -> None:
    secrets = tmp_path / "secrets.toml"
    assert load_ctr_curve((secrets,)) == DEFAULT_CTR
    secrets.write_text("[visibility]\nctr = [40, 20, 10, 8, 6, 4, 3, 2, 1, 1]\n")
    assert load_ctr_curve((secrets,))[0] == 40.0
    secrets.write_text("[visibility]\nctr = [10, 20, 10, 8, 6, 4, 3, 2, 1, 1]\n")
    with pytest.raises(CtrCurveError, match="must not rise"):
        load_ctr_curve((secrets,))


@pytest.mark.parametrize(
    "curve",
    [
        [30, 20],
        "30,20",
        [0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
        [30, 20, 10, 8, 6, 4, 3, 2, 1, "x"],
        [30, 20, 10, 8, 6, 4, 3, 2, 1, -1],
    ],
)
def test_a_curve_that_cannot_weigh_positions_is_refused_in_plain_words(curve: list[object]) -> None:
    with pytest.raises(CtrCurveError, match=r"\[visibility\] ctr"):
        ctr_curve(curve)


def test_a_keywords_volume_is_its_latest_search_volume_else_its_impressions() -> None:
    from analysis.market.standing import search_volumes

    rows = pd.DataFrame(
        {
            "keyword": ["a", "a", "b", "c"],
            "day": pd.to_datetime(["2026-03-01", "2026-03-02", "2026-03-01", "2026-03-01"]),
            "search_volume": pd.array([100, 120, None, None], dtype="Int64"),
            "impressions": pd.array([5, 6, 40, None], dtype="Int64"),
        }
    )
    assert search_volumes(rows) == {"a": 120.0, "b": 40.0}


def test_the_competitors_compared_are_the_watched_domains_that_are_not_your_sites() -> None:
    """The Market page and the report draw the same competitors: a keyword, your own site (by the
    watchlist or by the service's list of your sites) and a domain watched twice are not competitors."""
    watched = [
        ("domain", "example.com", "own", ""),
        ("domain", "rival.com", "watched", ""),
        ("keyword", "cold brew", "watched", "example.com"),
        ("domain", "other-own.com", "watched", ""),
        ("domain", "rival.com", "imported", ""),
        ("domain", "second.com", "imported", ""),
    ]
    assert standing.watched_competitors(watched) == ["rival.com", "other-own.com", "second.com"]
    assert standing.watched_competitors(watched, own=["other-own.com"]) == ["rival.com", "second.com"]


def test_a_domains_standing_changes_over_the_period_from_0_where_it_was_absent() -> None:
    top10s = _top10s(
        [(DAY1, "a", 1, "mine.com", 30), (DAY2, "a", 1, "new.com", 20), (DAY2, "a", 2, "mine.com", 30)]
    )
    figures = visibility_and_share(top10s, DEFAULT_CTR)
    table = standing.standing(figures, ["mine.com"], []).set_index("domain")
    new_on_day2 = _on(figures, DAY2, "new.com")
    assert table.loc["new.com", "visibility_change"] == pytest.approx(new_on_day2["visibility"])
    assert table.loc["new.com", "share_change"] == pytest.approx(new_on_day2["share_of_voice"])
    mine = _on(figures, DAY2, "mine.com")["visibility"] - _on(figures, DAY1, "mine.com")["visibility"]
    assert table.loc["mine.com", "visibility_change"] == pytest.approx(mine)
    one_day = standing.standing(figures[figures["day"] == pd.Timestamp(DAY1)], ["mine.com"], [])
    assert one_day["visibility_change"].isna().all()
