"""What When winnable, the Opportunities list and the Market page's notes read at the database, against
the definitions over the same rows read into memory, on SQLite and PostgreSQL: each keyword's top-10
median and lowest DR by day without a site's own results (``analysis.opportunities.series.
top10_dr_by_keyword``), and the keywords with a top 10 in a period (the keywords of the period's
``one_top10_per_keyword`` rows of a group). On rows with the site itself in its top 10s, unresolved DRs,
a keyword watched for two sites, days a keyword was not read."""

from __future__ import annotations

from datetime import date, timedelta

import pandas as pd
import pytest
from sqlalchemy import insert

from analysis.market import ALL, BRAND, NON_BRAND, UnknownGroup, in_group, one_top10_per_keyword
from analysis.opportunities.series import top10_dr_by_keyword
from analysis.opportunities.worth import worth_of_reaching
from components.core.history.source import StoreSource
from rigs.frame_source import FrameSource
from services.market import group_keywords, site_top10_drs
from store import HistoryStore
from store.models import SerpResultRow
from tests.store.market_rows import ACCOUNT, DAY, OTHER, SITE, fill_market, serp_row


@pytest.fixture
def market_store(store: HistoryStore) -> HistoryStore:
    return fill_market(store)


def _same_drs(found: dict[str, pd.DataFrame], expected: dict[str, pd.DataFrame]) -> None:
    assert sorted(found) == sorted(expected)
    for keyword, frame in expected.items():
        pd.testing.assert_frame_equal(found[keyword], frame, check_exact=False, rtol=0, atol=1e-9)


@pytest.mark.parametrize("excluding", [SITE, OTHER, "twice.com", "nobody.com"])
@pytest.mark.parametrize("site", [None, SITE, OTHER])
def test_the_top_10s_dr_without_a_site_is_the_definitions(
    market_store: HistoryStore, site: str | None, excluding: str
) -> None:
    """The site's own results left out (acme.com is in each of its top 10s), unresolved DRs left out,
    "acme pricing" (watched for both sites) taken from acme.com's top 10, as in memory."""
    rows = market_store.queries.serp_history(ACCOUNT, site)
    expected = top10_dr_by_keyword(rows, excluding)
    found = site_top10_drs(market_store, ACCOUNT, site, excluding=excluding)
    _same_drs(found, expected)
    assert found
    if site != OTHER and excluding == SITE:  # without acme.com's result, the median moved
        with_it = top10_dr_by_keyword(rows)["cheap widgets"]["median_dr"]
        assert not found["cheap widgets"]["median_dr"].equals(with_it)


@pytest.mark.parametrize("site", [None, SITE])
def test_chosen_keywords_and_a_period_read_only_theirs(market_store: HistoryStore, site: str | None) -> None:
    since, until = DAY + timedelta(days=2), DAY + timedelta(days=4)
    rows = market_store.queries.serp_history(ACCOUNT, site, since=since, until=until)
    chosen = ["acme pricing", "cheap widgets", "not recorded"]
    expected = top10_dr_by_keyword(rows[rows["keyword"].isin(chosen)], SITE)
    found = site_top10_drs(
        market_store, ACCOUNT, site, excluding=SITE, keywords=chosen, since=since, until=until
    )
    _same_drs(found, expected)
    assert sorted(found) == ["acme pricing", "cheap widgets"]
    assert len(found["cheap widgets"]) == 1  # not read on the period's first two days
    assert site_top10_drs(market_store, ACCOUNT, site, excluding=SITE, keywords=[]) == {}


def test_a_top_10_of_only_the_site_gives_way_to_the_next_sites(store: HistoryStore) -> None:
    """When the first site's top 10 holds nothing but the excluded site, the next site's is the keyword's
    top 10 that day, at the database as in memory."""
    day = date(2026, 5, 4)
    rows = [
        serp_row(site, "solo", day, position, domain, dr)
        for site, position, domain, dr in (
            (SITE, 1, SITE, 50),
            (OTHER, 1, OTHER, 10),
            (OTHER, 2, "x.com", 40),
            (OTHER, 3, "y.com", None),
        )
    ]
    store.partitions.ensure([day])
    with store.engine.begin() as conn:
        conn.execute(insert(SerpResultRow.__table__), rows)
    expected = top10_dr_by_keyword(store.queries.serp_history(ACCOUNT, None), SITE)
    found = site_top10_drs(store, ACCOUNT, None, excluding=SITE)
    _same_drs(found, expected)
    assert found["solo"]["median_dr"].tolist() == [25.0]


@pytest.mark.parametrize(
    ("since", "until"),
    [(None, None), (DAY + timedelta(days=1), DAY + timedelta(days=1)), (DAY + timedelta(days=3), None)],
)
@pytest.mark.parametrize("site", [None, SITE, OTHER])
def test_the_periods_pairs_are_those_of_its_rows(
    market_store: HistoryStore, site: str | None, since: date | None, until: date | None
) -> None:
    """Read down the index, the same (site, keyword) pairs as the period's rows hold: "gadget deals" only
    on even days, "cheap widgets" not on days 3 and 4."""
    rows = market_store.queries.serp_history(ACCOUNT, site, since=since, until=until)
    expected = sorted(set(zip(rows["site"], rows["keyword"], strict=True)))
    assert market_store.market.pairs(ACCOUNT, site, since, until) == expected
    if since == until == DAY + timedelta(days=1):
        assert all(keyword != "gadget deals" for _site, keyword in expected)


def test_an_empty_period_has_no_pairs(market_store: HistoryStore) -> None:
    assert market_store.market.pairs(ACCOUNT, None, DAY + timedelta(days=30), None) == []
    assert market_store.market.pairs(ACCOUNT, "nobody.com", None, None) == []


@pytest.mark.parametrize("group", [ALL, BRAND, NON_BRAND, "pricing", "deals"])
@pytest.mark.parametrize("site", [None, SITE, OTHER])
def test_a_groups_keywords_are_those_of_its_top_10s(
    market_store: HistoryStore, site: str | None, group: str
) -> None:
    """The keywords the Market page's notes and When winnable list, as the period's top 10s of the group
    read into memory give them."""
    since = DAY + timedelta(days=1)
    rows = market_store.queries.serp_history(ACCOUNT, site, since=since)
    tags, brands = market_store.groups.keyword_tags(ACCOUNT), market_store.groups.brand_terms(ACCOUNT)
    expected = sorted(set(one_top10_per_keyword(in_group(rows, group, tags, brands))["keyword"]))
    assert group_keywords(market_store, ACCOUNT, site, since=since, until=None, group=group) == expected
    with pytest.raises(UnknownGroup):
        group_keywords(market_store, ACCOUNT, site, since=since, until=None, group="no such tag")


@pytest.mark.parametrize("site", [None, OTHER])
def test_the_benchmarks_in_memory_source_answers_as_the_store(
    market_store: HistoryStore, site: str | None
) -> None:
    """``FrameSource`` (the benchmarks' baseline) computes from its frames what the store computes."""
    stored = StoreSource(market_store, ACCOUNT)
    tags, brands = market_store.groups.keyword_tags(ACCOUNT), market_store.groups.brand_terms(ACCOUNT)
    in_memory = FrameSource(serps=market_store.queries.serp_history(ACCOUNT, None), tags=tags, brands=brands)
    chosen = ("acme pricing", "beta widgets", "gadget deals")
    _same_drs(stored.top10_drs(site, SITE, chosen), in_memory.top10_drs(site, SITE, chosen))
    since = DAY + timedelta(days=1)
    for group in (ALL, BRAND, "pricing"):
        assert stored.top10_keywords(site, since, group) == in_memory.top10_keywords(site, since, group)


@pytest.mark.parametrize("site", [SITE, OTHER])
def test_each_keywords_latest_top_10_is_what_worth_was_measured_on(
    market_store: HistoryStore, site: str
) -> None:
    """What reaching a position is worth, from each keyword's latest top 10 read at the database, is what
    it was from every row of the weeks before ("gadget deals" was last read a day before the others)."""
    since = DAY + timedelta(days=1)
    chosen = ("acme pricing", "cheap widgets", "gadget deals", "beta widgets", "not recorded")
    latest = market_store.market.latest_top10s(ACCOUNT, site, chosen, since)
    period = market_store.queries.serp_history(ACCOUNT, site, since=since)
    in_memory = FrameSource(serps=period).latest_top10s(site, chosen, since)
    pd.testing.assert_frame_equal(latest, in_memory)
    days = latest.groupby("keyword")["day"].max().dt.date.to_dict()
    if site == OTHER:
        assert days["gadget deals"] == DAY + timedelta(days=4) and days["beta widgets"] == DAY + timedelta(
            days=5
        )
    for target in (1, 3):
        before = worth_of_reaching(one_top10_per_keyword(period), site, chosen, target)
        after = worth_of_reaching(one_top10_per_keyword(latest), site, chosen, target)
        assert after == before and after is not None
    assert market_store.market.latest_top10s(ACCOUNT, site, (), since).empty
