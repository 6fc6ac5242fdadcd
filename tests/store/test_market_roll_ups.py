"""The market's daily roll-ups (``store.rollups``): whatever periods were read before, whatever days
were written, re-recorded or thinned since, a site's figures from the roll-ups are the definition's
(``analysis.market.market_figures`` over the same rows in memory), on SQLite and PostgreSQL; and a read
after the daily job records a new day sums only that day's top 10s at the database."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, timedelta
from typing import Any

import pandas as pd
import pytest

from analysis.market import ALL, BRAND, DEFAULT_CTR, market_figures
from client.models import KeywordReport, SerpResult
from services.jobs.visibility import Asked, visibility_rows
from services.market import market_as_shown, search_volumes, site_market
from services.reports.content import visibility_section
from services.reports.feeds import _site_figures
from store import HistoryStore
from store.bulk import history_tables
from store.reports.period import Period
from tests.store.market_rows import ACCOUNT, DAY, OTHER, SHORT_CTR, SITE, fill_market

LAST = DAY + timedelta(days=5)


@pytest.fixture
def market_store(store: HistoryStore) -> HistoryStore:
    return fill_market(store)


@pytest.fixture
def summed(market_store: HistoryStore) -> Iterator[list[tuple[date | None, date | None]]]:
    """The periods the roll-ups asked the database to sum, in order."""
    asked: list[tuple[date | None, date | None]] = []
    sums = market_store.market.sums

    def recording(*args: Any, **kwargs: Any) -> Any:
        asked.append((kwargs["since"], kwargs["until"]))
        return sums(*args, **kwargs)

    market_store.market_days._sums.sums = recording  # type: ignore[method-assign]
    yield asked


def _check(
    store: HistoryStore,
    site: str | None,
    group: str = ALL,
    since: date | None = None,
    until: date | None = None,
    ctr: tuple[float, ...] = DEFAULT_CTR,
) -> Any:
    """The figures from the roll-ups, held to the definition's over the same rows in memory."""
    volumes = search_volumes(store, ACCOUNT, since)
    serps = store.queries.serp_history(ACCOUNT, site, since=since, until=until)
    tags, brands = store.groups.keyword_tags(ACCOUNT), store.groups.brand_terms(ACCOUNT)
    expected = market_figures(serps, group, tags, brands, ctr, volumes)
    found = site_market(store, ACCOUNT, site, since=since, until=until, ctr=ctr, group=group, volumes=volumes)
    pd.testing.assert_frame_equal(found.figures, expected.figures, check_exact=False, rtol=0, atol=1e-9)
    pd.testing.assert_frame_equal(found.days, expected.days, check_exact=False, rtol=0, atol=1e-9)
    return found


def _report(keyword: str, *domains: str) -> KeywordReport:
    results = [SerpResult(position=i, domain=d, dr=30 + i) for i, d in enumerate(domains, 1)]
    return KeywordReport(keyword=keyword, results=results, median_dr=35.0, min_dr=31.0)


@pytest.mark.parametrize("site", [None, SITE, OTHER])
@pytest.mark.parametrize("group", [ALL, BRAND, "pricing"])
def test_periods_read_in_any_order_give_the_definitions_figures(
    market_store: HistoryStore, site: str | None, group: str
) -> None:
    """A middle period first (its first day's "kept" not known), then the whole, then one that starts
    inside the first: each is what the rows in memory give."""
    _check(market_store, site, group, DAY + timedelta(days=2), DAY + timedelta(days=4))
    _check(market_store, site, group)
    _check(market_store, site, group, DAY + timedelta(days=3), None)
    _check(market_store, site, group, DAY + timedelta(days=1), DAY + timedelta(days=3))


@pytest.mark.parametrize("site", [None, OTHER])
def test_two_periods_side_by_side_then_both_give_the_definitions_figures(
    market_store: HistoryStore, site: str | None
) -> None:
    """The later period's first day was summed without its day before: read as part of the whole, its
    "kept" is counted again."""
    _check(market_store, site, ALL, None, DAY + timedelta(days=2))
    _check(market_store, site, ALL, DAY + timedelta(days=3), None)
    _check(market_store, site)


def test_a_second_read_sums_nothing_and_a_new_day_only_itself(
    market_store: HistoryStore, summed: list[tuple[date | None, date | None]]
) -> None:
    first = _check(market_store, SITE)
    assert summed == [(DAY, LAST)]
    assert _check(market_store, SITE).figures.equals(first.figures)
    assert len(summed) == 1  # the whole period from the roll-ups
    new_day = LAST + timedelta(days=1)
    for keyword in ("acme pricing", "widget tips"):
        report = _report(keyword, SITE, "d1.com", "newcomer.com")
        market_store.snapshots.record_keyword_report(ACCOUNT, report, new_day, "job", SITE)
    after = _check(market_store, SITE)
    assert summed[1:] == [(LAST, new_day)]  # the day before, whose "kept" it is counted against, and the day
    newcomer = after.figures[after.figures["domain"] == "newcomer.com"]
    assert newcomer["day"].dt.date.tolist() == [new_day]
    assert after.days["keywords"].iloc[-1] == 2


def test_a_day_recorded_again_with_another_top_10_is_summed_again(
    market_store: HistoryStore, summed: list[tuple[date | None, date | None]]
) -> None:
    _check(market_store, None)
    day = DAY + timedelta(days=2)
    report = _report("widget tips", "upstart.com", SITE)
    assert market_store.snapshots.record_keyword_report(ACCOUNT, report, day, "job", SITE) == "recorded"
    after = _check(market_store, None)
    assert summed[1:] == [(day - timedelta(days=1), day + timedelta(days=1))]
    assert pd.Timestamp(day) in set(after.figures.loc[after.figures["domain"] == "upstart.com", "day"])
    market_store.snapshots.record_keyword_report(ACCOUNT, report, day, "job", SITE)  # the same top 10
    _check(market_store, None)
    assert len(summed) == 2  # unchanged: nothing summed again


def test_days_thinned_by_retention_leave_the_definitions_figures(market_store: HistoryStore) -> None:
    for site in (None, SITE):
        _check(market_store, site, ctr=SHORT_CTR)
    market_store.retention.prune(DAY + timedelta(days=100))  # everything before it kept weekly
    for site in (None, SITE):
        found = _check(market_store, site, ctr=SHORT_CTR)
        assert found.days["day"].nunique() < 6


def test_another_curve_or_group_is_its_own_roll_up(market_store: HistoryStore) -> None:
    default = _check(market_store, SITE)
    short = _check(market_store, SITE, ctr=SHORT_CTR)
    assert not short.figures["visibility"].equals(default.figures["visibility"])
    market_store.groups.set_keyword_tags(ACCOUNT, "widget reviews", ["pricing"])  # the group grows
    _check(market_store, SITE, "pricing")


def test_roll_ups_are_not_moved_with_a_history() -> None:
    """A move copies the history, not what is summed from it: the target sums again when first read."""
    names = {table.name for table in history_tables()}
    assert "serp_day_versions" in names
    assert not names & {"market_roll_days", "market_roll_domains"}


def test_the_report_a_feed_and_the_command_read_what_the_market_page_summed(
    market_store: HistoryStore, summed: list[tuple[date | None, date | None]]
) -> None:
    """One keyword set under one curve is one roll-up, whether or not a figure shows the weighing: after
    the Market page's figures of the whole history, a report of part of it, a spreadsheet feed and the
    visibility command sum no day again (a report that weighed nothing summed its month afresh)."""
    market_as_shown(market_store, ACCOUNT, SITE, since=None, until=None, ctr=DEFAULT_CTR)
    assert summed == [(DAY, LAST)]
    period = Period(DAY + timedelta(days=1), LAST - timedelta(days=1))
    report = visibility_section(market_store, ACCOUNT, SITE, period, DEFAULT_CTR)
    fed = _site_figures(market_store, ACCOUNT, SITE, period.start, period.end, DEFAULT_CTR)
    printed = visibility_rows(market_store, ACCOUNT, DEFAULT_CTR, Asked(SITE, 3, LAST))
    assert summed == [(DAY, LAST)]
    assert not report.lines.empty and not fed.empty and not printed.empty
