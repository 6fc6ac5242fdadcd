"""Tracked keywords of the owned sites: seeded at start, then changed in memory by the write calls.

Not thread-safe on its own: ``SandboxState`` calls it under its lock. Errors are raised as the
service's answers (409 duplicate, 400 at the per-site limit, 402 when the free allowance is spent,
404 unknown id), checked in that order so a refused write never spends an allowance check.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import datetime, timedelta

from client.models import KeywordSnapshot, TrackedKeyword
from sandbox.accounts import OWNED_SITES, Account
from sandbox.data import SANDBOX_EPOCH
from sandbox.hashing import rng_for
from sandbox.keyword_data import ranked_position, search_console, snapshot
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


@dataclass
class Target:
    """One tracked keyword and its latest stored snapshot."""

    id: str
    keyword: str
    snapshot: KeywordSnapshot
    last_checked_at: datetime
    refreshes: int = 0

    def as_model(self, site: str) -> TrackedKeyword:
        impressions, gsc_position = search_console(site, self.keyword, self.snapshot.user_position)
        return TrackedKeyword(
            id=self.id,
            keyword=self.keyword,
            snapshot=self.snapshot.model_copy(),
            last_checked_at=self.last_checked_at,
            impressions=impressions,
            gsc_position=gsc_position,
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
        self._targets = {site: [] for site in OWNED_SITES}
        self._next_id = FIRST_ID
        self.checks_used.clear()
        for site, keywords in SEED_KEYWORDS.items():
            for keyword in keywords:
                days = rng_for("checked", site, keyword).randint(1, 6)
                self._append(site, keyword, SANDBOX_EPOCH - timedelta(days=days))

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
        previous = target.snapshot.user_position
        position = ranked_position(site, target.keyword, attempt=target.refreshes)
        target.snapshot = snapshot(site, target.keyword, position=position, previous=previous)
        target.last_checked_at = now
        return target

    def remove(self, site: str, target_id: str) -> str:
        target = self._find(site, target_id)
        self._targets[site].remove(target)
        return target.id
