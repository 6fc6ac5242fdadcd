"""Each top 10's DRs of a day, kept summed (``store.rollups.dr_days``): whatever periods were read before
and whatever days were written, re-recorded or thinned since, a site's DR spread (the whole top 10, and
without the site's own results, as a report's next steps read it) is the definition's over the same rows
in memory, on SQLite and PostgreSQL; and a read after the daily job records a day sums only that day."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, timedelta

import pandas as pd
import pytest

from analysis.market import dr_spread, one_top10_per_keyword
from analysis.opportunities.series import top10_dr_by_keyword
from client.models import KeywordReport, SerpResult
from services.market import site_top10_drs
from store import HistoryStore
from store.bulk import history_tables
from store.rollups.dr_days import DrDays
from tests.store.market_rows import ACCOUNT, DAY, OTHER, SITE, fill_market

LAST = DAY + timedelta(days=5)


@pytest.fixture
def market_store(store: HistoryStore) -> HistoryStore:
    return fill_market(store)


@pytest.fixture
def kept(market_store: HistoryStore) -> Iterator[list[int]]:
    """How many days each read summed again."""
    counts: list[int] = []
    keep = DrDays.keep

    def counting(self: DrDays, *args: object, **kwargs: object) -> int:
        counts.append(keep(self, *args, **kwargs))  # type: ignore[arg-type]
        return counts[-1]

    market_store.dr_days.keep = counting.__get__(market_store.dr_days)  # type: ignore[method-assign]
    yield counts


def _check(store: HistoryStore, site: str, since: date | None = None, until: date | None = None) -> None:
    """The spread from the kept sums, whole and without the site's results, held to the definition's."""
    rows = store.queries.serp_history(ACCOUNT, site, since=since, until=until)
    expected = dr_spread(one_top10_per_keyword(rows)).sort_values(["day", "keyword"], ignore_index=True)
    found = store.dr_days.spread(ACCOUNT, site, since=since, until=until)
    pd.testing.assert_frame_equal(found, expected, check_exact=False, rtol=0, atol=1e-9, check_dtype=False)
    expected_without = top10_dr_by_keyword(rows, site)
    one = sorted(expected_without)[:1]
    for chosen in (None, one):  # every keyword of the site, and one chosen (a report's watched ones)
        without = site_top10_drs(
            store, ACCOUNT, site, excluding=site, keywords=chosen, since=since, until=until
        )
        assert sorted(without) == (sorted(expected_without) if chosen is None else one)
        for keyword in without:
            pd.testing.assert_frame_equal(
                without[keyword], expected_without[keyword], check_exact=False, rtol=0, atol=1e-9
            )


def _report(keyword: str, *domains: str) -> KeywordReport:
    results = [SerpResult(position=i, domain=d, dr=30 + 7 * i) for i, d in enumerate(domains, 1)]
    return KeywordReport(keyword=keyword, results=results, median_dr=35.0, min_dr=31.0)


@pytest.mark.parametrize("site", [SITE, OTHER])
def test_periods_read_in_any_order_give_the_definitions_spread(market_store: HistoryStore, site: str) -> None:
    _check(market_store, site, DAY + timedelta(days=2), DAY + timedelta(days=4))
    _check(market_store, site)
    _check(market_store, site, DAY + timedelta(days=3), None)


def test_a_second_read_sums_nothing_and_a_new_day_only_itself(
    market_store: HistoryStore, kept: list[int]
) -> None:
    _check(market_store, SITE)
    # The six days, once (each check reads three times: whole, without the site, and one keyword of it).
    assert kept == [6, 0, 0]
    _check(market_store, SITE)
    assert kept[3:] == [0, 0, 0]
    new_day = LAST + timedelta(days=1)
    report = _report("acme pricing", SITE, "d1.com", "newcomer.com")
    market_store.snapshots.record_keyword_report(ACCOUNT, report, new_day, "job", SITE)
    _check(market_store, SITE)
    assert kept[6:] == [1, 0, 0]
    spread = market_store.dr_days.spread(ACCOUNT, SITE, since=new_day, until=None, excluding=SITE)
    assert spread[["keyword", "median_dr", "min_dr", "max_dr"]].values.tolist() == [
        ["acme pricing", 47.5, 44.0, 51.0]  # without acme.com's own 37
    ]


def test_a_day_recorded_again_with_another_top_10_is_summed_again(
    market_store: HistoryStore, kept: list[int]
) -> None:
    _check(market_store, SITE)
    day = DAY + timedelta(days=2)
    report = _report("widget tips", "upstart.com", SITE)
    assert market_store.snapshots.record_keyword_report(ACCOUNT, report, day, "job", SITE) == "recorded"
    _check(market_store, SITE)
    assert kept[3:] == [1, 0, 0]
    spread = market_store.dr_days.spread(ACCOUNT, SITE, since=day, until=day, keywords=["widget tips"])
    assert spread[["median_dr", "rated"]].values.tolist() == [[40.5, 2]]


def test_days_thinned_by_retention_leave_the_definitions_spread(market_store: HistoryStore) -> None:
    _check(market_store, SITE)
    market_store.retention.prune(DAY + timedelta(days=100))  # everything before it kept weekly
    _check(market_store, SITE)
    assert market_store.dr_days.spread(ACCOUNT, SITE, since=None, until=None)["day"].nunique() < 6


def test_the_kept_sums_are_not_moved_with_a_history() -> None:
    """A move copies the history, not what is summed from it: the target sums again when first read."""
    assert not {table.name for table in history_tables()} & {"top10_dr_days", "top10_dr_stamps"}
