"""The sandbox's drifting demo numbers, as pure functions of (domain, day): the same everywhere, the
old numbers on the epoch day, bounded over years, smooth day to day, and a history whose own
differences are the weekly and monthly changes the answers report. Seeding demo history relies on
all of it."""

from __future__ import annotations

import itertools
import json
import statistics
from datetime import date, timedelta

import pytest

from sandbox.clock import EPOCH_DAY, TODAY_ENV, today
from sandbox.data import (
    DEMO_SITES,
    base_profile,
    dr_for,
    is_listed,
    is_map_cold,
    made_up_domain,
    site_profile,
)
from sandbox.demo_history import (
    DEMO_DAYS,
    asking_domain,
    demo_subjects,
    keyword_report_on,
    lookup_on,
    tracked_on,
    trust_map_on,
)
from sandbox.hashing import rng_for
from sandbox.keyword_data import median_and_min, serp, serp_on
from sandbox.tracked import LARGEST_CHECK_MOVE
from tests.unit.fresh_interpreter import printed_json

DEMO = demo_subjects("vdr_demo")
DRIFTED_DAY = date(2025, 9, 17)


def _ordinary_listed(count: int) -> list[str]:
    r = rng_for("test-drift")
    found: list[str] = []
    while len(found) < count:
        name = made_up_domain(r)
        if is_listed(name) and not is_map_cold(name) and name not in found:
            found.append(name)
    return found


def _days(start: date, count: int, every: int = 1) -> list[date]:
    return [start + timedelta(days=i * every) for i in range(count)]


def test_demo_subjects_are_the_keys_sites_listed_competitors_and_watched_keywords() -> None:
    assert DEMO.own_sites == ("example.com", "acme-widgets.com", "northwind-coffee.com")
    assert 3 <= len(DEMO.competitors) <= 4
    assert all(is_listed(d) and not is_map_cold(d) for d in DEMO.competitors)
    tracked = {k.keyword for site in DEMO.own_sites for k in tracked_on("vdr_demo", site, EPOCH_DAY).keywords}
    assert 3 <= len(DEMO.keywords) <= 10 and not tracked & set(DEMO.keywords)  # watched, not tracked
    free = demo_subjects("vdr_free")
    assert free.own_sites == ("tinyblog.net",) and free.keywords == ()  # no keyword research on Free
    assert demo_subjects("not-a-key") == type(DEMO)((), (), ())


def test_a_watched_keywords_report_on_a_day_rates_its_top_10_as_that_day() -> None:
    """The bar (median and lowest DR of the top 10) and the asking site's gap move with the day, and
    on the epoch day they are the report the demo always gave."""
    moved = 0
    for keyword in DEMO.keywords:
        site = asking_domain("vdr_demo", keyword)
        assert site in DEMO.own_sites
        epoch = keyword_report_on(keyword, EPOCH_DAY, site)
        assert epoch.results == list(serp(keyword))  # the top 10 the demo always gave
        assert (epoch.median_dr, epoch.min_dr) == median_and_min(serp(keyword))
        report = keyword_report_on(keyword, DRIFTED_DAY, site)
        rated = [dr_for(row.domain, DRIFTED_DAY) for row in report.results if row.dr is not None]
        assert [row.dr for row in report.results if row.dr is not None] == rated
        assert report.median_dr == statistics.median(rated) and report.min_dr == min(rated)
        assert report.user is not None and report.user.dr == dr_for(site, DRIFTED_DAY)
        assert report.user.gap == round(report.median_dr - report.user.dr, 1)
        moved += report.median_dr != keyword_report_on(keyword, EPOCH_DAY, site).median_dr
    assert moved
    day_top = {k: {r.domain for r in serp_on(k, DRIFTED_DAY)} for k in DEMO.keywords}
    ranked = [k for k in DEMO.keywords if asking_domain("vdr_demo", k) in day_top[k]]
    assert len(ranked) >= 2  # the History page has positions to draw for most of them


def test_the_epoch_day_answers_the_numbers_the_demo_always_showed() -> None:
    """Captured from the sandbox before its numbers could drift: every existing screen keeps them."""
    example = lookup_on("example.com", EPOCH_DAY)
    assert (example.authority.dr, example.authority.true_dr, example.authority.trust_score) == (41, 42, 68)
    assert example.authority.confidence_score == 0.69
    assert (example.evidence.traffic, example.evidence.referring_domains, example.evidence.backlinks) == (
        611,
        501,
        20040,
    )
    assert (example.evidence.global_rank, example.evidence.gained_domains, example.evidence.lost_domains) == (
        93535,
        12,
        1,
    )
    assert (example.changes.dr_weekly_change, example.changes.true_dr_monthly_change) == (0, 3)
    assert example.changes.traffic_change == 89
    semrush = lookup_on("semrush.com", EPOCH_DAY)
    assert (semrush.authority.dr, semrush.evidence.traffic, semrush.evidence.referring_domains) == (
        91,
        129144,
        32838,
    )
    assert (semrush.changes.dr_monthly_change, semrush.changes.traffic_change) == (-2, -11164)
    acme = lookup_on("acme-widgets.com", EPOCH_DAY)
    assert (acme.authority.dr, acme.authority.true_dr, acme.evidence.global_rank) == (27, 13, 660452)

    moz_map = trust_map_on("moz.com", EPOCH_DAY)
    assert (moz_map.total_domains, len(moz_map.domains)) == (21221, 60)
    assert [row.domain for row in moz_map.domains[:3]] == ["yahoo.com", "stackoverflow.com", "facebook.com"]
    assert sum(row.status == "lost" for row in moz_map.domains) == 11

    # Every position as it always was. Two previous positions were independent draws 31 and 33 places
    # deeper (a cliff in the last week of the rank chart); they now sit the largest weekly move deeper.
    tracked = tracked_on("vdr_demo", "example-com", EPOCH_DAY)
    assert [(k.keyword, k.snapshot.user_position, k.snapshot.prev_position) for k in tracked.keywords] == [
        ("privacy friendly analytics", 49, 49 + LARGEST_CHECK_MOVE),
        ("google analytics alternative", 4, 4),
        ("cookieless web analytics", 6, 6),
        ("website visitor tracking", 10, 10),
        ("gdpr compliant analytics", 39, 39 + LARGEST_CHECK_MOVE),
    ]
    assert [k.id for k in tracked.keywords] == [f"tgt_{n}" for n in range(101, 106)]


def test_the_same_domain_and_day_give_the_same_numbers_in_another_process() -> None:
    """A fresh interpreter (another hash seed, the day from the environment) computes identical answers."""
    script = (
        "import json; from sandbox.clock import today; "
        "from sandbox.demo_history import lookup_on, trust_map_on, tracked_on; "
        "d = today(); print(json.dumps([lookup_on('example.com', d).to_json_dict(), "
        "trust_map_on('ahrefs.com', d).to_json_dict(), "
        "tracked_on('vdr_demo', 'acme-widgets-com', d).to_json_dict()]))"
    )
    shown = printed_json(script, DRIFTED_DAY)
    here = [
        lookup_on("example.com", DRIFTED_DAY).to_json_dict(),
        trust_map_on("ahrefs.com", DRIFTED_DAY).to_json_dict(),
        tracked_on("vdr_demo", "acme-widgets-com", DRIFTED_DAY).to_json_dict(),
    ]
    assert shown == json.loads(json.dumps(here))
    assert here[0] != lookup_on("example.com", EPOCH_DAY).to_json_dict()  # the day did move the numbers


def test_the_day_comes_from_the_environment_and_a_bad_one_says_so() -> None:
    assert today({TODAY_ENV: "2025-03-01"}) == date(2025, 3, 1)
    with pytest.raises(ValueError, match="YYYY-MM-DD"):
        today({TODAY_ENV: "next tuesday"})


def test_drift_stays_bounded_over_three_years() -> None:
    """Periodic moves, never a runaway trend: ratings within a few points, traffic within about a fifth."""
    for domain in [*DEMO.domains, *_ordinary_listed(25)]:
        base = base_profile(domain)
        # An own site climbs by its yearly climb (and wanders a few points besides).
        worst_dr = DEMO_SITES[domain].climb + 3 if domain in DEMO_SITES else 7
        for day in _days(EPOCH_DAY - timedelta(days=200), 1100 // 5, every=5):
            p = site_profile(domain, day)  # every number /lookup answers with that day
            assert 0 <= p.dr <= 100 and 0 <= p.true_dr <= 100 and 0 <= p.trust_score <= 100
            assert abs(p.dr - base.dr) <= worst_dr, (domain, day)
            if base.traffic and p.traffic is not None:
                # Traffic follows the rating a little: an own site that climbs further gains more.
                reach = 0.2 + 0.015 * DEMO_SITES[domain].climb if domain in DEMO_SITES else 0.3
                assert 1 - reach <= p.traffic / base.traffic <= 1 + reach, (domain, day)
            assert 0.05 <= p.confidence_score <= 0.99
            if base.referring_domains >= 60:
                assert abs(p.referring_domains / base.referring_domains - 1) <= 0.15
            else:
                assert 10 <= p.referring_domains <= base.referring_domains * 2 + 10


def test_ratings_move_at_most_three_points_from_one_day_to_the_next() -> None:
    members = [row.domain for row in trust_map_on("example.com", EPOCH_DAY).domains[:20]]
    for domain in [*DEMO.domains, *members, *_ordinary_listed(10)]:
        series = [dr_for(domain, day) for day in _days(EPOCH_DAY - timedelta(days=300), 500)]
        assert max(abs(a - b) for a, b in itertools.pairwise(series)) <= 3, domain


def test_weekly_and_monthly_changes_are_the_historys_own_differences() -> None:
    for domain in DEMO.domains:
        for day in [*_days(EPOCH_DAY - timedelta(days=60), 40, every=3), EPOCH_DAY]:
            now = lookup_on(domain, day)
            week = lookup_on(domain, day - timedelta(days=7))
            month = lookup_on(domain, day - timedelta(days=30))
            assert now.changes.dr_weekly_change == now.authority.dr - week.authority.dr, (domain, day)
            assert now.changes.true_dr_weekly_change == now.authority.true_dr - week.authority.true_dr
            assert now.changes.dr_monthly_change == now.authority.dr - month.authority.dr, (domain, day)
            assert now.changes.true_dr_monthly_change == now.authority.true_dr - month.authority.true_dr
            if now.evidence.traffic is not None:
                assert now.changes.traffic_change == now.evidence.traffic - month.evidence.traffic


def test_own_sites_climb_over_the_demo_history_while_competitors_wander() -> None:
    start = EPOCH_DAY - timedelta(days=DEMO_DAYS - 1)
    for site in DEMO.own_sites:
        climb = DEMO_SITES[site].climb / 7  # a site that earns links faster climbs further
        assert 3 * climb <= dr_for(site, EPOCH_DAY) - dr_for(site, start) <= 6 * climb, site
    for rival in DEMO.competitors:
        series = [dr_for(rival, day) for day in _days(start, DEMO_DAYS)]
        assert max(series) - min(series) <= 4 and abs(series[-1] - series[0]) <= 3, rival


def test_the_trust_map_loses_and_gains_members_and_links_over_ninety_days() -> None:
    first, last = EPOCH_DAY + timedelta(days=100), EPOCH_DAY + timedelta(days=190)
    gone = appeared = went_lost = 0
    for domain in DEMO.domains:
        before, after = trust_map_on(domain, first), trust_map_on(domain, last)
        old = {row.domain: row for row in before.domains}
        new = {row.domain: row for row in after.domains}
        gone += len(old.keys() - new.keys())
        appeared += len(new.keys() - old.keys())
        went_lost += sum(
            1 for d in old.keys() & new.keys() if old[d].status == "live" and new[d].status == "lost"
        )
        for tmap, day in ((before, first), (after, last)):
            assert len(tmap.domains) == min(tmap.total_domains or 0, 60)
            assert tmap.total_domains == lookup_on(domain, day).evidence.referring_domains
            assert all(row.dr == dr_for(row.domain, day) for row in tmap.domains)  # what /dr says that day
        assert len(old.keys() ^ new.keys()) <= 40, domain  # a handful a month, not a new map
    assert gone >= 7 and appeared >= 7 and went_lost >= 3


def test_new_spam_risky_referring_domains_turn_up_now_and_then() -> None:
    epoch_names = {d: {row.domain for row in trust_map_on(d, EPOCH_DAY).domains} for d in DEMO.domains}
    newcomers = {
        (domain, row.domain)
        for domain in DEMO.domains
        for day in _days(EPOCH_DAY, 12, every=30)
        for row in trust_map_on(domain, day).domains
        if row.domain not in epoch_names[domain] and (row.spam_score or 0) >= 50
    }
    assert newcomers


def test_each_tracked_check_remembers_the_position_of_the_check_before() -> None:
    for site in DEMO.own_sites:
        for day in _days(EPOCH_DAY - timedelta(days=120), 30, every=4):
            now = tracked_on("vdr_demo", site, day)
            week_ago = tracked_on("vdr_demo", site, day - timedelta(days=7))
            for keyword, earlier in zip(now.keywords, week_ago.keywords, strict=True):
                assert keyword.snapshot.prev_position == earlier.snapshot.user_position, (site, day)
                assert keyword.snapshot.user_dr == dr_for(site, day)
                assert keyword.last_checked_at is not None
                assert 0 <= (day - keyword.last_checked_at.date()).days < 7  # checked weekly


def test_tracked_positions_move_a_few_places_a_week_even_into_the_epoch() -> None:
    """The rank chart has no cliff: from the first demo day, across the epoch and on, each weekly check
    moves a keyword at most a few places (ranked or not is a change the chart shows as a gap)."""
    first = EPOCH_DAY - timedelta(days=DEMO_DAYS - 1)
    for key in ("vdr_demo", "vdr_free"):
        for site in demo_subjects(key).own_sites:
            by_keyword: dict[str, list[int | None]] = {}
            for day in _days(first, DEMO_DAYS + 60):
                for keyword in tracked_on(key, site, day).keywords:
                    by_keyword.setdefault(keyword.keyword, []).append(keyword.snapshot.user_position)
            for keyword, series in by_keyword.items():
                moves = [abs(a - b) for a, b in itertools.pairwise(series) if a is not None and b is not None]
                assert max(moves, default=0) <= LARGEST_CHECK_MOVE, (site, keyword, series[-70:-50])
