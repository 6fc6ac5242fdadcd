"""The backlink audit: the CLI's trust risk, plus what the Trust Map shows when it is at hand.

The CLI judges risk from the lookup's trust score alone; with the Trust Map the audit also lists the
spam-flagged, lost and nofollow referring domains and reads patterns in them (heuristic findings).
Without a map it falls back to the lookup's public backlinks, as the CLI does.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from analysis.coach.rules.signals import as_int, as_number, join_words, read_signals
from analysis.coach.rules.sources import (
    SRC_BOTTOM_LINKS,
    SRC_MAP_DR,
    SRC_MAP_SPAM,
    SRC_MAP_STATUS,
    SRC_MAP_TYPE,
    SRC_REFERRING,
    SRC_TOP_LINKS,
    SRC_TRUST,
)
from analysis.coach.rules.thresholds import (
    AUDIT_LINKS,
    NOFOLLOW_HEAVY_SHARE,
    RECLAIM_MIN_DR,
    SPAM_FLAG,
    SPAM_PATTERN_SHARE,
)
from analysis.wording import counted
from client.models import Backlink, Evidence, Lookup, ReferringDomain, TrustMap

MapState = Literal["ready", "building", "unavailable", "not_loaded"]


@dataclass(frozen=True)
class LinkRow:
    """A backlink or referring domain as the audit shows it, from the Trust Map or the lookup."""

    domain: str | None
    dr: int | None
    follow: bool | None
    status: str | None = None
    spam_score: float | None = None
    backlinks: int | None = None
    importance: float | None = None
    url: str | None = None
    anchor: str | None = None
    flags: tuple[str, ...] = ()


@dataclass(frozen=True)
class Finding:
    """Something the Trust Map shows that the lookup alone cannot; always a heuristic reading."""

    title: str
    detail: str
    sources: tuple[str, ...]
    heuristic: bool = True


@dataclass(frozen=True)
class BacklinkAudit:
    domain: str
    trust: int | None
    referring_domains: int | None
    #: True when trust is weak, False when healthy, None when the service gave no trust score.
    trust_risk: bool | None
    risk: str
    map_state: MapState
    map_note: str | None
    total_domains: int | None
    mapped: int
    live_follow: int
    spam: tuple[LinkRow, ...]
    lost: tuple[LinkRow, ...]
    nofollow: tuple[LinkRow, ...]
    strongest: tuple[LinkRow, ...]
    weakest: tuple[LinkRow, ...]
    #: "map" when strongest/weakest are Trust Map rows, "lookup" when they are the public backlinks.
    links_from: Literal["map", "lookup"]
    findings: tuple[Finding, ...]
    next_step: str
    sources: tuple[str, ...]

    @property
    def flagged(self) -> tuple[LinkRow, ...]:
        """Every referring domain with at least one flag (spam, lost, nofollow), each once."""
        seen: dict[str | None, LinkRow] = {}
        for row in (*self.spam, *self.lost, *self.nofollow):
            seen.setdefault(row.domain, row)
        return tuple(seen.values())


def is_spam(row: ReferringDomain) -> bool:
    spam = as_number(row.spam_score)
    return spam is not None and spam >= SPAM_FLAG


def is_lost(row: ReferringDomain) -> bool:
    return row.status == "lost"


def is_nofollow(row: ReferringDomain) -> bool:
    return row.link_type == "nofollow"


def is_live_follow(row: ReferringDomain) -> bool:
    """The CLI's count: not nofollow and not lost (unknown type or status counts as live follow)."""
    return not is_nofollow(row) and not is_lost(row)


def _flags(row: ReferringDomain) -> tuple[str, ...]:
    return tuple(
        name
        for name, hit in (("spam", is_spam(row)), ("lost", is_lost(row)), ("nofollow", is_nofollow(row)))
        if hit
    )


def _map_row(row: ReferringDomain) -> LinkRow:
    return LinkRow(
        domain=row.domain,
        dr=as_int(row.dr),
        follow=None if row.link_type is None else not is_nofollow(row),
        status=row.status,
        spam_score=as_number(row.spam_score),
        backlinks=as_int(row.backlinks),
        importance=as_number(row.importance),
        flags=_flags(row),
    )


def _lookup_row(link: Backlink) -> LinkRow:
    return LinkRow(
        domain=link.source_domain or link.url,
        dr=as_int(link.dr),
        follow=link.follow if isinstance(link.follow, bool) else None,
        url=link.url,
        anchor=link.anchor,
        flags=("nofollow",) if link.follow is False else (),
    )


def _by_dr(rows: Iterable[LinkRow], *, strongest: bool) -> tuple[LinkRow, ...]:
    """Known DRs first, strongest or weakest first; unknown DRs are never ranked as 0."""
    known = [r for r in rows if r.dr is not None]
    known.sort(key=lambda r: (-(r.dr or 0) if strongest else (r.dr or 0), r.domain or ""))
    return tuple(known[:AUDIT_LINKS])


def _map_findings(rows: Sequence[ReferringDomain]) -> tuple[Finding, ...]:
    if not rows:
        return ()
    total = len(rows)
    spam = [r for r in rows if is_spam(r)]
    nofollow = [r for r in rows if is_nofollow(r)]
    reclaim = [r for r in rows if is_lost(r) and (as_number(r.dr) or 0) >= RECLAIM_MIN_DR]
    findings: list[Finding] = []
    if spam and len(spam) / total >= SPAM_PATTERN_SHARE:
        findings.append(
            Finding(
                f"Spam is a pattern: {len(spam)} of {total} mapped domains",
                f"{len(spam) / total:.0%} of the mapped referring domains have a spam score of "
                f"{SPAM_FLAG} or more. Review them first; disavow only confirmed, severe spam.",
                (SRC_MAP_SPAM,),
            )
        )
    elif spam:
        findings.append(
            Finding(
                f"A few spam-flagged domains: {len(spam)} of {total}",
                "Isolated spam links rarely matter; check them, but outweighing them with relevant links "
                "is usually enough.",
                (SRC_MAP_SPAM,),
            )
        )
    if reclaim:
        names = join_words([r.domain for r in reclaim[:3]])
        findings.append(
            Finding(
                f"{counted(len(reclaim), 'strong lost link')} worth reclaiming",
                f"Lost links from DR {RECLAIM_MIN_DR}+ domains ({names}) are the cheapest authority to win "
                "back: ask the site to restore the link or point it to a live page.",
                (SRC_MAP_STATUS, SRC_MAP_DR),
            )
        )
    if nofollow and len(nofollow) / total > NOFOLLOW_HEAVY_SHARE:
        findings.append(
            Finding(
                f"Mostly nofollow: {len(nofollow)} of {total} mapped domains",
                "Nofollow links pass little authority; favour partners and directories that link with a "
                "followed link.",
                (SRC_MAP_TYPE,),
            )
        )
    return tuple(findings)


def audit_backlinks(
    lookup: Lookup, trust_map: TrustMap | None = None, *, map_state: MapState | None = None
) -> BacklinkAudit:
    """Trust risk (CLI) plus, when the Trust Map is at hand, its spam-flagged, lost and nofollow domains.

    Without a map (``map_state`` says why: "building" for a cold cache, "unavailable" for another
    error) the strongest and weakest backlinks come from the lookup's public backlinks, as in the CLI.
    """
    s = read_signals(lookup)
    state: MapState = map_state or ("ready" if trust_map is not None else "not_loaded")
    if s.trust is None:
        risk_flag: bool | None = None
        risk = "The service did not report a trust score, so the aggregate backlink risk cannot be judged."
    elif s.trust_weak:
        risk_flag = True
        risk = (
            "Aggregate trust is weak enough to review irrelevant, spam-like or low-authority "
            "referring domains."
        )
    else:
        risk_flag = False
        risk = "No major aggregate backlink risk is visible in the public lookup data."
    next_step = (
        "Review the weak or irrelevant referring domains first; disavow only confirmed, severe spam."
        if risk_flag
        else "Focus on adding relevant directory and partner links."
    )
    sources: list[str] = [SRC_TRUST, SRC_REFERRING]
    rows = list(trust_map.domains) if trust_map is not None and state == "ready" else []
    if trust_map is not None and state == "ready":
        map_rows = [_map_row(r) for r in rows]
        spam = tuple(m for r, m in zip(rows, map_rows, strict=True) if is_spam(r))
        lost = tuple(m for r, m in zip(rows, map_rows, strict=True) if is_lost(r))
        nofollow = tuple(m for r, m in zip(rows, map_rows, strict=True) if is_nofollow(r))
        strongest, weakest = _by_dr(map_rows, strongest=True), _by_dr(map_rows, strongest=False)
        links_from: Literal["map", "lookup"] = "map"
        total = as_int(trust_map.total_domains)
        note = None if rows else "The Trust Map lists no referring domains for this site yet."
        sources += [SRC_MAP_SPAM, SRC_MAP_STATUS, SRC_MAP_TYPE, SRC_MAP_DR]
    else:
        e = lookup.evidence or Evidence()
        spam = lost = nofollow = ()
        strongest = tuple(_lookup_row(b) for b in (e.top_backlinks or [])[:AUDIT_LINKS])
        weakest = tuple(_lookup_row(b) for b in (e.bottom_backlinks or [])[:AUDIT_LINKS])
        links_from = "lookup"
        total = None
        note = {
            "building": "The Trust Map is being built for this site (its cache is cold); the spam, lost and "
            "nofollow review will appear once it is ready. Meanwhile the strongest and weakest links "
            "below are the lookup's public backlinks.",
            "unavailable": "The Trust Map could not be loaded, so the strongest and weakest links below are "
            "the lookup's public backlinks.",
            "not_loaded": None,
            "ready": None,
        }[state]
        sources += [SRC_TOP_LINKS, SRC_BOTTOM_LINKS]
    return BacklinkAudit(
        domain=s.domain,
        trust=as_int(s.trust),
        referring_domains=as_int(s.referring_domains),
        trust_risk=risk_flag,
        risk=risk,
        map_state=state,
        map_note=note,
        total_domains=total,
        mapped=len(rows),
        live_follow=sum(1 for r in rows if is_live_follow(r)),
        spam=spam,
        lost=lost,
        nofollow=nofollow,
        strongest=strongest,
        weakest=weakest,
        links_from=links_from,
        findings=_map_findings(rows),
        next_step=next_step,
        sources=tuple(sources),
    )
