"""Each alert rule on a constructed history: it fires on the day its condition starts to hold, once, and
not on noise, on a lasting condition, without an earlier snapshot, when switched off or above its
threshold. Histories are recorded through the store's own writes; evaluation reads only the store."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, time
from pathlib import Path

import pandas as pd
import pytest

from services.alerts.evaluate import evaluate_alerts
from store import HistoryStore
from store.audit import AuditEvent
from tests.store.alert_history import (
    OWN,
    RIVAL,
    day,
    lookup,
    record_lookups,
    watch_own,
)
from tests.store.samples import ACCOUNT, OTHER_ACCOUNT, keyword_report, tracked, trust_map_of


@pytest.fixture
def store(tmp_path: Path) -> Iterator[HistoryStore]:
    """Rules are about what is recorded, not the database: SQLite is enough here (state tests do both)."""
    with HistoryStore.open(f"sqlite:///{tmp_path / 'rules.sqlite3'}") as opened:
        yield opened


def evaluate(store: HistoryStore, last: int, days: int, account: str = ACCOUNT) -> pd.DataFrame:
    """Evaluate ``days`` days ending ``day(last)``; every alert of the account, oldest first."""
    evaluate_alerts(store, account, as_of=day(last), days=days)
    return store.alerts.entries(account, state="all").iloc[::-1].reset_index(drop=True)


def fired(frame: pd.DataFrame, rule: str) -> list[tuple[object, ...]]:
    rows = frame[frame["rule"] == rule]
    return [(r.day.date(), r.subject, r.title, r.before, r.after) for r in rows.itertuples()]


# --- domains ---------------------------------------------------------------------------------------


def test_a_dr_drop_over_a_week_fires_once_on_the_day_it_happens_and_not_on_wiggles(
    store: HistoryStore,
) -> None:
    watch_own(store, ACCOUNT, RIVAL)
    own = [50, 51, 50, 50, 51, 50, 51, 50, 50, 50, 47, 47, 47, 47, 47, 47]  # day 10: 3 below day 3
    rival = [60, 59, 60, 61, 60, 59, 60, 61, 60, 59, 60, 61, 60, 59, 60, 61]  # a 1-2 point wiggle
    record_lookups(store, ACCOUNT, [lookup(OWN, dr=dr, true_dr=40) for dr in own])
    record_lookups(store, ACCOUNT, [lookup(RIVAL, dr=dr, true_dr=40) for dr in rival])

    alerts = evaluate(store, 15, 16)
    assert fired(alerts, "authority_drop") == [
        (day(10), OWN, "example.com: DR fell 3 points in 7 days (50 → 47)", "50", "47")
    ]
    assert alerts.loc[0, "chart"] == "domain" and alerts.loc[0, "chart_subject"] == OWN


def test_a_truedr_drop_is_its_own_alert_and_a_gap_in_the_days_is_bridged(store: HistoryStore) -> None:
    watch_own(store, ACCOUNT)
    # Days 0-4 recorded, days 5-9 missed by the job, then 10-12: day 12 compares with day 4 (8 days).
    answers = {n: lookup(OWN, dr=50, true_dr=45) for n in range(5)}
    answers |= {10: lookup(OWN, dr=50, true_dr=44), 11: lookup(OWN, dr=50, true_dr=44)}
    answers |= {12: lookup(OWN, dr=50, true_dr=42)}
    store.snapshots.seed(ACCOUNT, lookups=[(day(n), a) for n, a in answers.items()], source="job")
    assert fired(evaluate(store, 12, 13), "authority_drop") == [
        (day(12), OWN, "example.com: TrueDR fell 3 points in 8 days (45 → 42)", "45", "42")
    ]


def test_nothing_fires_without_an_earlier_snapshot_to_compare_to(store: HistoryStore) -> None:
    watch_own(store, ACCOUNT)
    store.snapshots.record_lookup(
        ACCOUNT, lookup(OWN, dr=10, validated=False, verified=False, referring=1), day(0), "job"
    )
    assert evaluate_alerts(store, ACCOUNT, as_of=day(0)).new == 0
    assert store.alerts.entries(ACCOUNT, state="all").empty


def test_lost_traffic_validation_and_verification_fire_when_they_go_and_only_then(
    store: HistoryStore,
) -> None:
    watch_own(store, ACCOUNT, RIVAL)
    flags = [(True, True), (True, True), (False, True), (False, False), (False, False), (None, None)]
    record_lookups(store, ACCOUNT, [lookup(OWN, validated=v, verified=w) for v, w in flags])
    # The rival was never validated: nothing to lose.
    record_lookups(store, ACCOUNT, [lookup(RIVAL, validated=False, verified=None) for _ in flags])
    alerts = evaluate(store, 5, 6)
    assert fired(alerts, "traffic_validation_lost") == [
        (
            day(2),
            OWN,
            "example.com: traffic is no longer validated (it was on 4 Mar 2025)",
            "validated",
            "not validated",
        )
    ]
    assert fired(alerts, "verification_lost") == [
        (day(3), OWN, "example.com: no longer verified (it was on 5 Mar 2025)", "verified", "not verified")
    ]


def test_referring_domains_falling_five_percent_in_a_week_fires_once(store: HistoryStore) -> None:
    watch_own(store, ACCOUNT, RIVAL)
    own = [1000] * 8 + [940, 930, 930]  # day 8: 6 % below day 1; then it stays down
    rival = [1000, 990, 980, 970, 990, 1000, 985, 970, 960, 965, 975]  # at most 4 % a week
    record_lookups(store, ACCOUNT, [lookup(OWN, referring=n) for n in own])
    record_lookups(store, ACCOUNT, [lookup(RIVAL, referring=n) for n in rival])
    assert fired(evaluate(store, 10, 11), "referring_domains_fell") == [
        (day(8), OWN, "example.com: referring domains fell 6% in 7 days (1,000 → 940)", "1,000", "940")
    ]


# --- keywords --------------------------------------------------------------------------------------


def test_keywords_leaving_the_top_10_and_moving_fire_once_each_and_not_on_small_moves(
    store: HistoryStore,
) -> None:
    watch_own(store, ACCOUNT)
    days = [
        {"crm tools": 7, "crm software": 20, "sales crm": 30, "crm api": None},
        {"crm tools": 14, "crm software": 14, "sales crm": 33, "crm api": 4},  # left; rose 6; noise; appeared
        {"crm tools": None, "crm software": 14, "sales crm": 36, "crm api": 4},  # out of the top 10 already
        {"crm tools": 30, "crm software": 20, "sales crm": 39, "crm api": None},  # fell 6; crm api left
    ]
    store.snapshots.seed(
        ACCOUNT, trackeds=[(day(n), tracked(positions=p)) for n, p in enumerate(days)], source="job"
    )
    alerts = evaluate(store, 3, 4)
    assert fired(alerts, "keyword_left_top10") == [
        (day(1), "crm tools", "“crm tools” for example.com left the top 10 (#7 → #14)", "#7", "#14"),
        (
            day(3),
            "crm api",
            "“crm api” for example.com left the top 10 (#4 → not ranking)",
            "#4",
            "not ranking",
        ),
    ]
    assert fired(alerts, "keyword_moved") == [
        (day(1), "crm software", "“crm software” for example.com rose 6 positions (#20 → #14)", "#20", "#14"),
        (day(3), "crm software", "“crm software” for example.com fell 6 positions (#14 → #20)", "#14", "#20"),
    ]
    assert (
        set(alerts["chart"]) == {"keyword"} and alerts["chart_subject"].tolist() == alerts["subject"].tolist()
    )


def test_a_watched_keyword_whose_report_had_the_site_in_the_top_10_fires_when_it_drops_out(
    store: HistoryStore,
) -> None:
    store.watchlist.watch(ACCOUNT, "keyword", "cookie free analytics", site="example.com")
    positions = [3, 4, None, None, 9]
    store.snapshots.seed(
        ACCOUNT,
        keyword_reports=[
            (day(n), keyword_report("cookie free analytics", position=p), "example.com")
            for n, p in enumerate(positions)
        ],
        source="job",
    )
    assert fired(evaluate(store, 4, 5), "keyword_left_top10") == [
        (
            day(2),
            "cookie free analytics",
            "“cookie free analytics” for example.com left the top 10 (#4 → not ranking)",
            "#4",
            "not ranking",
        )
    ]


def test_a_keyword_newly_watched_during_the_week_is_no_fall_of_visibility_and_a_real_fall_is(
    store: HistoryStore,
) -> None:
    # "crm software" at #1 for two weeks; "crm tools", where the site does not rank, watched from day 10
    # on: the day's visibility halves, but the site lost nothing. On day 12 it drops to #10 in the first.
    store.watchlist.watch(ACCOUNT, "domain", "example.com", origin="own")
    for keyword in ("crm software", "crm tools"):
        store.watchlist.watch(ACCOUNT, "keyword", keyword, site="example.com")
    places = [1] * 12 + [10, 10]
    first = [(day(n), keyword_report("crm software", position=p), OWN) for n, p in enumerate(places)]
    second = [(day(n), keyword_report("crm tools", position=None), "example.com") for n in range(10, 14)]
    store.snapshots.seed(ACCOUNT, keyword_reports=first + second, source="job")
    falls = fired(evaluate(store, 13, 14), "visibility_fell")
    assert [(when, before, after) for when, _subject, _title, before, after in falls] == [
        (day(12), "100.0%", "6.7%")
    ]


# --- Trust Maps and partners -----------------------------------------------------------------------


def test_a_new_spam_risky_referring_domain_of_an_own_site_fires_once_ever(store: HistoryStore) -> None:
    watch_own(store, ACCOUNT, RIVAL)
    clean = (40, "dofollow", "live", 5.0)
    week0 = {
        "a.com": clean,
        "spam-old.biz": (10, "nofollow", "live", 70.0),
        "b.com": (30, "dofollow", "live", 30.0),
    }
    week1 = {**week0, "spam-new.biz": (12, "nofollow", "live", 64.0), "b.com": (30, "dofollow", "live", 55.0)}
    week2 = {**week1, "c.com": (20, "dofollow", "live", 49.0)}  # below 50: not spam-risky
    week3 = {name: link for name, link in week2.items() if name != "spam-new.biz"}  # out of the sample
    maps = [(day(0), week0), (day(7), week1), (day(14), week2), (day(21), week3), (day(28), week2)]
    store.snapshots.seed(
        ACCOUNT, trust_maps=[(d, trust_map_of(OWN, links)) for d, links in maps], source="job"
    )
    # Spam pointing at a competitor asks nothing of the team: its map is not alerted on.
    store.snapshots.seed(
        ACCOUNT, trust_maps=[(d, trust_map_of(RIVAL, {})) for d, _ in maps[:1]], source="job"
    )
    store.snapshots.seed(
        ACCOUNT, trust_maps=[(day(7), trust_map_of(RIVAL, {"spam-x.biz": (5, "nofollow", "live", 90.0)}))]
    )
    alerts = evaluate(store, 28, 29)  # spam-new.biz back in the sample on day 28 is not news again
    assert fired(alerts, "spam_risky_link") == [
        (
            day(7),
            OWN,
            "example.com: new spam-risky link from b.com (spam score 55)",
            "spam score 30",
            "spam score 55",
        ),
        (
            day(7),
            OWN,
            "example.com: new spam-risky link from spam-new.biz (spam score 64)",
            "not in the sample",
            "spam score 64",
        ),
    ]
    assert set(alerts["chart"]) == {"trust_map"}


def test_a_strong_dofollow_link_going_from_live_to_lost_fires_once(store: HistoryStore) -> None:
    watch_own(store, ACCOUNT)
    week0 = {
        "big.com": (70, "dofollow", "live", 1.0),
        "small.com": (30, "dofollow", "live", 1.0),
        "nofollow.com": (80, "nofollow", "live", 1.0),
        "gone.com": (90, "dofollow", "live", 1.0),
    }
    lost = {
        name: (dr, kind, "lost", spam)
        for name, (dr, kind, _status, spam) in week0.items()
        if name != "gone.com"
    }
    maps = [(day(0), week0), (day(7), lost), (day(14), lost)]
    store.snapshots.seed(
        ACCOUNT, trust_maps=[(d, trust_map_of(OWN, links)) for d, links in maps], source="job"
    )
    assert fired(evaluate(store, 14, 15), "strong_link_lost") == [
        (day(7), OWN, "example.com lost a dofollow link from big.com (DR 70)", "live", "lost")
    ]


def _proposal(account: str, target: str, on: int, outcome: str = "sent", source: str = OWN) -> AuditEvent:
    return AuditEvent(
        person="ann@acme.com",
        role="editor",
        account=account,
        operation="approve_exchange",
        target=target,
        outcome=outcome,  # type: ignore[arg-type]
        detail=f"Subject: Swap links?, from {source}",
        at=datetime.combine(day(on), time(9), tzinfo=UTC),
    )


def test_a_partner_that_linked_after_the_proposal_and_stopped_fires_once(store: HistoryStore) -> None:
    watch_own(store, ACCOUNT)
    store.audit.record(_proposal(ACCOUNT, "partner-io", on=1))  # the app may name the partner by its site id
    store.audit.record(_proposal(ACCOUNT, "refused.org", on=1, outcome="refused_by_service"))
    store.audit.record(_proposal(OTHER_ACCOUNT, "other.net", on=1))
    store.audit.record(_proposal(ACCOUNT, "late.com", on=10))  # proposed after its link was already lost
    live = (35, "dofollow", "live", 2.0)
    maps = [
        (day(0), {"a.com": live}),
        (
            day(7),
            {"a.com": live, "partner.io": live, "refused.org": live, "other.net": live, "late.com": live},
        ),
        (day(14), {"a.com": live, "late.com": (35, "dofollow", "lost", 2.0)}),
        (day(21), {"a.com": live}),
    ]
    store.snapshots.seed(
        ACCOUNT, trust_maps=[(d, trust_map_of(OWN, links)) for d, links in maps], source="job"
    )
    alerts = evaluate(store, 21, 22)
    assert fired(alerts, "partner_stopped_linking") == [
        (
            day(14),
            "partner.io",
            "partner.io no longer links to example.com (exchange proposed on 4 Mar 2025)",
            "live",
            "gone from the Trust Map",
        )
    ]
    assert alerts.loc[alerts["rule"] == "partner_stopped_linking", "chart_subject"].tolist() == [OWN]


# --- settings and idempotency ----------------------------------------------------------------------


def _drop_history(store: HistoryStore) -> None:
    watch_own(store, ACCOUNT)
    record_lookups(store, ACCOUNT, [lookup(OWN, dr=dr) for dr in [50] * 7 + [47, 47]])


def test_evaluating_the_same_days_again_records_nothing_new(store: HistoryStore) -> None:
    _drop_history(store)
    first = evaluate_alerts(store, ACCOUNT, as_of=day(8), days=9)
    assert (first.new, first.known, first.by_rule) == (1, 0, {"authority_drop": 1})
    again = evaluate_alerts(store, ACCOUNT, as_of=day(8), days=9)
    assert (again.new, again.known, again.by_rule) == (0, 1, {})
    # The default day is the latest snapshot day; the alert is about day 7, so day 8 alone finds nothing.
    assert evaluate_alerts(store, ACCOUNT).new == 0
    assert len(store.alerts.entries(ACCOUNT, state="all")) == 1


def test_a_disabled_rule_does_not_fire_and_a_threshold_decides(store: HistoryStore) -> None:
    _drop_history(store)
    store.alerts.set_alert_setting(
        ACCOUNT, "authority_drop", threshold=2, enabled=False, person="ann@acme.com"
    )
    assert evaluate_alerts(store, ACCOUNT, as_of=day(8), days=9).new == 0
    store.alerts.set_alert_setting(
        ACCOUNT, "authority_drop", threshold=4, enabled=True, person="ann@acme.com"
    )
    assert evaluate_alerts(store, ACCOUNT, as_of=day(8), days=9).new == 0
    store.alerts.set_alert_setting(
        ACCOUNT, "authority_drop", threshold=3, enabled=True, person="ann@acme.com"
    )
    assert evaluate_alerts(store, ACCOUNT, as_of=day(8), days=9).by_rule == {"authority_drop": 1}


def test_one_accounts_history_never_makes_another_accounts_alerts(store: HistoryStore) -> None:
    _drop_history(store)
    assert evaluate_alerts(store, OTHER_ACCOUNT, as_of=day(8), days=9).new == 0
    assert evaluate_alerts(store, ACCOUNT, as_of=day(8), days=9).new == 1
    assert store.alerts.entries(OTHER_ACCOUNT, state="all").empty
