"""The frames pages draw from: exactly the agreed columns, also when empty, sorted by day."""

from __future__ import annotations

from datetime import date, timedelta

import pandas as pd

from schema.history import (
    DOMAIN_COLUMNS,
    KEYWORD_BEST_COLUMNS,
    KEYWORD_COLUMNS,
    LINK_COLUMNS,
    TRUST_TOTAL_COLUMNS,
)
from store import HistoryStore
from tests.store import samples
from tests.store.samples import ACCOUNT

DAY = date(2025, 1, 6)


def test_empty_frames_keep_their_columns(store: HistoryStore) -> None:
    assert tuple(store.queries.domain_history(ACCOUNT, ["stripe.com"]).columns) == DOMAIN_COLUMNS
    assert tuple(store.queries.domain_history(ACCOUNT, []).columns) == DOMAIN_COLUMNS
    assert tuple(store.queries.trust_map_links(ACCOUNT, "stripe.com", DAY).columns) == LINK_COLUMNS
    assert tuple(store.queries.trust_map_totals(ACCOUNT, "stripe.com").columns) == TRUST_TOTAL_COLUMNS
    assert tuple(store.queries.keyword_history(ACCOUNT, None).columns) == KEYWORD_COLUMNS


def test_domain_history_is_by_day_then_domain_from_since_on(store: HistoryStore) -> None:
    # Written out of order, on purpose.
    for n in (2, 0, 1):
        for domain in ("stripe.com", "hubspot.com"):
            store.snapshots.record_lookup(
                ACCOUNT, samples.lookup(domain, dr=50 + n), DAY + timedelta(days=n), "job"
            )
    store.snapshots.record_lookup(ACCOUNT, samples.lookup("other.com"), DAY, "job")
    history = store.queries.domain_history(
        ACCOUNT, ["Stripe.com", "hubspot.com"], since=DAY + timedelta(days=1)
    )
    assert tuple(history.columns) == DOMAIN_COLUMNS
    assert list(zip(history["day"].dt.date, history["domain"], strict=True)) == [
        (DAY + timedelta(days=1), "hubspot.com"),
        (DAY + timedelta(days=1), "stripe.com"),
        (DAY + timedelta(days=2), "hubspot.com"),
        (DAY + timedelta(days=2), "stripe.com"),
    ]
    assert pd.api.types.is_datetime64_any_dtype(history["day"])
    row = history.iloc[-1]
    assert (row["dr"], row["true_dr"], row["trust_score"], row["confidence"]) == (52, 47, 70, "high")
    assert (row["global_rank"], row["gained_domains"], row["lost_domains"]) == (1500, 12, 3)
    assert bool(row["traffic_validated"]) and bool(row["verified"])


def test_trust_map_days_totals_and_links(store: HistoryStore) -> None:
    for n in (3, 0):
        members = ("a.com", "b.com", "spam-1.net") if n else ("a.com",)
        store.snapshots.record_trust_map(
            ACCOUNT, samples.trust_map(members=members), DAY + timedelta(days=n), "job"
        )
    assert store.queries.trust_map_days(ACCOUNT, "stripe.com") == [DAY, DAY + timedelta(days=3)]
    totals = store.queries.trust_map_totals(ACCOUNT, "stripe.com", since=None)
    assert totals["sampled"].tolist() == [1, 3] and totals["spam_risky"].tolist() == [0, 1]
    links = store.queries.trust_map_links(ACCOUNT, "stripe.com", DAY + timedelta(days=3))
    assert links["referring_domain"].tolist() == ["spam-1.net", "b.com", "a.com"]  # highest DR first


def test_keyword_history_is_by_day_then_site_and_keyword(store: HistoryStore) -> None:
    store.snapshots.record_tracked(ACCOUNT, samples.tracked(), DAY + timedelta(days=1), "job")
    store.snapshots.record_tracked(ACCOUNT, samples.tracked(), DAY, "job")
    store.snapshots.record_keyword_report(ACCOUNT, samples.keyword_report("zebra"), DAY, "job", "example.com")
    every = store.queries.keyword_history(ACCOUNT, None, since=None)
    assert tuple(every.columns) == KEYWORD_COLUMNS
    assert list(zip(every["day"].dt.date, every["site"], every["keyword"], strict=True)) == [
        (DAY, "example-com", "crm software"),
        (DAY, "example-com", "email marketing"),
        (DAY, "example.com", "zebra"),
        (DAY + timedelta(days=1), "example-com", "crm software"),
        (DAY + timedelta(days=1), "example-com", "email marketing"),
    ]
    recent = store.queries.keyword_history(ACCOUNT, "example-com", since=DAY + timedelta(days=1))
    assert recent[["position", "previous_position", "impressions", "search_volume"]].values.tolist() == [
        [7, 8, 100, 9000],
        [15, 16, 200, 9000],
    ]
    first_day = store.queries.keyword_history(ACCOUNT, None, since=DAY, until=DAY)  # a report's period
    assert first_day["day"].dt.date.tolist() == [DAY] * 3


def test_keyword_best_is_each_keywords_best_position_in_all_the_history_and_its_first_day(
    store: HistoryStore,
) -> None:
    positions = [9, 3, 5, 3, None, 8]  # best 3, first reached on day 1, reached again on day 3
    for n, place in enumerate(positions):
        day = DAY + timedelta(days=n)
        store.snapshots.record_tracked(
            ACCOUNT, samples.tracked(positions={"crm software": place, "gone": None}), day, "job"
        )
    store.snapshots.record_tracked(ACCOUNT, samples.tracked("other-com", {"crm software": 1}), DAY, "job")
    best = store.keyword_months.best(ACCOUNT, "example-com")
    assert tuple(best.columns) == KEYWORD_BEST_COLUMNS
    # Only one row: "gone" never ranked; the other site's #1 is not this site's.
    assert best.values.tolist() == [["crm software", 3, DAY + timedelta(days=1)]]
    assert store.keyword_months.best(ACCOUNT, "nobody-com").empty
    assert tuple(store.keyword_months.best(ACCOUNT, "nobody-com").columns) == KEYWORD_BEST_COLUMNS
