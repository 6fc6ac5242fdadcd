"""What one service answer becomes in the history tables: plain row dicts, no database here.

The names are the tables' columns (see ``store.models``). Subjects are stored as the service names
them, lower-cased, so a domain watched as ``Example.com`` and read back as ``example.com`` is one
subject. A link or keyword the service listed twice is kept once (the first), because a day holds
one row per referring domain and per keyword.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from typing import Any

from client.models import KeywordReport, Lookup, TrackedKeywords, TrustMap

#: A referring domain with a spam score at or above this is "spam-risky" (the Coach's threshold too).
SPAM_RISKY_SCORE = 50.0

#: Columns that say what was read (compared to tell "unchanged" from "recorded"); the rest is bookkeeping.
DOMAIN_VALUES = (
    "dr",
    "true_dr",
    "trust_score",
    "confidence",
    "traffic",
    "referring_domains",
    "backlinks",
    "gained_domains",
    "lost_domains",
    "global_rank",
    "traffic_validated",
    "verified",
)
#: A Trust Map snapshot's totals; the digest of its links tells a changed sample from an unchanged one.
TRUST_MAP_TOTALS = ("total_domains", "sampled", "live", "lost", "spam_risky")
TRUST_MAP_VALUES = (*TRUST_MAP_TOTALS, "links_digest")
LINK_VALUES = ("dr", "backlinks", "link_type", "status", "spam_score", "importance")
KEYWORD_VALUES = (
    "position",
    "previous_position",
    "median_dr",
    "min_dr",
    "user_dr",
    "gap",
    "tier",
    "impressions",
    "search_volume",
)


def subject_name(value: str) -> str:
    """A domain or keyword as stored: whitespace folded, lower case."""
    return " ".join(value.split()).lower()


def lookup_values(lookup: Lookup) -> dict[str, Any]:
    authority, evidence = lookup.authority, lookup.evidence
    return {
        "domain": subject_name(lookup.domain),
        "dr": authority.dr,
        "true_dr": authority.true_dr,
        "trust_score": authority.trust_score,
        "confidence": authority.confidence,
        "traffic": evidence.traffic,
        "referring_domains": evidence.referring_domains,
        "backlinks": evidence.backlinks,
        "gained_domains": evidence.gained_domains,
        "lost_domains": evidence.lost_domains,
        "global_rank": evidence.global_rank,
        "traffic_validated": authority.traffic_validated,
        "verified": lookup.verified,
    }


def _is_spam_risky(score: float | None) -> bool:
    return score is not None and score >= SPAM_RISKY_SCORE


def trust_map_links(trust_map: TrustMap) -> list[dict[str, Any]]:
    """The sampled referring domains, each once, in the service's order."""
    links: dict[str, dict[str, Any]] = {}
    for member in trust_map.domains:
        name = subject_name(member.domain)
        if not name or name in links:
            continue
        links[name] = {
            "referring_domain": name,
            "dr": member.dr,
            "backlinks": member.backlinks,
            "link_type": member.link_type,
            "status": member.status,
            "spam_score": member.spam_score,
            "importance": member.importance,
        }
    return list(links.values())


def links_digest(links: Iterable[dict[str, Any]]) -> str:
    """A fingerprint of a link sample, independent of the order the service listed it in."""
    ordered = sorted(
        ([link["referring_domain"], *(link[name] for name in LINK_VALUES)] for link in links),
        key=lambda row: row[0],
    )
    return hashlib.sha256(json.dumps(ordered, separators=(",", ":")).encode()).hexdigest()


def trust_map_values(trust_map: TrustMap, links: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "domain": subject_name(trust_map.site.domain),
        "total_domains": trust_map.total_domains,
        "sampled": len(links),
        "live": sum(1 for link in links if link["status"] == "live"),
        "lost": sum(1 for link in links if link["status"] == "lost"),
        "spam_risky": sum(1 for link in links if _is_spam_risky(link["spam_score"])),
        "links_digest": links_digest(links),
    }


def tracked_values(tracked: TrackedKeywords) -> list[dict[str, Any]]:
    """One row per tracked keyword of the site (``site`` = the site's slug)."""
    site = subject_name(tracked.website.slug)
    rows: dict[str, dict[str, Any]] = {}
    for item in tracked.keywords:
        keyword = subject_name(item.keyword)
        if not keyword or keyword in rows:
            continue
        snap = item.snapshot
        rows[keyword] = {
            "site": site,
            "keyword": keyword,
            "position": snap.user_position if snap else None,
            "previous_position": snap.prev_position if snap else None,
            "median_dr": snap.median_dr if snap else None,
            "min_dr": snap.min_dr if snap else None,
            "user_dr": snap.user_dr if snap else None,
            "gap": snap.gap if snap else None,
            "tier": snap.tier if snap else None,
            "impressions": item.impressions,
            "search_volume": snap.search_volume if snap else None,
        }
    return list(rows.values())


def keyword_report_values(report: KeywordReport) -> dict[str, Any]:
    """A watched keyword's day (``site`` = ""): the bar, and where the asking domain stood, if one asked."""
    user = report.user
    position = None
    if user is not None:
        asking = subject_name(user.domain)
        position = next((r.position for r in report.results if subject_name(r.domain) == asking), None)
    return {
        "site": "",
        "keyword": subject_name(report.keyword),
        "position": position,
        "previous_position": None,
        "median_dr": report.median_dr,
        "min_dr": report.min_dr,
        "user_dr": user.dr if user else None,
        "gap": user.gap if user else None,
        "tier": user.tier if user else None,
        "impressions": None,
        "search_volume": None,
    }
