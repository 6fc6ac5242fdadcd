"""History shaping and charts: week-over-week changes, the largest moves, Trust Map churn, best
position and days in the top 10, and what the charts draw from them (no store, no Streamlit)."""

from __future__ import annotations

from datetime import date, timedelta

import pandas as pd
import pytest

from analysis.figures import history_charts as charts
from analysis.figures import history_frames as frames
from analysis.figures import link_changes
from components.core.history.source import QueryCache
from rigs.frame_source import FrameSource
from schema.history import DOMAIN_COLUMNS, KEYWORD_COLUMNS, LINK_COLUMNS

START = date(2025, 1, 6)  # a Monday


def domain_rows(domain: str, drs: list[int | None], true_drs: list[int | None] | None = None) -> pd.DataFrame:
    true_drs = true_drs or [None if d is None else d + 5 for d in drs]
    rows = [
        {
            "domain": domain,
            "day": START + timedelta(days=i),
            "dr": dr,
            "true_dr": tdr,
            "trust_score": 50,
            "traffic": 1000 + i,
            "referring_domains": 200 + i,
        }
        for i, (dr, tdr) in enumerate(zip(drs, true_drs, strict=True))
    ]
    frame = frames.empty(DOMAIN_COLUMNS)
    return pd.concat([frame, pd.DataFrame(rows)], ignore_index=True)


def links(*rows: tuple[str, str, float | None]) -> pd.DataFrame:
    return pd.DataFrame(
        [
            {
                "referring_domain": name,
                "dr": 30,
                "backlinks": 2,
                "link_type": "dofollow",
                "status": status,
                "spam_score": spam,
                "importance": 10.0,
            }
            for name, status, spam in rows
        ],
        columns=list(LINK_COLUMNS),
    )


def keyword_rows(keyword: str, positions: list[int | None]) -> pd.DataFrame:
    return pd.DataFrame(
        [
            {
                "site": "example-com",
                "keyword": keyword,
                "day": START + timedelta(days=i),
                "position": p,
                "median_dr": 40,
                "gap": 5 - i,
            }
            for i, p in enumerate(positions)
        ]
    ).reindex(columns=list(KEYWORD_COLUMNS))


# --- domain trends ---------------------------------------------------------------------------------


def test_week_over_week_compares_the_last_value_of_each_week_and_never_dates_one_in_the_future() -> None:
    # Two weeks (Mon 6 – Sun 12, Mon 13 – Sun 19) and the Monday after: DR ends them at 41, 44, 40.
    history = domain_rows("example.com", [40, 40, 40, 41, 41, 41, 41, 42, 42, 43, 43, 44, 44, 44, 40])
    weekly = frames.week_over_week(history)
    # The week under way ends on its latest recorded day (Monday the 20th), not on Sunday the 26th.
    assert list(weekly["week_ending"]) == [date(2025, 1, 20), date(2025, 1, 19), date(2025, 1, 12)]
    assert list(weekly["dr"]) == [40, 44, 41]
    assert list(weekly["dr_change"].astype(float).fillna(-999)) == [-4, 3, -999]  # the first has none
    assert list(weekly["true_dr_change"].astype(float).fillna(-999)) == [-4, 3, -999]


def test_week_over_week_skips_a_week_with_no_record_and_keeps_domains_apart() -> None:
    ours = domain_rows("example.com", [40] + [None] * 13 + [45])  # weeks 1 and 3 only
    ours = ours[ours["dr"].notna()]
    theirs = domain_rows("rival.com", [60] * 8)
    weekly = frames.week_over_week(pd.concat([ours, theirs]))
    mine = weekly[weekly["domain"] == "example.com"]
    assert list(mine["dr"]) == [45, 40]
    assert float(mine["dr_change"].iloc[0]) == 5  # compared with the last week that holds a value
    rival = weekly[weekly["domain"] == "rival.com"]
    assert float(rival["dr_change"].iloc[0]) == 0


def test_week_over_week_of_nothing_keeps_its_columns() -> None:
    weekly = frames.week_over_week(frames.empty(DOMAIN_COLUMNS))
    assert weekly.empty and "dr_change" in weekly.columns and "week_ending" in weekly.columns


def test_largest_moves_are_each_domains_biggest_week_over_week_step() -> None:
    steady = [50] * 17
    history = pd.concat(
        [
            # Weeks of Jan 6, 13 and 20: DR ends them at 40, 41, 47 (the third week is partial).
            domain_rows("example.com", [40] * 7 + [41] * 7 + [47] * 3, steady),
            domain_rows("rival.com", [60] * 7 + [52] * 7 + [53] * 3, steady),
        ]
    )
    moves = frames.largest_moves(history, n=3)
    assert list(zip(moves["domain"], moves["metric"], moves["change"], strict=True)) == [
        ("rival.com", "dr", -8.0),
        ("example.com", "dr", 6.0),  # its +1 the week before is not marked: one mark per line
    ]
    assert moves["day"].iloc[1] == pd.Timestamp(START + timedelta(days=16))  # on the line's last point
    assert moves["value"].iloc[1] == 47


def test_a_point_either_way_is_not_marked_as_a_move() -> None:
    # Weeks of Jan 6, 13 and 20: DR ends them at 40, 41, 40; TrueDR at 45, 45, 47.
    history = domain_rows("example.com", [40] * 7 + [41] * 7 + [40] * 3, [45] * 14 + [47] * 3)
    moves = frames.largest_moves(history)
    assert list(zip(moves["metric"], moves["change"], strict=True)) == [("true_dr", 2.0)]
    assert frames.largest_moves(domain_rows("example.com", [40] * 7 + [41] * 7, [45] * 14)).empty


def test_a_missing_rating_is_not_a_move() -> None:
    moves = frames.largest_moves(domain_rows("example.com", [40, None, 40, 40]))
    assert moves[moves["metric"] == "dr"].empty


def test_since_counts_today_as_a_day_of_the_period() -> None:
    today = date(2025, 3, 31)
    assert frames.since("30 days", today) == date(2025, 3, 2)
    assert frames.since("All", today) is None


# --- Trust Map churn -------------------------------------------------------------------------------


def test_churn_names_what_appeared_disappeared_turned_risky_and_was_lost() -> None:
    before = links(("a.com", "live", 10), ("b.com", "live", 10), ("c.com", "live", 40), ("d.com", "lost", 5))
    after = links(("a.com", "lost", 10), ("c.com", "live", 65), ("d.com", "lost", 5), ("e.com", "live", 80))
    result = link_changes.churn(before, after)
    assert list(result.appeared["referring_domain"]) == ["e.com"]
    assert list(result.disappeared["referring_domain"]) == ["b.com"]
    assert list(result.new_spam_risky["referring_domain"]) == ["c.com", "e.com"]
    assert list(result.live_to_lost["referring_domain"]) == ["a.com"]
    assert result.counts() == {"appeared": 1, "disappeared": 1, "new spam risk": 2, "live → lost": 1}
    table = link_changes.churn_table(result)
    assert list(table["change"]) == [
        "appeared",
        "disappeared",
        "new spam risk",
        "new spam risk",
        "live → lost",
    ]
    assert list(table.columns) == ["change", *LINK_COLUMNS]


def test_a_domain_already_spam_risky_is_not_new_and_same_samples_have_no_churn() -> None:
    sample = links(("a.com", "live", 90), ("b.com", "live", None))
    result = link_changes.churn(sample, sample.copy())
    assert sum(result.counts().values()) == 0
    assert link_changes.churn_table(result).empty


def test_gained_and_lost_links_are_judged_by_being_live_so_each_status_agrees_with_its_side() -> None:
    before = links(("a.com", "live", 10), ("b.com", "live", 10), ("d.com", "lost", 5), ("f.com", "live", 5))
    after = links(("a.com", "lost", 10), ("d.com", "live", 5), ("e.com", "live", 8), ("g.com", "lost", 3))
    after = pd.concat([after, links(("f.com", "live", 5))], ignore_index=True)
    change = link_changes.live_change(before, after)
    assert dict(zip(change.gained["referring_domain"], change.gained["status"], strict=True)) == {
        "d.com": "live",  # lost before, live again
        "e.com": "live",  # g.com joined with a lost link: no gain
    }
    assert dict(zip(change.lost["referring_domain"], change.lost["status"], strict=True)) == {
        "a.com": "lost",
        "b.com": link_changes.GONE_FROM_SAMPLE,
    }
    assert list(change.lost.columns) == list(LINK_COLUMNS)
    # Some rows of the later map could not be used: b.com may be one of them, so it is not counted lost.
    unsure = link_changes.live_change(before, after, skipped_after=2)
    assert list(unsure.lost["referring_domain"]) == ["a.com"]
    assert list(unsure.unknown["referring_domain"]) == ["b.com"] and list(unsure.unknown["status"]) == [
        "live"
    ]


# --- keyword positions -----------------------------------------------------------------------------


def test_best_position_ever_and_days_in_the_top_10() -> None:
    history = pd.concat(
        [
            keyword_rows("web analytics", [14, 9, 4, 4, None, 7]),
            keyword_rows("cookieless tracking", [None, None, 30]),
            keyword_rows("never ranked", [None, None]),
        ]
    )
    summary = frames.keyword_summary(history).set_index("keyword")
    web = summary.loc["web analytics"]
    assert web["position"] == 7 and web["best_position"] == 4
    assert web["best_day"] == START + timedelta(days=2)  # first reached
    assert web["days_in_top_10"] == 4 and web["days_recorded"] == 6
    assert pd.isna(web["change"])  # the day before it was out of the results
    assert summary.loc["cookieless tracking", "days_in_top_10"] == 0
    assert list(frames.keyword_summary(history)["keyword"]) == [
        "web analytics",
        "cookieless tracking",
        "never ranked",
    ]


def test_a_climb_is_a_positive_change() -> None:
    summary = frames.keyword_summary(keyword_rows("crm", [12, 8]))
    assert float(summary["change"].iloc[0]) == 4


# --- charts ----------------------------------------------------------------------------------------


def test_one_domain_draws_dr_and_true_dr_on_the_0_to_100_scale_with_moves_ringed() -> None:
    history = domain_rows("example.com", [40] * 7 + [48] * 7)
    fig = charts.ratings_trend_chart(history, frames.largest_moves(history, n=4))
    names = [t.name for t in fig.data]
    assert names[:2] == ["DR", "Largest moves"] and "TrueDR" in names
    assert list(fig.layout.yaxis.range) == [0, 100]
    ring = fig.data[1]
    assert list(ring.text) == ["+8"] and list(ring.y) == [48]


def test_several_domains_share_one_colour_per_domain_across_the_dr_and_true_dr_panels() -> None:
    history = pd.concat([domain_rows("example.com", [40, 41]), domain_rows("rival.com", [60, 61])])
    fig = charts.ratings_trend_chart(
        history, frames.largest_moves(history), order=["example.com", "rival.com"]
    )
    lines = [t for t in fig.data if t.name in ("example.com", "rival.com")]
    assert len(lines) == 4
    colours = {(t.name, t.xaxis): t.line.color for t in lines}
    assert colours[("example.com", "x")] == colours[("example.com", "x2")] != colours[("rival.com", "x")]
    assert list(fig.layout.yaxis.range) == [0, 100] and list(fig.layout.yaxis2.range) == [0, 100]


def test_rings_on_a_shared_chart_take_the_colour_of_the_line_they_mark() -> None:
    history = pd.concat(
        [domain_rows("example.com", [40] * 7 + [44] * 7), domain_rows("rival.com", [60] * 7 + [52] * 7)]
    )
    order = ["example.com", "rival.com"]
    fig = charts.ratings_trend_chart(history, frames.largest_moves(history), order=order)
    colours = charts.domain_colours(order)
    rings = [t for t in fig.data if t.name == "Largest moves" and t.xaxis == "x"]
    assert list(rings[0].customdata) == ["rival.com", "example.com"]
    assert list(rings[0].marker.color) == [colours["rival.com"], colours["example.com"]]


def test_a_domain_watched_today_shows_its_one_day_as_a_dot_on_an_axis_of_that_day_alone() -> None:
    history = domain_rows("example.com", [40])
    fig = charts.ratings_trend_chart(history, frames.largest_moves(history))
    assert {t.mode for t in fig.data if t.name in ("DR", "TrueDR")} == {"lines+markers"}
    low, high = (pd.Timestamp(x) for x in fig.layout.xaxis.range)
    # Half a day either side: room for the dot, and no day after it (it was three days into the future).
    assert (low, high) == (
        pd.Timestamp(START) - pd.Timedelta(hours=12),
        pd.Timestamp(START) + pd.Timedelta(hours=12),
    )
    assert fig.layout.xaxis.tickformat == "%b %d" and fig.layout.xaxis.dtick == 86_400_000  # by day
    longer = charts.metric_trend_chart(domain_rows("example.com", [40] * 10), "traffic")
    assert longer.data[0].mode == "lines" and longer.layout.xaxis.range is None


def test_traffic_far_apart_is_drawn_on_a_log_scale_so_the_smaller_site_is_not_flat_on_0() -> None:
    small = domain_rows("example.com", [40] * 3)  # traffic about 1,000
    big = domain_rows("rival.com", [60] * 3).assign(traffic=[500_000, 510_000, 520_000])
    fig = charts.metric_trend_chart(pd.concat([small, big]), "traffic")
    assert fig.layout.yaxis.type == "log" and "log scale" in fig.layout.yaxis.title.text
    assert fig.layout.yaxis.dtick == 1  # ticks at powers of ten only
    close = charts.metric_trend_chart(pd.concat([small, domain_rows("other.com", [50] * 3)]), "traffic")
    assert close.layout.yaxis.type != "log"


def test_rank_chart_puts_position_1_on_top_and_shades_the_top_10() -> None:
    rows = frames.keyword_rows(keyword_rows("crm", [14, 9, None, 4]), ["crm"])
    fig = charts.rank_chart(rows, ["crm"])
    low, high = fig.layout.yaxis.range
    assert low > high == 0.5  # reversed: larger positions at the bottom
    assert list(fig.layout.yaxis.tickvals) == [1, 5, 10, 15]  # the top of the results is labelled
    assert charts.position_ticks(57)[:3] == [1, 10, 20]
    band = fig.layout.shapes[0]
    assert (band.y0, band.y1) == (0.5, 10.5)
    assert pd.isna(fig.data[0].y[2])  # a day out of the results is a gap, not position 0


@pytest.mark.parametrize("builder", [charts.rank_chart, charts.gap_chart])
def test_keyword_charts_say_when_there_is_nothing(builder) -> None:  # type: ignore[no-untyped-def]
    fig = builder(frames.keyword_rows(frames.empty(KEYWORD_COLUMNS), []), [])
    assert "No " in fig.layout.annotations[0].text


def test_an_empty_period_says_so_instead_of_a_blank_chart() -> None:
    fig = charts.ratings_trend_chart(frames.empty(DOMAIN_COLUMNS), frames.empty(("metric",)))
    assert "Nothing recorded" in fig.layout.annotations[0].text


# --- the in-memory source --------------------------------------------------------------------------


def test_frame_source_answers_like_the_store_for_a_period() -> None:
    history = pd.concat([domain_rows("example.com", [40] * 10), domain_rows("rival.com", [60] * 10)])
    source = FrameSource(domains=history, keywords=keyword_rows("crm", [5] * 10))
    rows = source.domain_history(["rival.com"], START + timedelta(days=7))
    assert list(rows["domain"].unique()) == ["rival.com"] and len(rows) == 3
    assert len(source.keyword_history("example-com", None)) == 10
    assert source.keyword_history("other-com", None).empty


def test_the_query_cache_reuses_an_answer_until_a_write_or_its_time_is_up() -> None:
    reads: list[str] = []

    def read(value: str) -> str:
        reads.append(value)
        return value

    cache = QueryCache(ttl_s=60)
    assert cache.get(("acct-a", "q"), lambda: read("a1")) == "a1"
    assert cache.get(("acct-a", "q"), lambda: read("a2")) == "a1"  # a rerun: not read again
    assert cache.get(("acct-b", "q"), lambda: read("b1")) == "b1"  # another account: its own answer
    cache.changed("acct-a")  # this process wrote for acct-a: its next read goes to the store
    assert cache.get(("acct-a", "q"), lambda: read("a3")) == "a3"
    assert cache.get(("acct-b", "q"), lambda: read("b2")) == "b1"  # another account's answer stands
    expired = QueryCache(ttl_s=0)
    expired.get(("acct-a", "q"), lambda: read("x1"))
    assert expired.get(("acct-a", "q"), lambda: read("x2")) == "x2"
    assert reads == ["a1", "b1", "a3", "x1", "x2"]


def test_whole_numbers_read_as_integers_in_a_csv_and_fractions_stay() -> None:
    weekly = frames.week_over_week(domain_rows("example.com", [40] * 7 + [41]))
    assert weekly.loc[:, ["week_ending", "dr", "dr_change"]].to_csv(index=False).splitlines() == [
        "week_ending,dr,dr_change",
        "2025-01-13,41,1",
        "2025-01-12,40,",
    ]
    mixed = frames.whole_numbers(
        pd.DataFrame({"median_dr": [39.5, 41.0], "position": [3.0, None]}), ["median_dr", "position"]
    )
    assert mixed.to_csv(index=False).splitlines() == ["median_dr,position", "39.5,3", "41.0,"]
