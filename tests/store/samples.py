"""Service answers the store tests record, built from the client's own models (what the service sends)."""

from __future__ import annotations

from collections.abc import Sequence

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

ACCOUNT = "a1b2c3d4e5f60718"
OTHER_ACCOUNT = "ffeeddccbbaa9988"


def lookup(domain: str = "stripe.com", dr: int = 80, traffic: int = 1_000_000) -> Lookup:
    return Lookup(
        domain=domain,
        authority=Authority(dr=dr, true_dr=dr - 5, trust_score=70, confidence="high", traffic_validated=True),
        evidence=Evidence(
            traffic=traffic,
            referring_domains=5000,
            backlinks=90_000,
            gained_domains=12,
            lost_domains=3,
            global_rank=1500,
        ),
        verified=True,
    )


#: A referring domain in a sample Trust Map: name -> (DR, link type, status, spam score).
Link = tuple[int, str, str, float]


def trust_map_of(domain: str, links: dict[str, Link], more: int = 100) -> TrustMap:
    """A Trust Map sampling ``links`` out of ``more`` referring domains beside them."""
    return TrustMap(
        site=MapSite(domain=domain),
        total_domains=len(links) + more,
        domains=[
            ReferringDomain(
                domain=name,
                dr=dr,
                backlinks=10 * (i + 1),
                link_type=kind,
                status=status,
                spam_score=spam,
                importance=0.5,
            )
            for i, (name, (dr, kind, status, spam)) in enumerate(links.items())
        ],
    )


def dofollow_map(domain: str, links: Sequence[tuple[str, str, int, float]], dr: int = 40) -> TrustMap:
    """``domain``'s whole Trust Map (its DR ``dr``): each link (name, status, DR, spam score) dofollow."""
    return TrustMap(
        site=MapSite(domain=domain, dr=dr),
        total_domains=len(links),
        domains=[
            ReferringDomain(domain=name, dr=link_dr, status=status, spam_score=spam, link_type="dofollow")
            for name, status, link_dr, spam in links
        ],
    )


def trust_map(
    domain: str = "stripe.com", members: tuple[str, ...] = ("a.com", "b.com"), lost: str = ""
) -> TrustMap:
    """Dofollow links from ``members`` (live but ``lost``); a member named spam… has a high spam score."""
    return trust_map_of(
        domain,
        {
            name: (
                50 + i,
                "dofollow",
                "lost" if name == lost else "live",
                70.0 if name.startswith("spam") else 5.0,
            )
            for i, name in enumerate(members)
        },
    )


def tracked(slug: str = "example-com", positions: dict[str, int | None] | None = None) -> TrackedKeywords:
    """A site's tracked keywords on a day; a position of None is "checked, not ranking"."""
    positions = positions if positions is not None else {"crm software": 7, "email marketing": 15}
    return TrackedKeywords(
        website=TrackedWebsite(slug=slug, url=f"https://{slug.replace('-', '.')}"),
        keywords=[
            TrackedKeyword(
                id=f"tgt_{i}",
                keyword=keyword,
                impressions=100 * (i + 1),
                snapshot=KeywordSnapshot(
                    median_dr=60.0,
                    min_dr=40.0,
                    user_dr=55,
                    gap=5.0,
                    tier="advanced",
                    search_volume=9000,
                    user_position=position,
                    prev_position=None if position is None else position + 1,
                ),
            )
            for i, (keyword, position) in enumerate(positions.items())
        ],
    )


def keyword_report(
    keyword: str = "crm software", domain: str = "example.com", position: int | None = 4
) -> KeywordReport:
    """A keyword's top 10 with ``domain`` at ``position`` (None: not in it)."""
    results = [SerpResult(position=p, domain=f"site{p}.com", dr=70 - p) for p in range(1, 11)]
    if position is not None:
        results[position - 1] = SerpResult(position=position, domain=domain, dr=55)
    return KeywordReport(
        keyword=keyword,
        results=results,
        median_dr=62.0,
        min_dr=41.0,
        user=KeywordUser(domain=domain, dr=55, gap=7.0, tier="advanced"),
    )
