"""The sandbox's answers on any past day, for seeding an empty history store with demo data.

Pure (no server, no I/O): the same functions the sandbox's routes answer with, called for another day, so
a seeded history ends exactly where today's live answers begin. ``demo_rows`` is the whole seeded history
of a key, as the history store's ``watchlist.watch`` and ``snapshots.seed`` take it. The subjects are a
demo key's own sites (with their tracked keywords), a few well-known competitors (listed, with a warm
Trust Map) and a few keywords the key watches without tracking them (as Keyword research's Watch leaves
them).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Literal

from client.growth_inputs import normalise_slug
from client.inputs import normalise_domain, normalise_keyword
from client.models import KeywordReport, Lookup, TrackedKeywords, TrustMap
from client.settings import DEFAULT_API_BASE
from sandbox.accounts import ACCOUNTS
from sandbox.data import slug_of
from sandbox.keyword_data import keyword_report, serp
from sandbox.resources import lookup, trust_map
from sandbox.tracked import seed_targets, tracked_listing

#: How many days of demo history an empty store is seeded with (ending at the sandbox's day).
DEMO_DAYS = 180
#: Well-known competitors each key's history follows beside its own sites (the account's own list: they
#: compete for its sites' keywords).
COMPETITORS: dict[str, tuple[str, ...]] = {
    key: account.competitors for key, account in ACCOUNTS.items() if account.competitors
}
#: Keywords each key watches (researched, not tracked): none of its sites tracks them. Only keys in the
#: growth program can research keywords, so only they watch any.
WATCHED_KEYWORDS: dict[str, tuple[str, ...]] = {
    "vdr_demo": (
        "cookie free analytics",
        "cold brew coffee",
        "website heatmap tool",
        "privacy analytics",
        "web analytics tool",
        "cookieless tracking",
        "coffee subscription",
        "widget supplier",
        "custom widgets",
    ),
}
#: Demo Trust Maps are seeded once a week (60 referring domains each): churn between any two of them
#: reads like a real history, and seeding stays a matter of seconds.
DEMO_MAP_EVERY_DAYS = 7
#: Where a lookup's public links point by default (the history keeps numbers, not these links).
LINK_ROOT = DEFAULT_API_BASE


@dataclass(frozen=True)
class DemoSubjects:
    """What a key's demo history covers."""

    own_sites: tuple[str, ...]
    competitors: tuple[str, ...]
    keywords: tuple[str, ...]

    @property
    def domains(self) -> tuple[str, ...]:
        return self.own_sites + self.competitors


def demo_subjects(key: str) -> DemoSubjects:
    """The key's own sites, its competitors and its watched keywords (empty for an unknown key)."""
    account = ACCOUNTS.get(key)
    if account is None:
        return DemoSubjects((), (), ())
    return DemoSubjects(account.sites, COMPETITORS.get(key, ()), WATCHED_KEYWORDS.get(key, ()))


def asking_domain(key: str, keyword: str) -> str | None:
    """The domain the key researches a watched keyword for: its own site in the keyword's top 10, else
    its first site (None for a key with no sites)."""
    sites = ACCOUNTS[key].sites if key in ACCOUNTS else ()
    ranking = {row.domain for row in serp(normalise_keyword(keyword))}
    return next((site for site in sites if site in ranking), sites[0] if sites else None)


def lookup_on(domain: str, day: date, base_url: str = LINK_ROOT) -> Lookup:
    """GET /lookup for a listed domain as the sandbox answers it on ``day``.

    A running sandbox points the public links at itself: pass its ``base_url`` for the identical
    answer (every number is the same either way)."""
    return lookup(domain, base_url, day)


def trust_map_on(domain: str, day: date) -> TrustMap:
    """GET /map for a listed domain with a warm map as the sandbox answers it on ``day``."""
    return trust_map(domain, day)


def tracked_on(key: str, slug: str, day: date) -> TrackedKeywords:
    """GET /sites/:slug/keywords of an owned site on ``day``, with its seed keywords and no checks spent.

    ``slug`` may be the site's slug (``example-com``) or its domain.
    """
    account = ACCOUNTS[key]
    site = next((site for site in account.sites if slug in (site, slug_of(site))), None)
    if site is None:
        raise ValueError(f"{slug} is not a site of this key.")
    keywords = [target.as_model(site, day) for target in seed_targets(site)]
    return tracked_listing(site, keywords, 0, account.monthly_checks)


def keyword_report_on(
    keyword: str, day: date, domain: str | None = None, *, cached: bool = True
) -> KeywordReport:
    """GET /keywords?keyword=…&domain=… as the sandbox answers it on ``day`` (a keyword asked before, so
    served from the cache unless ``cached`` is False). Keyword and domain are normalised as the server
    does."""
    user_domain = normalise_domain(domain) if domain else None
    return keyword_report(normalise_keyword(keyword), user_domain, cached=cached, day=day)


@dataclass(frozen=True)
class DemoRows:
    """A key's ``DEMO_DAYS`` of demo history ending at one day: what it watches (kind, subject, origin)
    and each day's answers, made as they are read: daily lookups, tracked keywords and watched-keyword
    reports (as the daily job records them), weekly Trust Maps."""

    #: (kind, subject, origin, site): a watched keyword's site is the domain it is measured for.
    watches: tuple[tuple[Literal["domain", "keyword"], str, Literal["own", "demo"], str], ...]
    lookups: Iterator[tuple[date, Lookup]]
    trust_maps: Iterator[tuple[date, TrustMap]]
    trackeds: Iterator[tuple[date, TrackedKeywords]]
    #: (day, report, the site it was measured for).
    keyword_reports: Iterator[tuple[date, KeywordReport, str]]


def demo_rows(key: str, last_day: date) -> DemoRows:
    """The key's demo history ending ``last_day`` (each iterator can be read once)."""
    subjects = demo_subjects(key)
    days = [last_day - timedelta(days=back) for back in range(DEMO_DAYS - 1, -1, -1)]
    weekly = days[::-DEMO_MAP_EVERY_DAYS][::-1]  # ending last_day
    sites = {keyword: asking_domain(key, keyword) for keyword in subjects.keywords}
    measured = {keyword: site for keyword, site in sites.items() if site is not None}
    return DemoRows(
        watches=(
            *(("domain", domain, "own", "") for domain in subjects.own_sites),
            *(("domain", domain, "demo", "") for domain in subjects.competitors),
            *(("keyword", keyword, "demo", site) for keyword, site in measured.items()),
        ),
        lookups=((day, lookup_on(domain, day)) for domain in subjects.domains for day in days),
        trust_maps=((day, trust_map_on(domain, day)) for domain in subjects.domains for day in weekly),
        trackeds=(
            (day, tracked_on(key, normalise_slug(site), day)) for site in subjects.own_sites for day in days
        ),
        keyword_reports=(
            (day, keyword_report_on(keyword, day, site), site)
            for keyword, site in measured.items()
            for day in days
        ),
    )
