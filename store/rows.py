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

from client.map_rows import plain_domain
from client.models import KeywordReport, Lookup, TrackedKeywords, TrustMap
from schema.history import (
    LINK_VALUES,
    SPAM_RISK_FROM,
)

#: How deep a keyword's kept top 10 goes.
TOP_POSITIONS = 10


def subject_name(value: str) -> str:
    """A domain or keyword as stored: whitespace folded, lower case."""
    return " ".join(value.split()).lower()


class Unusable(Exception):
    """An answer that says nothing true enough to keep (a keyword report without a top 10, a Trust Map
    none of whose referring domains could be used): recording it would invent a "not ranking" or lost
    links. The message says why, in plain words."""


def short_word(value: str | None, length: int = 32) -> str | None:
    """A short label the service names (confidence, link type, status, tier) as stored: kept when it is a
    plain word that fits its column, else None (unknown): a garbled or hostile value is not a label."""
    if value is None:
        return None
    word = subject_name(value)
    if not word or len(word) > length or not all(ch.isalnum() or ch in "-_ " for ch in word):
        return None
    return word


def lookup_values(lookup: Lookup, domain: str | None = None) -> dict[str, Any]:
    """A lookup's row, stored under ``domain`` (the domain asked for) when given: what the answer says
    its domain is never moves the numbers to another subject."""
    authority, evidence = lookup.authority, lookup.evidence
    return {
        "domain": subject_name(domain or lookup.domain),
        "dr": authority.dr,
        "true_dr": authority.true_dr,
        "trust_score": authority.trust_score,
        "confidence": short_word(authority.confidence),
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
    return score is not None and score >= SPAM_RISK_FROM


def skipped_rows(trust_map: TrustMap) -> int:
    """How many of the answer's rows could not be used: those the client named as skipped, and any row
    whose name is not a domain name (a map changed after it was read)."""
    garbled = sum(1 for member in trust_map.domains if not plain_domain(member.domain))
    return len(trust_map.skipped) + garbled


def trust_map_links(trust_map: TrustMap) -> list[dict[str, Any]]:
    """The usable referring domains, each once, in the service's order (a skipped row is left out, and
    counted by ``skipped_rows``); ``Unusable`` when the answer had rows and none could be used."""
    usable = [member for member in trust_map.domains if plain_domain(member.domain)]
    skipped = skipped_rows(trust_map)
    if skipped and not usable:
        raise Unusable(f"none of its {skipped} referring domains could be used")
    links: dict[str, dict[str, Any]] = {}
    for member in usable:
        name = subject_name(member.domain)
        if name in links:
            continue
        links[name] = {
            "referring_domain": name,
            "dr": member.dr,
            "backlinks": member.backlinks,
            "link_type": short_word(member.link_type),
            "status": short_word(member.status),
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


def trust_map_values(
    trust_map: TrustMap, links: list[dict[str, Any]], domain: str | None = None
) -> dict[str, Any]:
    """A Trust Map's totals, stored under ``domain`` (the domain asked for) when given."""
    return {
        "domain": subject_name(domain or trust_map.site.domain),
        "total_domains": trust_map.total_domains,
        "sampled": len(links),
        "live": sum(1 for link in links if link["status"] == "live"),
        "lost": sum(1 for link in links if link["status"] == "lost"),
        "spam_risky": sum(1 for link in links if _is_spam_risky(link["spam_score"])),
        "skipped": skipped_rows(trust_map),
        "links_digest": links_digest(links),
    }


def tracked_values(tracked: TrackedKeywords, slug: str | None = None) -> list[dict[str, Any]]:
    """One row per tracked keyword the service has measured (``site`` = the site's slug: ``slug``, the
    one asked for, when given). A keyword without a measured top 10 (no snapshot, or no median DR) has
    no row: its missing position means "not checked yet", never "not ranking"."""
    site = subject_name(slug or tracked.website.slug)
    rows: dict[str, dict[str, Any]] = {}
    for item in tracked.keywords:
        keyword = subject_name(item.keyword)
        snap = item.snapshot
        if not keyword or keyword in rows or snap is None or snap.median_dr is None:
            continue
        rows[keyword] = {
            "site": site,
            "keyword": keyword,
            "position": snap.user_position,
            "previous_position": snap.prev_position,
            "median_dr": snap.median_dr,
            "min_dr": snap.min_dr,
            "user_dr": snap.user_dr,
            "gap": snap.gap,
            "tier": short_word(snap.tier),
            "impressions": item.impressions,
            "search_volume": snap.search_volume,
        }
    return list(rows.values())


def check_report(report: KeywordReport) -> None:
    """``Unusable`` unless the report says where any site stands: a top 10 of domain names with its
    median DR (without them, a site missing from it would be recorded as "not ranking")."""
    if not report.results:
        raise Unusable("the answer held no top 10")
    if report.median_dr is None:
        raise Unusable("the answer held no median DR of the top 10")
    if not all(plain_domain(result.domain) for result in report.results):
        raise Unusable("some results of its top 10 are not domain names")
    positions = [result.position for result in report.results]
    if len(set(positions)) != len(positions) or min(positions) < 1:
        raise Unusable("its top 10 gives some position twice, or a position below 1")


def keyword_report_values(report: KeywordReport, site: str, keyword: str | None = None) -> dict[str, Any]:
    """A watched keyword's day for ``site`` (the domain it is measured for): the top 10's bar, and the
    site's place in it (None: not in the top 10). The site's DR, gap and tier come from the answer only
    when it was asked for that very site. Stored under ``keyword`` (the one asked for) when given.
    ``Unusable`` for a report that says where no site stands (``check_report``)."""
    check_report(report)
    measured_for = subject_name(site)
    asked_for_site = report.user is not None and subject_name(report.user.domain) == measured_for
    user = report.user if asked_for_site else None
    position = next((r.position for r in report.results if subject_name(r.domain) == measured_for), None)
    return {
        "site": measured_for,
        "keyword": subject_name(keyword or report.keyword),
        "position": position,
        "previous_position": None,
        "median_dr": report.median_dr,
        "min_dr": report.min_dr,
        "user_dr": user.dr if user else None,
        "gap": user.gap if user else None,
        "tier": short_word(user.tier) if user else None,
        "impressions": None,
        "search_volume": None,
    }


def serp_values(report: KeywordReport) -> list[dict[str, Any]]:
    """The report's top 10 as rows (position, domain, DR), by position; positions past 10 are left out.
    A DR the service could not resolve stays None. Call ``check_report`` first."""
    return [
        {"position": result.position, "domain": subject_name(result.domain), "dr": result.dr}
        for result in sorted(report.results, key=lambda result: result.position)
        if result.position <= TOP_POSITIONS
    ]
