"""A keyword's top 10 drifting with the day, as a pure function of (keyword, day): the epoch's top 10
on the epoch day, a valid list every day, challengers entering for stints of days to weeks in place of
rows no demo key owns, neighbours trading places for a while, and reports and tracked snapshots that
agree with the day's rows."""

from __future__ import annotations

import itertools
import json
import statistics
from datetime import UTC, date, datetime, timedelta

from client.models import SerpResult
from sandbox.clock import EPOCH_DAY
from sandbox.data import DEMO_SITES, dr_for
from sandbox.demo_history import COMPETITORS, DEMO_DAYS, WATCHED_KEYWORDS, keyword_report_on
from sandbox.keyword_data import (
    CHALLENGERS,
    FOLLOWED_AT_ONCE,
    challengers,
    followed_competitors,
    head_leaders,
    keyword_report,
    median_and_min,
    open_places,
    serp,
    serp_on,
    snapshot,
)
from sandbox.serp_drift import ENTRIES, SWAPS
from sandbox.tracked import SEED_KEYWORDS
from tests.sandbox_picks import keyword_with_unknown_dr
from tests.unit.fresh_interpreter import printed_json

WATCHED = WATCHED_KEYWORDS["vdr_demo"]
TRACKED = tuple(keyword for keywords in SEED_KEYWORDS.values() for keyword in keywords)
MANY = tuple(f"serp drift probe {i}" for i in range(40))
#: Last days of the 180-day windows looked at: the epoch (a history seeded up to it), the days the
#: suite's runs have pinned, and one far ahead.
LAST_DAYS = (EPOCH_DAY, date(2025, 9, 17), date(2026, 11, 26), date(2027, 3, 15), date(2029, 6, 1))
DRIFTED_DAY = date(2026, 12, 9)


def _window(last: date, days: int = DEMO_DAYS) -> list[date]:
    return [last - timedelta(days=back) for back in range(days - 1, -1, -1)]


def _lists(keyword: str, days: list[date]) -> list[list[SerpResult]]:
    return [serp_on(keyword, day) for day in days]


def _runs(flags: list[bool]) -> list[int]:
    """Lengths of the runs of True that start and end inside the list (not cut by its ends)."""
    runs: list[int] = []
    start: int | None = None
    for i, flag in enumerate(flags):
        if flag and start is None:
            start = i
        elif not flag and start is not None:
            if start > 0:
                runs.append(i - start)
            start = None
    return runs


def test_the_epoch_days_top_10_is_the_one_the_demo_always_gave() -> None:
    for keyword in (*WATCHED, *TRACKED, *MANY, "Cold Brew Coffee"):
        assert serp_on(keyword, EPOCH_DAY) == list(serp(keyword)), keyword


def test_every_day_has_positions_1_to_10_once_each_held_by_10_distinct_domains() -> None:
    for keyword in (*WATCHED, *MANY[:10]):
        epoch = {row.domain: row for row in serp(keyword)}
        outsiders = (*challengers(keyword), *head_leaders(keyword), *followed_competitors(keyword))
        rivals = {row.domain: row for row in outsiders}
        for day in _window(DRIFTED_DAY, 365):
            rows = serp_on(keyword, day)
            assert [row.position for row in rows] == list(range(1, 11)), (keyword, day)
            assert len({row.domain for row in rows}) == 10, (keyword, day)
            for row in rows:  # every row is the epoch's (or an outsider's competing for it), moved, re-rated
                made = epoch.get(row.domain) or rivals[row.domain]
                assert row.url == made.url and row.title == made.title
                assert row.tracked_slug == made.tracked_slug


def test_challengers_are_a_few_outsiders_that_take_only_rows_no_demo_key_owns() -> None:
    for keyword in (*WATCHED, *TRACKED, *MANY):
        epoch = {row.domain for row in serp(keyword)}
        rivals = {row.domain for row in challengers(keyword)}
        assert CHALLENGERS[0] <= len(rivals) <= CHALLENGERS[1] and not rivals & epoch
        assert not rivals & set(DEMO_SITES), keyword
        assert open_places(keyword) and all(4 <= place <= 10 for place in open_places(keyword))
        owned = epoch & set(DEMO_SITES)
        for rows in _lists(keyword, _window(DRIFTED_DAY)):
            assert owned <= {row.domain for row in rows}, keyword  # an owned site never leaves


def test_over_180_days_each_watched_keyword_sees_domains_enter_and_leave_and_positions_move() -> None:
    for last in LAST_DAYS:
        for keyword in WATCHED:
            lists = _lists(keyword, _window(last))
            entered = left = moved = 0
            for before, after in itertools.pairwise(lists):
                was = {row.domain: row.position for row in before}
                now = {row.domain: row.position for row in after}
                entered += len(now.keys() - was.keys())
                left += len(was.keys() - now.keys())
                moved += any(was[d] != now[d] for d in was.keys() & now.keys())
            assert entered >= 4 and left >= 4, (keyword, last, entered, left)  # two stints or more
            assert moved >= 2, (keyword, last, moved)


def test_a_change_holds_for_days_a_challenger_for_a_week_or_more() -> None:
    for keyword in (*WATCHED, *MANY[:10]):
        lists = _lists(keyword, _window(DRIFTED_DAY, 365))
        for rival in (*challengers(keyword), *head_leaders(keyword)):
            stints = list(_runs([any(row.domain == rival.domain for row in rows) for rows in lists]))
            assert all(length >= ENTRIES.span[0] for length in stints), (keyword, rival.domain, stints)
        if followed_competitors(keyword):
            continue  # outsiders in both rows of a swap hide it; the swaps are seen where fewer compete
        home = {row.domain: row.position for row in serp(keyword)}
        swapped = [any(home.get(row.domain, row.position) != row.position for row in rows) for rows in lists]
        assert any(swapped) and all(length >= SWAPS.span[0] for length in _runs(swapped)), keyword


def test_the_competitors_a_demo_key_follows_compete_for_its_sites_keywords_two_at_most() -> None:
    """A keyword about a demo site's topic has the site owner's followed competitors among its outsiders:
    each holds one of its rows for weeks on end and is out of it for a while, never more than
    ``FOLLOWED_AT_ONCE`` of them on a day, never in place of a demo key's site. Other keywords have none."""
    followed = set(COMPETITORS["vdr_demo"])
    assert not any(followed_competitors(keyword) for keyword in MANY)
    for keyword in WATCHED:
        rivals = {row.domain for row in followed_competitors(keyword)}
        if keyword == "website heatmap tool":  # about no demo site's topic
            assert not rivals
            continue
        assert rivals and rivals <= followed, keyword
        epoch = serp(keyword)
        lists = _lists(keyword, _window(DRIFTED_DAY, 365))
        held = [[row for row in rows if row.domain in rivals] for rows in lists]
        assert max(len(rows) for rows in held) == FOLLOWED_AT_ONCE, keyword
        for rival in rivals:  # each ranks on some days and not on others
            present = [any(row.domain == rival for row in rows) for rows in held]
            assert 0.1 < sum(present) / len(present) < 0.95, (keyword, rival)
        owned = {row.domain for row in epoch} & set(DEMO_SITES)
        assert all(owned <= {row.domain for row in rows} for rows in lists), keyword  # never in their place


def test_the_leaders_of_a_head_term_compete_for_several_of_its_keywords() -> None:
    """A market's domains rank for several of its keywords: on some days a head term's leader is in the
    top 10s of two watched keywords at once (never a demo-owned site, never a row of the epoch)."""
    shared: set[str] = set()
    for keyword in WATCHED:
        leaders = {row.domain for row in head_leaders(keyword)}
        assert not leaders & set(DEMO_SITES) and not leaders & {row.domain for row in serp(keyword)}
    for day in _window(DRIFTED_DAY, 90):
        seen: dict[str, int] = {}
        for keyword in WATCHED:
            for row in serp_on(keyword, day):
                seen[row.domain] = seen.get(row.domain, 0) + 1
        shared |= {
            domain
            for domain, count in seen.items()
            if count >= 2 and any(domain in {r.domain for r in head_leaders(k)} for k in WATCHED)
        }
    assert shared


def test_keywords_change_on_different_days_each_only_now_and_then() -> None:
    days = _window(DRIFTED_DAY, 90)
    changed_on: dict[date, int] = dict.fromkeys(days[1:], 0)
    for keyword in MANY:
        lists = _lists(keyword, days)
        changes = 0
        for day, (before, after) in zip(days[1:], itertools.pairwise(lists), strict=True):
            if [r.domain for r in before] != [r.domain for r in after]:
                changed_on[day] += 1
                changes += 1
        assert 1 <= changes <= 20, (keyword, changes)  # about twice a month at most, never daily
    assert sum(1 for n in changed_on.values() if n) >= len(changed_on) * 0.7  # most days, someone
    assert max(changed_on.values()) <= len(MANY) // 3  # never all together


def test_the_same_keyword_and_day_give_the_same_top_10_in_another_process() -> None:
    keywords = [*WATCHED, "Cold Brew Coffee"]
    script = (
        "import json, sys; from sandbox.keyword_data import serp_on; "
        "print(json.dumps([[r.to_json_dict() for r in serp_on(k)] for k in json.loads(sys.argv[1])]))"
    )
    shown = printed_json(script, DRIFTED_DAY, json.dumps(keywords))
    here = [[row.to_json_dict() for row in serp_on(k, DRIFTED_DAY)] for k in keywords]
    assert shown == json.loads(json.dumps(here))
    for day in _window(DRIFTED_DAY, 60):  # the keyword is case-folded
        lower, upper = serp_on("cold brew coffee", day), serp_on("COLD BREW COFFEE", day)
        assert [(r.domain, r.dr) for r in lower] == [(r.domain, r.dr) for r in upper]


def test_an_owned_sites_position_moves_by_one_now_and_then() -> None:
    moves: set[int] = set()
    for keyword in (*WATCHED, *TRACKED):
        epoch = {row.domain: row.position for row in serp(keyword) if row.domain in DEMO_SITES}
        for rows in _lists(keyword, _window(DRIFTED_DAY)):
            moves |= {row.position - epoch[row.domain] for row in rows if row.domain in epoch}
    assert moves == {-1, 0, 1}


def test_an_unresolved_dr_stays_unknown_every_day_never_0() -> None:
    keyword = keyword_with_unknown_dr("unknown dr probe")
    unknown = {row.domain for row in (*serp(keyword), *challengers(keyword)) if row.dr is None}
    seen_unknown = 0
    for day in _window(DRIFTED_DAY):
        for row in serp_on(keyword, day):
            if row.domain in unknown:
                assert row.dr is None, (row.domain, day)
                seen_unknown += 1
            else:
                assert row.dr == dr_for(row.domain, day) and row.dr is not None
    assert seen_unknown


def test_a_report_and_a_tracked_snapshot_of_a_day_share_its_rows_median_and_lowest_dr() -> None:
    for keyword in (*WATCHED, *TRACKED[:6]):
        site = next(iter(DEMO_SITES))
        for day in _window(DRIFTED_DAY, 120)[::7]:
            rows = serp_on(keyword, day)
            report = keyword_report_on(keyword, day, site)
            assert report.results == rows
            known = [row.dr for row in rows if row.dr is not None]
            assert report.median_dr == statistics.median(known) and report.min_dr == min(known)
            assert median_and_min(rows) == (report.median_dr, report.min_dr)
            tracked = snapshot(site, keyword, position=None, previous=None, day=day)
            assert (tracked.median_dr, tracked.min_dr) == (report.median_dr, report.min_dr)
    assert keyword_report("cold brew coffee", None, cached=True, day=EPOCH_DAY).results == list(
        serp("cold brew coffee")
    )


def test_a_report_is_fetched_on_the_day_it_answers_for_and_never_after_now() -> None:
    day = EPOCH_DAY + timedelta(days=300)
    live = keyword_report("web analytics tool", None, cached=False, day=day)
    cached = keyword_report("web analytics tool", None, cached=True, day=day)
    assert live.fetched_at is not None and cached.fetched_at is not None
    assert live.fetched_at.date() == day and cached.fetched_at <= live.fetched_at
    now = datetime.now(UTC)
    today = keyword_report("web analytics tool", None, cached=False, day=now.date())
    assert today.fetched_at is not None and now.date() <= today.fetched_at.date() and today.fetched_at <= now
