"""Service answers the store tests record, built from the client's own models (what the service sends)."""

from __future__ import annotations

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


def trust_map(
    domain: str = "stripe.com", members: tuple[str, ...] = ("a.com", "b.com"), lost: str = ""
) -> TrustMap:
    return TrustMap(
        site=MapSite(domain=domain),
        total_domains=len(members) + 100,
        domains=[
            ReferringDomain(
                domain=name,
                dr=50 + i,
                backlinks=10 * (i + 1),
                link_type="dofollow",
                status="lost" if name == lost else "live",
                spam_score=70.0 if name.startswith("spam") else 5.0,
                importance=0.5,
            )
            for i, name in enumerate(members)
        ],
    )


def tracked(slug: str = "example-com", positions: dict[str, int] | None = None) -> TrackedKeywords:
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
                    prev_position=position + 1,
                ),
            )
            for i, (keyword, position) in enumerate(positions.items())
        ],
    )


def keyword_report(
    keyword: str = "crm software", domain: str = "example.com", position: int = 4
) -> KeywordReport:
    results = [SerpResult(position=p, domain=f"site{p}.com", dr=70 - p) for p in range(1, 11)]
    results[position - 1] = SerpResult(position=position, domain=domain, dr=55)
    return KeywordReport(
        keyword=keyword,
        results=results,
        median_dr=62.0,
        min_dr=41.0,
        user=KeywordUser(domain=domain, dr=55, gap=7.0, tier="advanced"),
    )
