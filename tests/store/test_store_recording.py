"""Recording: one row per (account, subject, day), a second identical write is "unchanged", the latest
write of the day wins, Trust Map links are replaced whole, and accounts never see each other's rows."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from sqlalchemy import func, select

from client.models import TrustMap
from store import HistoryStore
from store.models import DomainSnapshotRow, KeywordSnapshotRow, TrustMapLinkRow
from store.rows import Unusable
from tests.store import samples
from tests.store.samples import ACCOUNT, OTHER_ACCOUNT

DAY = date(2025, 1, 6)


def _count(store: HistoryStore, model: type) -> int:
    with store.engine.connect() as conn:
        return conn.execute(select(func.count()).select_from(model)).scalar_one()


def test_the_same_lookup_twice_on_a_day_is_one_row_then_unchanged(store: HistoryStore) -> None:
    assert store.snapshots.record_lookup(ACCOUNT, samples.lookup(), DAY, "job") == "recorded"
    assert store.snapshots.record_lookup(ACCOUNT, samples.lookup(), DAY, "browsing") == "unchanged"
    assert _count(store, DomainSnapshotRow) == 1
    assert store.queries.domain_history(ACCOUNT, ["stripe.com"])["source"].tolist() == ["job"]


def test_the_latest_read_of_the_day_wins_and_other_days_are_kept(store: HistoryStore) -> None:
    store.snapshots.record_lookup(ACCOUNT, samples.lookup(dr=80), DAY - timedelta(days=1), "job")
    store.snapshots.record_lookup(ACCOUNT, samples.lookup(dr=80), DAY, "job")
    assert (
        store.snapshots.record_lookup(ACCOUNT, samples.lookup(dr=82, traffic=5), DAY, "browsing")
        == "recorded"
    )
    history = store.queries.domain_history(ACCOUNT, ["stripe.com"])
    assert history["dr"].tolist() == [80, 82]
    assert history["traffic"].tolist() == [1_000_000, 5]
    assert history["source"].tolist() == ["job", "browsing"]
    assert _count(store, DomainSnapshotRow) == 2


def test_a_trust_map_replaces_its_links_for_the_day(store: HistoryStore) -> None:
    first = samples.trust_map(members=("a.com", "b.com", "spam-links.net"))
    assert store.snapshots.record_trust_map(ACCOUNT, first, DAY, "job") == "recorded"
    assert store.snapshots.record_trust_map(ACCOUNT, first, DAY, "job") == "unchanged"
    later = samples.trust_map(members=("b.com", "c.com", "d.com"), lost="b.com")
    assert store.snapshots.record_trust_map(ACCOUNT, later, DAY, "browsing") == "recorded"
    links = store.queries.trust_map_links(ACCOUNT, "stripe.com", DAY)
    assert sorted(links["referring_domain"]) == ["b.com", "c.com", "d.com"]
    assert links.set_index("referring_domain").loc["b.com", "status"] == "lost"
    assert _count(store, TrustMapLinkRow) == 3
    totals = store.queries.trust_map_totals(ACCOUNT, "stripe.com")
    assert totals[["sampled", "live", "lost", "spam_risky"]].values.tolist() == [[3, 2, 1, 0]]


def test_a_changed_link_alone_is_recorded(store: HistoryStore) -> None:
    store.snapshots.record_trust_map(ACCOUNT, samples.trust_map(), DAY, "job")
    changed = samples.trust_map()
    changed.domains[0].dr = 99  # same totals, one link's DR moved
    assert store.snapshots.record_trust_map(ACCOUNT, changed, DAY, "job") == "recorded"
    assert 99 in store.queries.trust_map_links(ACCOUNT, "stripe.com", DAY)["dr"].tolist()


def test_tracked_keywords_and_keyword_reports(store: HistoryStore) -> None:
    assert store.snapshots.record_tracked(ACCOUNT, samples.tracked(), DAY, "job") == "recorded"
    assert store.snapshots.record_tracked(ACCOUNT, samples.tracked(), DAY, "job") == "unchanged"
    moved = samples.tracked(positions={"crm software": 3, "email marketing": 15})
    assert store.snapshots.record_tracked(ACCOUNT, moved, DAY, "browsing") == "recorded"
    report = samples.keyword_report()  # asked for example.com, which is at #4
    assert store.snapshots.record_keyword_report(ACCOUNT, report, DAY, "job", "example.com") == "recorded"
    assert store.snapshots.record_keyword_report(ACCOUNT, report, DAY, "job", "example.com") == "unchanged"
    assert _count(store, KeywordSnapshotRow) == 3
    site = store.queries.keyword_history(ACCOUNT, "example-com")
    assert dict(zip(site["keyword"], site["position"], strict=True)) == {
        "crm software": 3,
        "email marketing": 15,
    }
    watched = store.queries.keyword_history(ACCOUNT, "example.com")
    assert watched[["keyword", "position", "gap", "tier"]].values.tolist() == [
        ["crm software", 4, 7.0, "advanced"]
    ]


def test_a_keyword_report_is_kept_for_the_site_it_measures_and_an_empty_one_is_not_kept(
    store: HistoryStore,
) -> None:
    report = samples.keyword_report()  # asked for example.com
    ranked_elsewhere = report.results[0].domain
    # For another site, its place comes from the top 10; the answer's DR and gap were example.com's.
    assert store.snapshots.record_keyword_report(ACCOUNT, report, DAY, "job", ranked_elsewhere) == "recorded"
    other = store.queries.keyword_history(ACCOUNT, ranked_elsewhere)
    assert other["position"].tolist() == [1]
    assert other["user_dr"].isna().all() and other["gap"].isna().all()
    # A report without a top 10 says where no site stands: nothing is kept ("not ranking" would lie).
    empty = report.model_copy(update={"results": [], "median_dr": None})
    garbled = report.model_copy(deep=True)
    garbled.results[0].domain = "<script>x</script>site1.com"
    for unusable in (empty, garbled):
        with pytest.raises(Unusable):
            store.snapshots.record_keyword_report(ACCOUNT, unusable, DAY, "job", "example.com")
    assert store.queries.keyword_history(ACCOUNT, "example.com").empty


def test_a_trust_map_keeps_its_usable_referring_domains_and_counts_the_others(store: HistoryStore) -> None:
    read = TrustMap.model_validate(
        {
            "site": {"domain": "stripe.com"},
            "totalDomains": 40,
            "domains": [
                {"domain": "a.com", "dr": 50, "linkType": "dofollow", "status": "live"},
                {"domain": "=cmd|' /C calc'!A0", "dr": None, "linkType": "?", "status": "?"},
                {"domain": "b.com", "dr": "lots"},
            ],
        }
    )
    assert store.snapshots.record_trust_map(ACCOUNT, read, DAY, "job") == "recorded"
    assert store.queries.trust_map_links(ACCOUNT, "stripe.com", DAY)["referring_domain"].tolist() == ["a.com"]
    totals = store.queries.trust_map_totals(ACCOUNT, "stripe.com")
    assert totals[["sampled", "live", "skipped"]].values.tolist() == [[1, 1, 2]]
    # A map changed after it was read (a row whose name is no domain name) keeps its usable rows too.
    garbled = samples.trust_map()
    garbled.domains[0].domain = '<img src=x onerror="1">a.com'
    assert store.snapshots.record_trust_map(ACCOUNT, garbled, DAY + timedelta(days=1), "job") == "recorded"
    assert store.queries.trust_map_links(ACCOUNT, "stripe.com", DAY + timedelta(days=1))[
        "referring_domain"
    ].tolist() == ["b.com"]


def test_a_trust_map_none_of_whose_referring_domains_is_usable_is_not_kept(store: HistoryStore) -> None:
    garbled = samples.trust_map()
    for member in garbled.domains:
        member.domain = '<img src=x onerror="1">a.com'
    with pytest.raises(Unusable, match="none of its 2 referring domains could be used"):
        store.snapshots.record_trust_map(ACCOUNT, garbled, DAY, "job")
    assert store.queries.trust_map_days(ACCOUNT, "stripe.com") == []


def test_answers_are_kept_under_what_was_asked_not_what_they_claim(store: HistoryStore) -> None:
    claims_other = samples.lookup(dr=80).model_copy(update={"domain": "<b>evil.example</b>"})
    store.snapshots.record_read(ACCOUNT, "lookup", "stripe.com", claims_other, DAY, "job")
    assert store.queries.domain_history(ACCOUNT, ["stripe.com"])["dr"].tolist() == [80]
    garbled = samples.lookup(dr=80)
    garbled.authority.confidence = "<script>x</script>" * 5
    store.snapshots.record_read(ACCOUNT, "lookup", "moz.com", garbled, DAY, "job")
    assert store.queries.domain_history(ACCOUNT, ["moz.com"])["confidence"].tolist() == [None]


def test_accounts_never_see_each_others_history(store: HistoryStore) -> None:
    store.snapshots.record_lookup(ACCOUNT, samples.lookup(dr=80), DAY, "job")
    store.snapshots.record_trust_map(ACCOUNT, samples.trust_map(), DAY, "job")
    store.snapshots.record_tracked(ACCOUNT, samples.tracked(), DAY, "job")
    # The other account records the same subjects the same day: its own rows, not an update of ours.
    assert store.snapshots.record_lookup(OTHER_ACCOUNT, samples.lookup(dr=80), DAY, "job") == "recorded"
    assert store.queries.domain_history(OTHER_ACCOUNT, ["stripe.com"])["dr"].tolist() == [80]
    assert store.queries.trust_map_days(OTHER_ACCOUNT, "stripe.com") == []
    assert store.queries.keyword_history(OTHER_ACCOUNT, None).empty
    assert store.queries.trust_map_links(OTHER_ACCOUNT, "stripe.com", DAY).empty
    assert store.snapshots.has_rows(ACCOUNT) and store.snapshots.has_rows(OTHER_ACCOUNT)
    assert not store.snapshots.has_rows("0000000000000000")


def test_seeding_many_days_at_once(store: HistoryStore) -> None:
    days = [DAY - timedelta(days=n) for n in range(60)]
    written = store.snapshots.seed(
        ACCOUNT,
        lookups=[(day, samples.lookup(dr=60 + n % 7)) for n, day in enumerate(days)],
        trust_maps=[(day, samples.trust_map()) for day in days[:10]],
        trackeds=[(day, samples.tracked()) for day in days],
    )
    assert written == 60 + 10 + 120
    assert store.snapshots.has_demo_rows(ACCOUNT)
    assert len(store.queries.domain_history(ACCOUNT, ["stripe.com"])) == 60
    assert len(store.queries.trust_map_days(ACCOUNT, "stripe.com")) == 10
    assert len(store.queries.keyword_history(ACCOUNT, "example-com")) == 120
    # Seeding again writes nothing new.
    assert store.snapshots.seed(ACCOUNT, lookups=[(days[0], samples.lookup(dr=60))]) == 0
