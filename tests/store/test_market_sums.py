"""The market's figures summed at the database (``store.market``, what ``services.market.site_market``
reads) against the definition, ``analysis.market.market_figures`` over the same rows read into memory:
the same frame to 1e-9 on SQLite and PostgreSQL, on rows made to catch every rule of the definition —
ties, a keyword watched for two sites, missing days, a domain twice in one top 10, unknown volumes,
positions past the curve — and for every kind of group."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Any

import pandas as pd
import pytest
from sqlalchemy import insert

from analysis.market import ALL, BRAND, DEFAULT_CTR, NON_BRAND, UnknownGroup, dr_spread, market_figures
from analysis.market.standing import search_volumes as volumes_in_memory
from services.market import search_volumes, site_dr_spread, site_market
from store import HistoryStore
from store.models import KeywordSnapshotRow, SerpResultRow

ACCOUNT = "a" * 16
SITE, OTHER = "acme.com", "beta.com"
DAY = date(2026, 3, 2)
#: A curve with a zero and fewer places than a top 10 holds: positions 9 and 10 earn nothing.
SHORT_CTR = (10.0, 5.0, 5.0, 2.0, 1.0, 1.0, 0.5, 0.0)


def _serp(
    site: str, keyword: str, day: date, position: int, domain: str, dr: int | None = 30
) -> dict[str, Any]:
    return {
        "account": ACCOUNT,
        "site": site,
        "keyword": keyword,
        "day": day,
        "position": position,
        "domain": domain,
        "dr": dr,
        "source": "job",
        "recorded_at": datetime.now(UTC),
    }


def _rows() -> list[dict[str, Any]]:
    rows = []
    for n in range(6):
        day = DAY + timedelta(days=n)
        for k, keyword in enumerate(("acme pricing", "cheap widgets", "widget reviews", "widget tips")):
            if (n, k) in {(2, 1), (3, 1), (4, 2)}:  # a failed read: no top 10 that day
                continue
            for position in range(1, 13 if k == 2 else 11):  # positions past the curve, past 10 too
                domain = f"d{(position * 3 + k + n // 2) % 7}.com"
                if position == 1 + (k + n) % 5:
                    domain = SITE
                rows.append(
                    _serp(SITE, keyword, day, position, domain, None if position == 4 else 20 + position)
                )
        # a domain twice in one top 10, counted once at its best place
        rows.append(_serp(OTHER, "beta widgets", day, 1, "twice.com"))
        rows.append(_serp(OTHER, "beta widgets", day, 3, "twice.com"))
        rows.extend(_serp(OTHER, "beta widgets", day, p, f"e{p}.com") for p in (2, 4, 5))
        # watched for two sites: "acme pricing" under beta.com too, with another top 10 (acme.com's is kept)
        rows.extend(_serp(OTHER, "acme pricing", day, p, f"f{p}.com") for p in range(1, 11))
        # a keyword only beta.com watches, on some days: ties at equal places across keywords
        if n % 2 == 0:
            rows.extend(_serp(OTHER, "gadget deals", day, p, f"d{p}.com") for p in range(1, 11))
    return rows


def _keyword_rows() -> list[dict[str, Any]]:
    """Volumes for some keywords only (unknown for "gadget deals"), and impressions where no volume is
    known; two sites on one day with different volumes (the greater site's is the latest)."""
    rows = []
    for n in range(6):
        day = DAY + timedelta(days=n)
        for site, keyword, volume, impressions in (
            (SITE, "acme pricing", 100 + n, None),
            (OTHER, "acme pricing", 900, None),
            (SITE, "cheap widgets", None, 40 + n),
            (SITE, "widget reviews", 300, 7),
            (SITE, "widget tips", 10, None),
            (OTHER, "beta widgets", 50 if n < 4 else None, 5),
            (OTHER, "gadget deals", None, None),
        ):
            rows.append(
                {
                    "account": ACCOUNT,
                    "site": site,
                    "keyword": keyword,
                    "day": day,
                    "position": None,
                    "search_volume": volume,
                    "impressions": impressions,
                    "source": "job",
                    "recorded_at": datetime.now(UTC),
                }
            )
    return rows


@pytest.fixture
def market_store(store: HistoryStore) -> HistoryStore:
    # Rows inserted directly: their months first.
    store.partitions.ensure(row["day"] for row in [*_rows(), *_keyword_rows()])
    with store.engine.begin() as conn:
        conn.execute(insert(SerpResultRow.__table__), _rows())
        conn.execute(insert(KeywordSnapshotRow.__table__), _keyword_rows())
    store.groups.set_keyword_tags(ACCOUNT, "cheap widgets", ["pricing"])
    store.groups.set_keyword_tags(ACCOUNT, "acme pricing", ["pricing", "brand-ish"])
    store.groups.set_keyword_tags(ACCOUNT, "gadget deals", ["deals"])
    store.groups.set_brand_terms(ACCOUNT, OTHER, ["gadget", "acme"])  # beta.com's terms; acme.com: its name
    return store


def _both(
    store: HistoryStore,
    site: str | None,
    group: str,
    ctr: tuple[float, ...] = DEFAULT_CTR,
    since: date | None = None,
    until: date | None = None,
    volumes: dict[str, float] | None = None,
) -> tuple[Any, Any]:
    serps = store.queries.serp_history(ACCOUNT, site, since=since, until=until)
    tags, brands = store.groups.keyword_tags(ACCOUNT), store.groups.brand_terms(ACCOUNT)
    in_memory = market_figures(serps, group, tags, brands, ctr, volumes)
    at_database = site_market(
        store, ACCOUNT, site, since=since, until=until, ctr=ctr, group=group, volumes=volumes
    )
    return in_memory, at_database


def _same(in_memory: Any, at_database: Any) -> None:
    pd.testing.assert_frame_equal(
        at_database.figures, in_memory.figures, check_exact=False, rtol=0, atol=1e-9
    )
    pd.testing.assert_frame_equal(at_database.days, in_memory.days, check_exact=False, rtol=0, atol=1e-9)


@pytest.mark.parametrize("group", [ALL, BRAND, NON_BRAND, "pricing", "brand-ish", "deals"])
@pytest.mark.parametrize("site", [None, SITE, OTHER])
def test_the_database_gives_the_definitions_figures_for_every_group_and_site(
    market_store: HistoryStore, site: str | None, group: str
) -> None:
    volumes = search_volumes(market_store, ACCOUNT, None)
    in_memory, at_database = _both(market_store, site, group, volumes=volumes)
    _same(in_memory, at_database)


def test_the_curve_the_period_and_partial_volumes_are_the_definitions(market_store: HistoryStore) -> None:
    volumes = {"acme pricing": 100.0, "cheap widgets": 20.0, "widget reviews": 5.0, "widget tips": 2.0}
    volumes |= {"beta widgets": 1.0}
    in_memory, at_database = _both(
        market_store,
        None,
        ALL,
        SHORT_CTR,
        since=DAY + timedelta(days=1),
        until=DAY + timedelta(days=4),
        volumes=volumes,
    )
    _same(in_memory, at_database)
    figures = at_database.figures
    assert sorted(figures["day"].dt.date.unique()) == [DAY + timedelta(days=n) for n in range(1, 5)]
    # "gadget deals" (no volume) is recorded on even days only: weighted there is unknown, known elsewhere
    weighted_known = figures.groupby(figures["day"].dt.day)["weighted_visibility"].apply(
        lambda v: v.notna().all()
    )
    assert weighted_known.to_dict() == {3: True, 4: False, 5: True, 6: False}
    twice = figures[
        (figures["domain"] == "twice.com") & (figures["day"] == pd.Timestamp(DAY + timedelta(days=1)))
    ]
    assert twice["share_of_voice"].iloc[0] > 0
    assert not (figures["domain"] == "f1.com").any()  # beta.com's top 10 of a keyword acme.com watches too


def test_a_day_the_keywords_changed_is_counted_the_same_way(market_store: HistoryStore) -> None:
    in_memory, at_database = _both(market_store, None, ALL)
    assert at_database.days["kept"].tolist() == in_memory.days["kept"].tolist()
    assert at_database.days["keywords"].tolist() == [6, 5, 5, 4, 5, 5]


def test_an_unknown_group_is_refused_by_both_paths(market_store: HistoryStore) -> None:
    with pytest.raises(UnknownGroup):
        site_market(market_store, ACCOUNT, None, since=None, until=None, ctr=DEFAULT_CTR, group="no such tag")
    with pytest.raises(UnknownGroup):
        _both(market_store, None, "no such tag")


def test_thousands_of_chosen_keywords_pass_in_one_read(market_store: HistoryStore) -> None:
    """More keywords than SQLite takes bound parameters: they go in a temporary table."""
    many = {f"keyword {n}" for n in range(40_000)} | {"cheap widgets"}
    per_domain, per_day = market_store.market.sums(
        ACCOUNT, None, since=None, until=None, curve=DEFAULT_CTR, keywords=many
    )
    assert set(per_day["keywords"]) == {1}
    assert len(per_day) == 4  # the days "cheap widgets" was recorded
    assert not per_domain.empty


def test_the_weights_read_at_the_database_are_the_keyword_historys(market_store: HistoryStore) -> None:
    for since in (None, DAY + timedelta(days=4)):
        expected = volumes_in_memory(market_store.queries.keyword_history(ACCOUNT, None, since))
        assert search_volumes(market_store, ACCOUNT, since) == expected
    assert search_volumes(market_store, ACCOUNT, None)["acme pricing"] == 900.0  # beta.com > acme.com
    assert search_volumes(market_store, ACCOUNT, None)["beta widgets"] == 50.0  # the latest volume known
    later = search_volumes(market_store, ACCOUNT, DAY + timedelta(days=4))
    assert later["beta widgets"] == 5.0  # none known in the period: its impressions
    assert "gadget deals" not in later


@pytest.mark.parametrize("site", [None, OTHER])
def test_two_days_compared_read_only_those_days_rows(market_store: HistoryStore, site: str | None) -> None:
    """The churn between two days reads those two days, and finds what the period's rows give."""
    before, after = DAY + timedelta(days=1), DAY + timedelta(days=4)
    period = market_store.queries.serp_history(ACCOUNT, site)
    two_days = market_store.queries.serp_days(ACCOUNT, site, [after, before])
    expected = period[period["day"].dt.date.isin({before, after})].reset_index(drop=True)
    pd.testing.assert_frame_equal(two_days, expected)
    assert market_store.queries.serp_days(ACCOUNT, site, []).empty


@pytest.mark.parametrize("group", [ALL, BRAND, "pricing"])
@pytest.mark.parametrize("site", [None, OTHER])
def test_the_top_10s_dr_per_day_and_keyword_is_the_definitions(
    market_store: HistoryStore, site: str | None, group: str
) -> None:
    """Medians of even and odd counts, unresolved DRs left out, the first site's top 10 only."""
    serps = market_store.queries.serp_history(ACCOUNT, site)
    tags, brands = market_store.groups.keyword_tags(ACCOUNT), market_store.groups.brand_terms(ACCOUNT)
    expected = dr_spread(market_figures(serps, group, tags, brands, DEFAULT_CTR).top10s)
    found = site_dr_spread(market_store, ACCOUNT, site, since=None, until=None, group=group)
    pd.testing.assert_frame_equal(found, expected, check_exact=False, rtol=0, atol=1e-9)
    assert not found.empty
