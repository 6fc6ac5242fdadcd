"""Tracked keywords of the owned sites: seeded at start, then changed in memory by the write calls.

A seed keyword is checked once a week on a fixed schedule, and its position moves with the day
(``scheduled_check``): the list on any day shows the latest check's position and the one before it.
A keyword added or re-checked by hand keeps the snapshot of that check.

Not thread-safe on its own: ``SandboxState`` calls it under its lock. Errors are raised as the
service's answers (409 duplicate, 400 at the per-site limit, 402 when the free allowance is spent,
404 unknown id), checked in that order so a refused write never spends an allowance check.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from client.models import KeywordSnapshot, TrackedKeyword, TrackedKeywords, TrackedQuota, TrackedWebsite
from sandbox.accounts import OWNED_SITES, Account
from sandbox.clock import EPOCH_DAY, days_from_epoch, resolve
from sandbox.data import SANDBOX_EPOCH, base_dr, dr_for, slug_of
from sandbox.drift import shift
from sandbox.hashing import rng_for
from sandbox.keyword_data import TOP_N, ranked_position, search_console, snapshot
from sandbox.problems import ApiProblem, bad_request, conflict, not_found

#: Per-site tracked-keyword limit (the value in the vendor's example).
TRACKED_LIMIT = 25
FIRST_ID = 101

SEED_KEYWORDS: dict[str, tuple[str, ...]] = {
    "example.com": (
        "privacy friendly analytics",
        "google analytics alternative",
        "cookieless web analytics",
        "website visitor tracking",
        "gdpr compliant analytics",
    ),
    "acme-widgets.com": (
        "industrial widgets",
        "custom widget manufacturer",
        "buy steel widgets online",
        "widget parts supplier",
    ),
    "northwind-coffee.com": (
        "specialty coffee roaster",
        "single origin coffee beans",
        "coffee subscription uk",
    ),
    "tinyblog.net": (
        "tiny house living tips",
        "minimalist blog ideas",
        "small space organization",
        "declutter checklist",
        "capsule wardrobe for beginners",
        "tiny house cost",
    ),
}
assert set(SEED_KEYWORDS) == set(OWNED_SITES), "every owned site needs seed keywords"


#: Days between two scheduled checks of a seed keyword.
CHECK_EVERY = 7
#: Lowest position the tracker reports; below it a keyword is not ranked.
DEEPEST = 100
#: The most places a keyword moves from one weekly check to the next (the epoch's move included), so
#: a rank chart climbs and falls instead of jumping.
LARGEST_CHECK_MOVE = 6


def _check_lag(site: str, keyword: str) -> int:
    """Days before the epoch of the seed keyword's check the epoch's list shows (1–6)."""
    return rng_for("checked", site, keyword).randint(1, 6)


def _epoch_positions(site: str, keyword: str) -> tuple[int | None, int | None]:
    """The epoch's latest check and the one before: its rank, and the earlier draw moved at most
    ``LARGEST_CHECK_MOVE`` places from it (an independent earlier draw would put a cliff of dozens of
    places into the last week of every rank chart)."""
    position = ranked_position(site, keyword)
    previous = ranked_position(site, keyword, attempt=-1)
    if position is not None and previous is not None and abs(previous - position) > LARGEST_CHECK_MOVE:
        previous = position + (LARGEST_CHECK_MOVE if previous > position else -LARGEST_CHECK_MOVE)
    return position, previous


def _position_at(site: str, keyword: str, check: int, lag: int) -> int | None:
    """The position found by scheduled check number ``check`` (0: the epoch's latest, -1: the one before).

    Checks 0 and -1 give the epoch's position and previous position exactly; later checks move
    around the epoch's position, earlier ones around the previous one, and an owned site's climbing
    rating lifts its positions a little.
    """
    level_check = 0 if check >= 0 else -1
    level = _epoch_positions(site, keyword)[-level_check]
    if check in (0, -1) or level is None:
        return level
    amplitude, step = (1.5, 0.5) if level <= TOP_N else (5.0, 2.0)
    words = ("position", site, keyword.casefold())

    def wave(n: int) -> float:
        t = n * CHECK_EVERY - lag
        return shift(words, t, amplitude, step) - 0.6 * (
            dr_for(site, EPOCH_DAY + timedelta(days=t)) - base_dr(site)
        )

    return max(1, min(DEEPEST, level + round(wave(check) - wave(level_check))))


def scheduled_check(site: str, keyword: str, day: date | None = None) -> tuple[KeywordSnapshot, datetime]:
    """The seed keyword's latest scheduled check on ``day``: its snapshot and when it ran."""
    day = resolve(day)
    lag = _check_lag(site, keyword)
    check = (days_from_epoch(day) + lag) // CHECK_EVERY
    checked_at = SANDBOX_EPOCH + timedelta(days=check * CHECK_EVERY - lag)
    position = _position_at(site, keyword, check, lag)
    previous = _position_at(site, keyword, check - 1, lag)
    return snapshot(site, keyword, position=position, previous=previous, day=day), checked_at


@dataclass
class Target:
    """One tracked keyword and, once checked by hand, the snapshot of that check.

    ``snapshot`` None means the keyword follows the weekly schedule (``scheduled_check``)."""

    id: str
    keyword: str
    snapshot: KeywordSnapshot | None
    last_checked_at: datetime | None
    refreshes: int = 0

    def latest(self, site: str, day: date | None = None) -> tuple[KeywordSnapshot, datetime]:
        if self.snapshot is None or self.last_checked_at is None:
            return scheduled_check(site, self.keyword, day)
        return self.snapshot, self.last_checked_at

    def as_model(self, site: str, day: date | None = None) -> TrackedKeyword:
        shown, checked_at = self.latest(site, day)
        impressions, gsc_position = search_console(site, self.keyword, shown.user_position)
        return TrackedKeyword(
            id=self.id,
            keyword=self.keyword,
            snapshot=shown.model_copy(),
            last_checked_at=checked_at,
            impressions=impressions,
            gsc_position=gsc_position,
        )


def seed_targets(site: str) -> list[Target]:
    """The site's seed keywords as the list starts (ids from ``tgt_101`` across the owned sites)."""
    next_id = FIRST_ID
    for owned, keywords in SEED_KEYWORDS.items():
        if owned == site:
            return [Target(f"tgt_{next_id + i}", keyword, None, None) for i, keyword in enumerate(keywords)]
        next_id += len(keywords)
    return []


def tracked_listing(
    site: str, keywords: list[TrackedKeyword], used: int, monthly_checks: int | None
) -> TrackedKeywords:
    """GET /sites/:slug/keywords: the site's tracked keywords, its limit and the key's checks."""
    return TrackedKeywords(
        website=TrackedWebsite(slug=slug_of(site), url=f"https://{site}"),
        keywords=keywords,
        limit=TRACKED_LIMIT,
        quota=TrackedQuota(used=used, limit=monthly_checks),
    )


class TrackedStore:
    """Targets per owned site plus the monthly checks each key has spent."""

    def __init__(self) -> None:
        self._targets: dict[str, list[Target]] = {}
        self._next_id = FIRST_ID
        self.checks_used: Counter[str] = Counter()
        self.seed()

    def seed(self) -> None:
        """Back to the start: the seed keywords, fresh ids from ``tgt_101``, no checks spent."""
        self._targets = {site: seed_targets(site) for site in OWNED_SITES}
        self._next_id = FIRST_ID + sum(len(targets) for targets in self._targets.values())
        self.checks_used.clear()

    def _append(self, site: str, keyword: str, when: datetime) -> Target:
        position = ranked_position(site, keyword)
        previous = ranked_position(site, keyword, attempt=-1)
        target = Target(
            id=f"tgt_{self._next_id}",
            keyword=keyword,
            snapshot=snapshot(site, keyword, position=position, previous=previous),
            last_checked_at=when,
        )
        self._next_id += 1
        self._targets[site].append(target)
        return target

    def targets(self, site: str) -> list[Target]:
        return list(self._targets.get(site, []))

    def _find(self, site: str, target_id: str) -> Target:
        for target in self._targets.get(site, []):
            if target.id == target_id:
                return target
        raise not_found(f"No tracked keyword with id {target_id} on this site.")

    def _spend_check(self, account: Account) -> None:
        allowance = account.monthly_checks
        if allowance is not None and self.checks_used[account.key] >= allowance:
            raise ApiProblem(
                402,
                f"Monthly keyword check allowance used up ({allowance} of {allowance}). "
                "It renews next month.",
            )
        self.checks_used[account.key] += 1

    def add(self, account: Account, site: str, keyword: str, now: datetime) -> Target:
        self._targets.setdefault(site, [])  # a site submitted while the sandbox runs starts with none
        folded = keyword.casefold()
        if any(t.keyword.casefold() == folded for t in self._targets[site]):
            raise conflict(f"'{keyword}' is already tracked for this site.")
        if len(self._targets[site]) >= TRACKED_LIMIT:
            raise bad_request(f"This site already tracks {TRACKED_LIMIT} keywords, the limit.")
        self._spend_check(account)
        return self._append(site, keyword, now)

    def refresh(self, account: Account, site: str, target_id: str, now: datetime) -> Target:
        target = self._find(site, target_id)
        self._spend_check(account)
        target.refreshes += 1
        previous = target.latest(site)[0].user_position
        position = ranked_position(site, target.keyword, attempt=target.refreshes)
        target.snapshot = snapshot(site, target.keyword, position=position, previous=previous)
        target.last_checked_at = now
        return target

    def remove(self, site: str, target_id: str) -> str:
        target = self._find(site, target_id)
        self._targets[site].remove(target)
        return target.id
