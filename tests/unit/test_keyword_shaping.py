"""Keyword pages' pure builders: report → frame → figure, several reports → ranking, and the wording."""

from __future__ import annotations

import math
import statistics

import pandas as pd
import pytest

from analysis.error_wording import describe_error
from analysis.keywords.charts import distribution_chart, serp_chart, suggestions_chart
from analysis.keywords.frames.ranking import (
    asked_words,
    distribution_frame,
    failure_words,
    parse_keyword_list,
    ranking_column_order,
    ranking_frame,
    ranking_note,
)
from analysis.keywords.frames.report import (
    gap_words,
    known_median,
    present_columns,
    report_median,
    report_min,
    serp_frame,
    verdict,
)
from analysis.keywords.frames.suggestions import (
    BANDS,
    band_of,
    filter_bands,
    sort_suggestions,
    suggestions_frame,
)
from analysis.keywords.frames.tracked import (
    Usage,
    gap_reading,
    tracked_column_order,
    tracked_frame,
    usage,
)
from client import errors
from client.models import KeywordReport, KeywordSuggestions, TrackedKeywords
from sandbox.keyword_data import keyword_report
from sandbox.suggestions import suggestions
from tests.sandbox_picks import keyword_with_unknown_dr


def _report(drs: list[int | None], *, user_dr: int | None = None, **extra: object) -> KeywordReport:
    """A report as the service sends it; median and min over the known DRs, as the contract says."""
    known = [d for d in drs if d is not None]
    body: dict[str, object] = {
        "keyword": "test keyword",
        "cached": False,
        "results": [
            {"position": i, "domain": f"site{i}.com", "dr": dr, "url": f"https://site{i}.com/x", "title": "T"}
            for i, dr in enumerate(drs, start=1)
        ],
        "medianDr": statistics.median(known) if known else None,
        "minDr": min(known) if known else None,
        **extra,
    }
    if user_dr is not None and known:
        gap = statistics.median(known) - user_dr
        tier = "boost" if gap <= 0 else "advanced" if gap <= 10 else "ultra"
        body["user"] = {"domain": "mine.com", "dr": user_dr, "gap": gap, "tier": tier}
    return KeywordReport.model_validate(body)


# --- one report ---------------------------------------------------------------------------------


def test_serp_frame_keeps_unknown_dr_missing_and_only_web_links() -> None:
    report = _report([50, None, 30])
    report.results[2].url = "javascript:alert(1)"
    frame = serp_frame(report)
    assert list(frame["position"]) == [1, 2, 3]
    assert frame["dr"].isna().tolist() == [False, True, False]  # unknown, not 0
    assert frame["url"].isna().tolist() == [False, False, True]


def test_serp_frame_shows_extra_fields_the_service_adds() -> None:
    body = _report([40]).model_dump(by_alias=True)
    body["results"][0]["snippet"] = "Best guide"
    frame = serp_frame(KeywordReport.model_validate(body))
    assert frame.loc[0, "snippet"] == "Best guide"
    assert "tracked_slug" not in present_columns(frame, ("tracked_slug",))  # empty optional column


def test_a_tracked_result_is_named_in_words_not_by_the_service_slug() -> None:
    report = _report([50, 40, 30])
    report.results[0].tracked_slug = "mine-com"
    report.results[1].tracked_slug = "rival-co-uk"
    frame = serp_frame(report, {"mine-com"})
    assert frame["tracked_site"].tolist()[:2] == ["your site", "yes"]
    assert pd.isna(frame["tracked_site"].iloc[2])
    assert frame["tracked_slug"].tolist()[:2] == ["mine-com", "rival-co-uk"]  # kept for the raw file


@pytest.mark.parametrize(
    ("gap", "words"),
    [
        (-21, "21 DR above the median"),  # gap = median DR − your DR: below 0 you are above it
        (9, "9 DR short of the median"),
        (0.5, "0.5 DR short of the median"),
        (0, "level with the median"),
        (None, None),
        (float("nan"), None),
    ],
)
def test_gap_words_say_which_side_of_the_median_you_are(gap: float | None, words: str | None) -> None:
    assert gap_words(gap) == words


def test_gap_words_follow_the_service_sign_convention() -> None:
    """A site above the median gets a negative gap from the service and "above" in words."""
    strong = _report([20, 30, 40], user_dr=51)
    assert strong.user is not None and strong.user.gap == -21 and strong.user.tier == "boost"
    assert gap_words(strong.user.gap) == "21 DR above the median"
    weak = _report([20, 30, 40], user_dr=21)
    assert weak.user is not None and weak.user.gap == 9
    assert gap_words(weak.user.gap) == "9 DR short of the median"


def test_median_and_min_leave_unknown_drs_out() -> None:
    keyword = keyword_with_unknown_dr("shaping probe")
    report = keyword_report(keyword, None, cached=False)
    known = [row.dr for row in report.results if row.dr is not None]
    stripped = report.model_copy(update={"median_dr": None, "min_dr": None})
    assert report_median(stripped) == statistics.median(known) == report.median_dr
    assert report_min(stripped) == min(known) == report.min_dr
    assert known_median([None, 10, 20, float("nan")]) == 15
    assert known_median([None]) is None


@pytest.mark.parametrize(
    ("drs", "user_dr", "level", "words"),
    [
        ([30, 40, 50], 60, "success", "clears the median"),
        ([30, 40, 50], 35, "info", "5 DR short"),
        ([60, 70, 80], 20, "warning", "50 DR short"),
    ],
)
def test_verdict_follows_the_gap(drs: list[int], user_dr: int, level: str, words: str) -> None:
    reading = verdict(_report(drs, user_dr=user_dr))
    assert reading is not None
    assert reading.level == level
    assert words in reading.headline + reading.detail


def test_verdict_says_when_the_weakest_result_is_within_reach() -> None:
    reading = verdict(_report([15, 60, 70], user_dr=40))
    assert reading is not None and "weakest page" in reading.detail
    assert verdict(_report([30, 40])) is None  # no domain, no verdict


def test_serp_chart_draws_unknown_as_a_band_not_a_zero_bar() -> None:
    report = _report([50, None, 30], user_dr=35)
    fig = serp_chart(serp_frame(report), median_dr=40, min_dr=30, user_dr=35, user_domain="mine.com")
    bars = [t for t in fig.data if t.type == "bar"]
    assert list(bars[0].x) == [1, 3] and list(bars[0].y) == [50, 30]
    assert bars[0].marker.color[0] != bars[0].marker.color[1]  # 30 ≤ your 35: drawn as beatable
    assert any("unknown" in a.text for a in fig.layout.annotations)
    lines = {s.name for s in fig.layout.shapes if s.type == "line"}
    assert lines == {"Median DR 40", "Min DR 30", "mine.com DR 35"}


def test_serp_chart_keeps_its_value_labels_clear_of_the_reference_lines() -> None:
    """A label above a bar sits where a line just over the bar would strike it through: labels go
    inside their bars (short bars excepted), and the lines run beneath the bars."""
    report = _report([57, 36, 6], user_dr=41)
    fig = serp_chart(serp_frame(report), median_dr=36, min_dr=6, user_dr=41, user_domain="mine.com")
    bars = next(t for t in fig.data if t.type == "bar")
    assert list(bars.text) == ["57", "36", "6"]
    assert list(bars.textposition) == ["inside", "inside", "outside"]  # a 6 DR bar is too short
    assert bars.textangle == 0 and bars.insidetextanchor == "end"
    lines = [s for s in fig.layout.shapes if s.type == "line"]
    assert len(lines) == 3 and {s.layer for s in lines} == {"below"}


def test_serp_chart_escapes_labels_from_the_service() -> None:
    report = _report([50])
    report.results[0].domain = "<b>evil</b>.com"
    fig = serp_chart(serp_frame(report), median_dr=50, min_dr=50)
    assert "<b>" not in str(fig.data[0].customdata)


# --- several reports ----------------------------------------------------------------------------


def test_keyword_list_is_normalised_deduplicated_and_limited() -> None:
    parsed = parse_keyword_list("  Web  analytics\nweb analytics\n\n" + "x" * 300 + "\nseo\ncrm", limit=2)
    assert parsed.keywords == ("Web analytics", "seo")
    reasons = dict(parsed.rejected)
    assert "200" in reasons["x" * 300]
    assert "first 2" in reasons["crm"]


def test_ranking_puts_the_most_winnable_first_and_failures_last() -> None:
    easy, hard = _report([20, 30, 40], user_dr=35), _report([70, 80, 90], user_dr=35)
    easy.keyword, hard.keyword = "easy", "hard"
    failure = errors.UnavailableError("upstream down")
    frame = ranking_frame([("hard", hard), ("broken", failure), ("easy", easy)])
    assert list(frame["keyword"]) == ["easy", "hard", "broken"]
    assert list(frame["gap"].iloc[:2]) == [easy.user.gap, hard.user.gap]
    assert list(frame["gap_words"].iloc[:2]) == ["5 DR above the median", "45 DR short of the median"]
    assert frame["rank"].iloc[2] is pd.NA and frame["error"].iloc[2] == "upstream down"
    assert list(frame["source"].iloc[:2]) == ["live SERP", "live SERP"]


def test_ranking_without_a_domain_orders_by_median_and_counts_unknowns() -> None:
    a, b = _report([60, None, 70]), _report([10, 20, None, None])
    a.keyword, b.keyword = "a", "b"
    frame = ranking_frame([("a", a), ("b", b)])
    assert list(frame["keyword"]) == ["b", "a"]
    assert list(frame["unknown_dr"]) == [2, 1]
    assert frame["gap"].isna().all()


def test_ranking_columns_hide_your_dr_and_put_a_failure_next_to_its_keyword() -> None:
    easy = _report([20, 30, 40], user_dr=35)
    shown = ranking_column_order(ranking_frame([("easy", easy)]))
    assert "your_dr" not in shown and "known_results" not in shown and "error" not in shown
    assert shown[:3] == ["rank", "keyword", "gap"]
    failed = ranking_column_order(ranking_frame([("easy", easy), ("x", errors.ServerError("boom"))]))
    assert failed[:3] == ["rank", "keyword", "error"] and failed.count("error") == 1


def test_ranking_columns_without_a_domain_leave_the_empty_gap_out() -> None:
    shown = ranking_column_order(ranking_frame([("a", _report([60, 70]))]))
    assert not {"gap", "gap_words", "tier", "error"} & set(shown)


def test_comparison_words_say_what_was_asked_and_how_it_is_ranked() -> None:
    assert asked_words(3, 3) == "All 3 keywords were asked just now."
    assert asked_words(1, 3).startswith("1 of 3 keywords were asked just now; the others came from")
    said = describe_error(errors.ServerError("boom"))
    assert failure_words(errors.ServerError("boom")) == f"{said.title}: {said.advice}"
    ranked = ranking_note(35, has_domain=True, tier_note="TIERS.")
    assert ranked.startswith("Your DR: 35. Ranked by gap") and ranked.endswith("TIERS.")
    plain = ranking_note(None, has_domain=False, tier_note="TIERS.")
    assert plain.startswith("Ranked by median DR.") and plain.endswith("Add your domain to rank by your gap.")


def test_distribution_chart_has_one_box_per_keyword_in_ranking_order() -> None:
    easy, hard = _report([20, None, 40], user_dr=35), _report([70, 90], user_dr=35)
    easy.keyword, hard.keyword = "easy", "hard"
    ranking = ranking_frame([("hard", hard), ("easy", easy)])
    fig = distribution_chart(distribution_frame([hard, easy]), ranking, user_dr=35, user_domain="mine.com")
    boxes = [t for t in fig.data if t.type == "box"]
    assert [b.name for b in boxes] == ["easy", "hard"]
    assert math.isnan(boxes[0].y[1])  # the unknown DR is a gap in the plot, not 0
    medians = next(t for t in fig.data if t.name == "Median DR")
    assert list(medians.y) == [easy.median_dr, hard.median_dr]
    assert any(s.name == "mine.com DR 35" for s in fig.layout.shapes)


def test_distribution_chart_says_so_when_every_keyword_failed() -> None:
    ranking = ranking_frame([("x", errors.ServerError("boom"))])
    fig = distribution_chart(distribution_frame([]), ranking)
    assert not fig.data and "No keyword" in fig.layout.annotations[0].text


# --- suggestions --------------------------------------------------------------------------------


def test_suggestions_frame_bands_filter_and_sort() -> None:
    answer = KeywordSuggestions(domain="example.com", suggestions=suggestions("example.com"))
    frame = suggestions_frame(answer)
    assert list(frame["keyword"]) == [s.keyword for s in answer.suggestions]  # service order kept
    assert all(band_of(p) == b for p, b in zip(frame["position"], frame["band"], strict=True))
    page_one = BANDS[0][0]
    only = filter_bands(frame, [page_one])
    assert set(only["band"]) == {page_one}
    assert len(only) == sum(1 for s in answer.suggestions if 4 <= s.position <= 10)
    by_volume = sort_suggestions(frame, "Search volume")
    assert list(by_volume["search_volume"]) == sorted(frame["search_volume"], reverse=True)
    fig = suggestions_chart(frame)
    assert sum(len(t.x) for t in fig.data) == len(frame)
    assert fig.layout.yaxis.type == "log"


def test_no_band_chosen_means_every_suggestion() -> None:
    frame = suggestions_frame(KeywordSuggestions.model_validate({"domain": "x.com", "suggestions": []}))
    assert frame.empty and filter_bands(frame, None).empty
    assert "No suggestion" in suggestions_chart(frame).layout.annotations[0].text


# --- tracked keywords ---------------------------------------------------------------------------


def test_tracked_frame_position_change_and_missing_impressions() -> None:
    listing = TrackedKeywords.model_validate(
        {
            "website": {"slug": "mine-com"},
            "keywords": [
                {"id": "tgt_1", "keyword": "a b", "snapshot": {"medianDr": 40, "gap": 5, "userPosition": 9,
                                                              "prevPosition": 12}, "impressions": 300},
                {"id": "tgt_2", "keyword": "c d", "snapshot": None},
            ],
            "limit": 2,
            "quota": {"used": 3, "limit": 10},
        }
    )  # fmt: skip
    frame = tracked_frame(listing)
    assert list(frame["position_change"].astype("object").fillna("na")) == [3, "na"]  # 12 → 9 is up 3
    assert frame["impressions"].isna().tolist() == [False, True]
    assert frame["median_dr"].isna().tolist() == [False, True]
    use = usage(listing)
    assert use.at_limit and use.checks_left == 7
    # Shown at first: what fits a laptop screen, minus the optional columns nobody has a value in.
    assert tracked_column_order(frame) == [
        "keyword", "user_position", "position_change", "median_dr", "gap", "impressions", "last_checked_at"
    ]  # fmt: skip
    assert use.uncapped_checks_words is None  # a plan with an allowance shows it as a meter


def test_no_check_allowance_means_no_cap_not_none_allowed() -> None:
    paid = Usage(tracked=5, limit=25, checks_used=5, checks_limit=None)
    assert paid.uncapped_checks_words == (
        "5 keyword checks used (adds and refreshes). Your plan has no monthly cap on keyword checks."
    )
    assert "1 keyword check used" in str(Usage(1, 25, 1, None).uncapped_checks_words)
    assert Usage(1, 25, None, None).uncapped_checks_words is None  # nothing said, nothing shown


def test_the_gap_reading_names_the_site_and_its_dr() -> None:
    listing = TrackedKeywords.model_validate(
        {
            "website": {"slug": "mine-com"},
            "keywords": [
                {"id": "tgt_1", "keyword": "a b", "snapshot": {"medianDr": 40, "gap": -1, "userDr": 41}},
                {"id": "tgt_2", "keyword": "c d", "snapshot": {"medianDr": 93, "gap": 52, "userDr": 41}},
            ],
            "limit": 25,
        }
    )
    reading = gap_reading(tracked_frame(listing), "mine.com")
    assert "mine.com's DR (41)" in reading
    assert "+9 means 9 DR short of the median, −21 means 21 DR above the median" in reading
