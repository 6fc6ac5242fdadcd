"""Constructed histories for the alert rule tests: service answers with exactly the numbers a test wants
(built from the client's own models, as the service sends them), recorded day by day into a store."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, timedelta

from client.models import (
    Authority,
    Evidence,
    KeywordReport,
    KeywordSnapshot,
    KeywordUser,
    Lookup,
    MapSite,
    ReferringDomain,
    SerpResult,
    TrackedKeyword,
    TrackedKeywords,
    TrackedWebsite,
    TrustMap,
)
from store import HistoryStore

D0 = date(2025, 3, 3)
OWN = "example.com"
RIVAL = "rival.com"


def day(n: int) -> date:
    return D0 + timedelta(days=n)


def lookup(
    domain: str = OWN,
    *,
    dr: int = 50,
    true_dr: int = 45,
    referring: int = 1000,
    validated: bool | None = True,
    verified: bool | None = True,
) -> Lookup:
    return Lookup(
        domain=domain,
        authority=Authority(dr=dr, true_dr=true_dr, trust_score=60, traffic_validated=validated),
        evidence=Evidence(traffic=5000, referring_domains=referring, backlinks=20_000),
        verified=verified,
    )


#: name -> (DR, link type, status, spam score)
Link = tuple[int, str, str, float]


def trust_map(domain: str, links: dict[str, Link]) -> TrustMap:
    return TrustMap(
        site=MapSite(domain=domain),
        total_domains=len(links) + 50,
        domains=[
            ReferringDomain(
                domain=name,
                dr=dr,
                backlinks=3,
                link_type=kind,
                status=status,
                spam_score=spam,
                importance=0.5,
            )
            for name, (dr, kind, status, spam) in links.items()
        ],
    )


def tracked(positions: dict[str, int | None], slug: str = "example-com") -> TrackedKeywords:
    """A site's tracked keywords on a day; a position of None is "checked, not ranking"."""
    return TrackedKeywords(
        website=TrackedWebsite(slug=slug, url=f"https://{slug.replace('-', '.')}"),
        keywords=[
            TrackedKeyword(
                id=f"tgt_{i}",
                keyword=keyword,
                snapshot=KeywordSnapshot(
                    median_dr=55.0, min_dr=30.0, user_dr=50, gap=5.0, tier="advanced", user_position=position
                ),
            )
            for i, (keyword, position) in enumerate(positions.items())
        ],
    )


def keyword_report(keyword: str, position: int | None, domain: str = OWN) -> KeywordReport:
    """A watched keyword's top 10 with ``domain`` at ``position`` (None: not in it)."""
    results = [SerpResult(position=p, domain=f"site{p}.com", dr=70 - p) for p in range(1, 11)]
    if position is not None:
        results[position - 1] = SerpResult(position=position, domain=domain, dr=50)
    return KeywordReport(
        keyword=keyword,
        results=results,
        median_dr=60.0,
        min_dr=40.0,
        user=KeywordUser(domain=domain, dr=50, gap=10.0, tier="advanced"),
    )


def watch_own(store: HistoryStore, account: str, *competitors: str) -> None:
    store.watch(account, "domain", OWN, origin="own")
    for domain in competitors:
        store.watch(account, "domain", domain)


def record_lookups(store: HistoryStore, account: str, answers: Sequence[Lookup], start: int = 0) -> None:
    """One lookup a day from ``day(start)`` on."""
    store.seed(account, lookups=[(day(start + n), answer) for n, answer in enumerate(answers)], source="job")
