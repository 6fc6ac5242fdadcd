"""The History page's keyword summary counted at the database (``store.keyword_months.summary``, what the
Keyword positions tab reads) against the definition, ``history_frames.keyword_summary`` over the same
rows read into memory: the same frame on SQLite and PostgreSQL, on rows made to catch each of its rules —
ties, a keyword never ranked, one recorded only once, missing days, a latest day without a position, a
best ever from before the period, a keyword tracked for two sites, "site unknown" rows (site "") and
another account's rows — for whole histories, periods and an alert's window that ends early. The days
straddle a month's end, so periods read kept monthly tallies, days tallied from their rows, or both; and
after a write through the store (a day of a kept month recorded again, a new day) the summary is the
definition's again."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Any

import pandas as pd
import pytest
from sqlalchemy import insert

from analysis.figures.history_evidence import in_window
from analysis.figures.history_frames import (
    chart_keywords,
    keyword_rows,
    keyword_summary,
    ranked_summary,
    whole_numbers,
)
from analysis.shaping import over_period
from components.core.history.source import StoreSource
from rigs.frame_source import FrameSource
from schema.history import KEYWORD_SUMMARY_COLUMNS
from services.reports.content import Keywords, keyword_section
from store import HistoryStore
from store.models import KeywordSnapshotRow
from store.reports.period import Period
from store.rollups.tables import bump_keyword_days
from tests.store import samples

ACCOUNT = "acct-summary"
OTHER_ACCOUNT = "acct-someone-else"
SITE, OTHER_SITE, UNKNOWN = "example-com", "other-com", ""
DAY = date(2025, 2, 26)  # the eight days straddle a month's end: kept months and days tallied from rows
#: keyword → its position on each of eight days (None: checked, not ranking; "-": not recorded that day).
POSITIONS: dict[str, list[Any]] = {
    "alpha": [2, 3, "-", 10, None, "-", 4, 4],  # best 2 before later periods; missing days; ends tied
    "beta": [9, 9, 8, 6, 5, 5, 4, 4],  # tied with alpha at the end: by keyword
    "gamma": ["-", "-", "-", "-", "-", 11, "-", "-"],  # recorded one day, outside the top 10
    "delta": [None, None, "-", None, None, None, None, None],  # never ranked
    "epsilon": [1, 7, 1, 8, 10, 11, 12, None],  # best reached twice (the first counts); latest unranked
    "zeta": ["-", "-", "-", "-", "-", "-", "-", 1],  # only the latest day, at the top
}


def _row(account: str, site: str, keyword: str, n: int, position: int | None) -> dict[str, Any]:
    return {
        "account": account,
        "site": site,
        "keyword": keyword,
        "day": DAY + timedelta(days=n),
        "position": position,
        "previous_position": None,
        "median_dr": [40.0, 41.5, None][n % 3],  # whole, a fraction, unknown
        "gap": [5.0, None, -2.5][(n + len(keyword)) % 3],
        "source": "job",
        "recorded_at": datetime.now(UTC),
    }


def _rows() -> list[dict[str, Any]]:
    rows = [
        _row(ACCOUNT, SITE, keyword, n, place)
        for keyword, places in POSITIONS.items()
        for n, place in enumerate(places)
        if place != "-"
    ]
    # The same keyword tracked for another site, "site unknown" rows and another account's rows.
    rows += [_row(ACCOUNT, OTHER_SITE, "alpha", n, 20 - n) for n in range(0, 8, 2)]
    rows += [_row(ACCOUNT, UNKNOWN, "alpha", n, 1) for n in (1, 5)]
    rows += [_row(ACCOUNT, UNKNOWN, "old watched", n, None if n else 9) for n in range(3)]
    rows += [_row(OTHER_ACCOUNT, SITE, "alpha", n, 1) for n in range(8)]
    return rows


@pytest.fixture
def summary_store(store: HistoryStore) -> HistoryStore:
    rows = _rows()
    store.partitions.ensure(row["day"] for row in rows)  # rows inserted directly: their months first
    with store.engine.begin() as conn:
        conn.execute(insert(KeywordSnapshotRow.__table__), rows)
        for account in (ACCOUNT, OTHER_ACCOUNT):  # as every write marks its days changed
            bump_keyword_days(conn, account, {row["day"] for row in rows if row["account"] == account})
    return store


def _definition(store: HistoryStore, site: str, since: date | None, until: date | None) -> pd.DataFrame:
    rows = in_window(store.queries.keyword_history(ACCOUNT, site, since), until)
    return keyword_summary(rows, store.keyword_months.best(ACCOUNT, site))


PERIODS = [
    (SITE, None, None),
    (SITE, DAY + timedelta(days=2), None),  # alpha's and epsilon's best ever are before the period
    (SITE, DAY + timedelta(days=1), DAY + timedelta(days=5)),  # an alert's window, ending early
    (SITE, DAY + timedelta(days=7), None),  # one day: no change to show
    (SITE, date(2025, 2, 1), date(2025, 3, 31)),  # two whole months
    (SITE, date(2025, 3, 1), None),  # one whole month, its first day the period's
    (OTHER_SITE, None, None),
    (UNKNOWN, None, None),
    (UNKNOWN, DAY + timedelta(days=4), DAY + timedelta(days=6)),
]


@pytest.mark.parametrize(("site", "since", "until"), PERIODS)
def test_the_database_gives_the_definitions_summary(
    summary_store: HistoryStore, site: str, since: date | None, until: date | None
) -> None:
    at_database = ranked_summary(summary_store.keyword_months.summary(ACCOUNT, site, since, until))
    pd.testing.assert_frame_equal(at_database, _definition(summary_store, site, since, until))
    # And the in-memory source the benchmarks compare with gives the same again.
    in_memory = FrameSource(keywords=summary_store.queries.keyword_history(ACCOUNT, None))
    pd.testing.assert_frame_equal(in_memory.keyword_summary(site, since, until), at_database)


def test_what_the_summary_says_of_each_rule(summary_store: HistoryStore) -> None:
    source = StoreSource(summary_store, ACCOUNT)
    summary = source.keyword_summary(SITE, DAY + timedelta(days=2), None).set_index("keyword")
    assert list(summary.index) == ["zeta", "alpha", "beta", "gamma", "delta", "epsilon"]
    alpha = summary.loc["alpha"]
    # Recorded on days 3, 4, 6, 7 (two missing); the change is from day 6, the recorded day before.
    assert (alpha["position"], alpha["change"], alpha["days_recorded"], alpha["days_in_top_10"]) == (
        4,
        0,
        4,
        3,
    )
    assert (alpha["best_position"], alpha["best_day"]) == (2, DAY)  # all-time, whatever the period
    assert summary.loc["epsilon", "best_day"] == DAY and pd.isna(summary.loc["epsilon", "position"])
    assert pd.isna(summary.loc["delta", "best_position"]) and summary.loc["delta", "best_day"] is None
    assert summary.loc["gamma", "days_in_top_10"] == 0 and pd.isna(summary.loc["gamma", "change"])
    assert summary.loc["zeta", "latest_day"] == DAY + timedelta(days=7)
    # Another site's and another account's "alpha" are not this one's.
    assert source.keyword_summary(OTHER_SITE, None, None)["position"].tolist() == [14]
    assert StoreSource(summary_store, "acct-nobody").keyword_summary(SITE, None, None).empty
    empty = summary_store.keyword_months.summary(ACCOUNT, "nobody-com")
    assert empty.empty and tuple(empty.columns) == KEYWORD_SUMMARY_COLUMNS


def test_the_charts_read_only_the_chosen_keywords_days(summary_store: HistoryStore) -> None:
    since, until = DAY + timedelta(days=1), DAY + timedelta(days=6)
    chosen = summary_store.queries.keyword_days(ACCOUNT, SITE, ["Beta", "alpha"], since, until)
    every = in_window(summary_store.queries.keyword_history(ACCOUNT, SITE, since), until)
    expected = every[every["keyword"].isin(["alpha", "beta"])].reset_index(drop=True)
    pd.testing.assert_frame_equal(chosen, expected)
    assert summary_store.queries.keyword_days(ACCOUNT, SITE, [], None, None).empty


def test_a_kept_month_written_again_is_counted_again(summary_store: HistoryStore) -> None:
    before = summary_store.keyword_months.summary(ACCOUNT, SITE).set_index("keyword")
    assert before.loc["beta", "best_position"] == 4 and before.loc["beta", "days_recorded"] == 8
    # The job records beta at the top on a day of the kept February, and a new day in March.
    summary_store.snapshots.record_tracked(ACCOUNT, samples.tracked(SITE, {"beta": 1}), DAY, "job")
    summary_store.snapshots.record_tracked(
        ACCOUNT, samples.tracked(SITE, {"beta": 3}), DAY + timedelta(days=9), "job"
    )
    after = summary_store.keyword_months.summary(ACCOUNT, SITE).set_index("keyword")
    assert (after.loc["beta", "best_position"], after.loc["beta", "best_day"]) == (1, DAY)
    assert (
        after.loc["beta", "position"],
        after.loc["beta", "change"],
        after.loc["beta", "days_recorded"],
    ) == (
        3,
        1,
        9,
    )
    # Another new day after that read: added to the kept March (a worse place than the best ever).
    summary_store.snapshots.record_tracked(
        ACCOUNT, samples.tracked(SITE, {"beta": 2, "zeta": 5}), DAY + timedelta(days=10), "job"
    )
    latest = summary_store.keyword_months.summary(ACCOUNT, SITE).set_index("keyword")
    assert tuple(latest.loc["beta", ["position", "change", "best_position", "days_recorded"]]) == (
        2,
        1,
        1,
        10,
    )
    assert tuple(latest.loc["zeta", ["position", "change", "best_position", "days_recorded"]]) == (
        5,
        -4,
        1,
        2,
    )
    for since, until in (
        (None, None),
        (DAY + timedelta(days=2), None),
        (date(2025, 2, 1), date(2025, 2, 28)),
    ):
        pd.testing.assert_frame_equal(
            ranked_summary(summary_store.keyword_months.summary(ACCOUNT, SITE, since, until)),
            _definition(summary_store, SITE, since, until),
        )


def _report_definition(store: HistoryStore, period: Period) -> Keywords:
    """The report's keyword section by its definition, over every row of the period read into memory:
    the summary with each keyword's change from its first recorded day in the period to its last, the
    first keywords' rows, and the keywords in the top 10 on the period's last recorded day and not on its
    first (and the other way round)."""
    rows = store.queries.keyword_history(ACCOUNT, SITE, period.start, period.end)
    summary = keyword_summary(rows, store.keyword_months.best(ACCOUNT, SITE))
    ends = over_period(rows, "position", "keyword", skip_missing=False).set_index("keyword")
    rising = -ends["change"].reindex(summary["keyword"].astype(str))
    summary = whole_numbers(summary.assign(change=rising.to_numpy()), ["change"])
    shaped = keyword_rows(rows, sorted(set(rows["keyword"].astype(str))))
    days = sorted(shaped["day"].unique())

    def top_10(day: pd.Timestamp) -> set[str]:
        on_day = shaped[(shaped["day"] == day) & (shaped["position"] <= 10)]
        return set(on_day["keyword"].astype(str))

    first, last = top_10(days[0]), top_10(days[-1])
    charted = chart_keywords(summary)
    return Keywords(summary, keyword_rows(rows, charted), charted, sorted(last - first), sorted(first - last))


@pytest.mark.parametrize(
    "period",
    [
        Period(DAY, DAY + timedelta(days=7)),  # every day: epsilon leaves the top 10, zeta enters
        Period(DAY + timedelta(days=2), DAY + timedelta(days=5)),  # alpha's first day in it is not recorded
        Period(DAY + timedelta(days=7), DAY + timedelta(days=7)),  # one day: no change
        Period(date(2025, 3, 1), date(2025, 3, 31)),  # a whole month, kept
    ],
)
def test_the_reports_keyword_section_counted_at_the_database_is_the_definitions(
    summary_store: HistoryStore, period: Period
) -> None:
    """A report of 5,000 keywords read a month's 150,000 rows for its keyword table; it now reads the
    kept months and each keyword's first row of the period, and says the same."""
    found, expected = (
        keyword_section(summary_store, ACCOUNT, "example.com", period),
        _report_definition(summary_store, period),
    )
    pd.testing.assert_frame_equal(found.summary, expected.summary)
    pd.testing.assert_frame_equal(found.rows, expected.rows)
    assert (found.charted, found.entered_top_10, found.left_top_10) == (
        expected.charted,
        expected.entered_top_10,
        expected.left_top_10,
    )
