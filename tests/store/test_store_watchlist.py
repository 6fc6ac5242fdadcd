"""The watchlist: adding is idempotent, subjects are recognised however they are typed, removing works,
own sites come first, and one account never sees another's list."""

from __future__ import annotations

import pytest

from client.errors import InvalidInputError
from store import HistoryStore
from tests.store.samples import ACCOUNT, OTHER_ACCOUNT


def test_watching_twice_keeps_one_item_however_the_domain_is_typed(store: HistoryStore) -> None:
    assert store.watchlist.watch(ACCOUNT, "domain", "Stripe.com") is True
    assert store.watchlist.watch(ACCOUNT, "domain", "https://www.stripe.com/pricing") is False
    assert [(w.kind, w.subject, w.origin) for w in store.watchlist.entries(ACCOUNT)] == [
        ("domain", "stripe.com", "added")
    ]
    assert store.watchlist.is_watched(ACCOUNT, "domain", "STRIPE.COM")


def test_unwatching_removes_only_that_item(store: HistoryStore) -> None:
    store.watchlist.watch(ACCOUNT, "domain", "stripe.com")
    store.watchlist.watch(ACCOUNT, "keyword", "CRM  Software")
    assert store.watchlist.unwatch(ACCOUNT, "keyword", "crm software") is True
    assert store.watchlist.unwatch(ACCOUNT, "keyword", "crm software") is False
    assert store.watchlist.watched_subjects(ACCOUNT) == frozenset({("domain", "stripe.com", "")})
    assert not store.watchlist.is_watched(ACCOUNT, "keyword", "crm software")


def test_own_sites_come_first_then_by_subject(store: HistoryStore) -> None:
    store.watchlist.watch(ACCOUNT, "domain", "zeta.com")
    store.watchlist.watch(ACCOUNT, "keyword", "accounting app")
    store.watchlist.watch(ACCOUNT, "domain", "example.com", origin="own")
    store.watchlist.watch(ACCOUNT, "domain", "alpha.com")
    # A competitor added by hand that turns out to be the account's own site becomes "own".
    store.watchlist.watch(ACCOUNT, "domain", "acme-widgets.com")
    store.watchlist.watch(ACCOUNT, "domain", "acme-widgets.com", origin="own")
    listed = [(w.subject, w.origin) for w in store.watchlist.entries(ACCOUNT)]
    assert listed == [
        ("acme-widgets.com", "own"),
        ("example.com", "own"),
        ("accounting app", "added"),
        ("alpha.com", "added"),
        ("zeta.com", "added"),
    ]
    assert all(w.added_at.tzinfo is not None for w in store.watchlist.entries(ACCOUNT))


def test_accounts_never_see_each_others_watchlist(store: HistoryStore) -> None:
    store.watchlist.watch(ACCOUNT, "domain", "stripe.com")
    store.watchlist.watch(OTHER_ACCOUNT, "domain", "hubspot.com")
    assert store.watchlist.watched_subjects(ACCOUNT) == frozenset({("domain", "stripe.com", "")})
    assert store.watchlist.watched_subjects(OTHER_ACCOUNT) == frozenset({("domain", "hubspot.com", "")})
    assert store.watchlist.unwatch(OTHER_ACCOUNT, "domain", "stripe.com") is False
    assert store.watchlist.is_watched(ACCOUNT, "domain", "stripe.com")


def test_what_is_not_a_domain_or_keyword_is_refused(store: HistoryStore) -> None:
    with pytest.raises(InvalidInputError):
        store.watchlist.watch(ACCOUNT, "domain", "not a domain")
    with pytest.raises(ValueError):
        store.watchlist.watch(ACCOUNT, "page", "example.com")  # type: ignore[arg-type]
    assert store.watchlist.entries(ACCOUNT) == []


def test_a_keyword_is_watched_for_a_site_and_may_be_watched_for_several(store: HistoryStore) -> None:
    assert store.watchlist.watch(
        ACCOUNT, "keyword", "Cold Brew Coffee", site="https://www.Northwind-Coffee.com/shop"
    )
    assert store.watchlist.watch(ACCOUNT, "keyword", "cold brew coffee", site="rival.com")
    assert not store.watchlist.watch(ACCOUNT, "keyword", "cold brew coffee", site="northwind-coffee.com")
    assert [(w.subject, w.site, w.label) for w in store.watchlist.entries(ACCOUNT)] == [
        ("cold brew coffee", "northwind-coffee.com", "“cold brew coffee” for northwind-coffee.com"),
        ("cold brew coffee", "rival.com", "“cold brew coffee” for rival.com"),
    ]
    assert store.watchlist.is_watched(ACCOUNT, "keyword", "cold brew coffee", site="rival.com")
    assert not store.watchlist.is_watched(ACCOUNT, "keyword", "cold brew coffee", site="example.com")
    assert store.watchlist.unwatch(ACCOUNT, "keyword", "cold brew coffee", site="rival.com")
    assert store.watchlist.watched_subjects(ACCOUNT) == frozenset(
        {("keyword", "cold brew coffee", "northwind-coffee.com")}
    )
    store.watchlist.watch(ACCOUNT, "keyword", "cold brew coffee", site="rival.com")
    assert store.watchlist.unwatch(ACCOUNT, "keyword", "cold brew coffee")  # no site: every site
    assert store.watchlist.entries(ACCOUNT) == []
    with pytest.raises(InvalidInputError):
        store.watchlist.watch(ACCOUNT, "keyword", "cold brew coffee", site="not a domain")
