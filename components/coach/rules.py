"""The coach: local advice built from a lookup, and optionally a Trust Map and exchange candidates.

The vendor's ``vdr`` CLI ships coach commands (analyze, diagnose, actions, audit backlinks,
content-plan, fix, track, explain, boost, next) that need no server endpoint: they read one lookup
and apply fixed rules. This module applies the same rules (contract-notes.md, "Coach rules") so a
CLI user gets the same verdicts and the same ranked actions here, then goes further where the data
allows: the backlink audit reads the Trust Map's spamScore, linkType and status; "next" picks an
exchange candidate; every piece of advice names the API fields it came from and says when its
impact is a heuristic (an estimate the service does not publish).

Pure: no Streamlit, no network, no clock. Every input may be sparse: a lookup whose every nullable
field is null still gives advice, never an exception.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from client.models import Authority, Backlink, Evidence, Lookup, ReferringDomain, TrustMap

Effort = Literal["low", "medium", "high"]
Confidence = Literal["medium", "high"]
Status = Literal["weak", "ok", "unknown"]
IssueKind = Literal["inflated", "unbacked", "low_trust", "trailing", "aligned"]
MapState = Literal["ready", "building", "unavailable", "not_loaded"]

# --- thresholds: the CLI's, for parity ---------------------------------------------------------

#: A gap this negative or worse means DR clearly outruns the evidence (CLI: "inflated" branches).
INFLATED_GAP = -10
#: Monthly visits under this are too few to back an authority score (CLI: weak traffic).
MIN_TRAFFIC = 1_000
#: Trust under this is weak: it triggers the backlink clean-up action and the audit's risk (CLI).
WEAK_TRUST = 60
#: Trust under this is low enough to be the main issue on its own (CLI).
LOW_TRUST = 50
#: Under this many referring domains the base is thin and directory links still help (CLI).
THIN_REFERRING_DOMAINS = 50
#: Confidence level at which TrueDR is considered firm; anything else earns the confidence action (CLI).
FIRM_CONFIDENCE = "high"
#: A referring domain with a spam score at or above this is flagged as spam (CLI's map legend).
SPAM_FLAG = 50
#: Analyze shows this many actions (CLI).
TOP_ACTIONS = 3
#: Boost turns this many actions into a campaign, padding with a partner-links idea (CLI).
CAMPAIGN_SIZE = 4
#: The audit lists this many strongest and weakest backlinks (CLI).
AUDIT_LINKS = 5
#: The fix plan spans three 30-day phases (CLI: days 1–30, 31–60, 61–90).
PHASE_DAYS = 30
#: The fix plan's default goal in TrueDR points (CLI: --goal +10).
DEFAULT_GOAL = 10
#: Exchange candidates for "next" are traffic-validated with at least this TrueDR (CLI's request).
PARTNER_MIN_TRUE_DR = 20
#: "next" considers only the first few candidates, as the CLI asks the service for (CLI: limit 5).
PARTNER_CANDIDATE_LIMIT = 5

#: Priority = impact + effort bonus + confidence bonus (CLI): cheap, sure actions rise.
EFFORT_BONUS: dict[str, int] = {"low": 3, "medium": 1, "high": 0}
#: Extra priority for an action whose effect the coach is sure of (CLI).
HIGH_CONFIDENCE_BONUS = 2

# --- thresholds beyond the CLI (the app's own heuristics) ---------------------------------------

#: A lost referring domain at least this strong is worth an email to win the link back (heuristic).
RECLAIM_MIN_DR = 40
#: When more than this share of the mapped domains is nofollow, most links pass little authority.
NOFOLLOW_HEAVY_SHARE = 0.5
#: When at least this share of the mapped domains is spam-flagged, the spam is a pattern, not noise.
SPAM_PATTERN_SHARE = 0.1

# --- where advice comes from: the API fields, named as the service writes them -------------------

SRC_DR = "lookup.authority.dr"
SRC_TRUE_DR = "lookup.authority.trueDr"
SRC_TRUST = "lookup.authority.trustScore"
SRC_CONFIDENCE = "lookup.authority.confidence"
SRC_VALIDATED = "lookup.authority.trafficValidated"
SRC_TRAFFIC = "lookup.evidence.traffic"
SRC_REFERRING = "lookup.evidence.referringDomains"
SRC_TOP_LINKS = "lookup.evidence.topBacklinks"
SRC_BOTTOM_LINKS = "lookup.evidence.bottomBacklinks"
SRC_DR_WEEK = "lookup.changes.drWeeklyChange"
SRC_TRUE_DR_WEEK = "lookup.changes.trueDrWeeklyChange"
SRC_DR_MONTH = "lookup.changes.drMonthlyChange"
SRC_TRUE_DR_MONTH = "lookup.changes.trueDrMonthlyChange"
SRC_TRAFFIC_CHANGE = "lookup.changes.trafficChange"
SRC_MAP_SPAM = "map.domains[].spamScore"
SRC_MAP_TYPE = "map.domains[].linkType"
SRC_MAP_STATUS = "map.domains[].status"
SRC_MAP_DR = "map.domains[].dr"
SRC_CANDIDATES = "find.opportunities.candidates"
SRC_RULES = "coach rules"

GAP_SOURCES = (SRC_DR, SRC_TRUE_DR)
TRAFFIC_SOURCES = (SRC_VALIDATED, SRC_TRAFFIC)


# --- the reading of one lookup ------------------------------------------------------------------


@dataclass(frozen=True)
class Signals:
    """The facts every rule reads, computed once; None means the service did not say."""

    domain: str
    #: Numbers as the service sent them (unrounded), so a rule compares exactly as the CLI does.
    dr: float | None
    true_dr: float | None
    gap: int | None
    trust: float | None
    confidence: str | None
    traffic_validated: bool | None
    traffic: float | None
    referring_domains: float | None

    @property
    def traffic_weak(self) -> bool:
        """Weak unless validated and at least ``MIN_TRAFFIC``; unknown traffic counts as weak (CLI)."""
        return self.traffic_validated is not True or self.traffic is None or self.traffic < MIN_TRAFFIC

    @property
    def trust_weak(self) -> bool:
        """Weak only when known and under ``WEAK_TRUST``: an unknown score is not evidence of risk (CLI)."""
        return self.trust is not None and self.trust < WEAK_TRUST

    @property
    def trust_low(self) -> bool:
        return self.trust is not None and self.trust < LOW_TRUST

    @property
    def gap_inflated(self) -> bool:
        return self.gap is not None and self.gap <= INFLATED_GAP

    @property
    def referring_thin(self) -> bool:
        """Thin when unknown or under ``THIN_REFERRING_DOMAINS`` (CLI)."""
        return self.referring_domains is None or self.referring_domains < THIN_REFERRING_DOMAINS

    @property
    def confidence_firm(self) -> bool:
        return self.confidence == FIRM_CONFIDENCE


def _as_number(value: Any) -> float | None:
    """A number the rules can compare, or None (booleans and text are not numbers here)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return None if value != value else value  # NaN is unknown


def _as_int(value: Any) -> int | None:
    number = _as_number(value)
    return None if number is None else round(number)


def gap_of(dr: Any, true_dr: Any) -> int | None:
    """TrueDR − DR, rounded (CLI); None when either is unknown."""
    d, t = _as_number(dr), _as_number(true_dr)
    return None if d is None or t is None else round(t - d)


def read_signals(lookup: Lookup) -> Signals:
    """The rule inputs of a lookup, tolerating missing sub-objects and null fields."""
    a = lookup.authority or Authority()
    e = lookup.evidence or Evidence()
    return Signals(
        domain=lookup.domain or "this site",
        dr=_as_number(a.dr),
        true_dr=_as_number(a.true_dr),
        gap=gap_of(a.dr, a.true_dr),
        trust=_as_number(a.trust_score),
        confidence=a.confidence if isinstance(a.confidence, str) else None,
        traffic_validated=a.traffic_validated if isinstance(a.traffic_validated, bool) else None,
        traffic=_as_number(e.traffic),
        referring_domains=_as_number(e.referring_domains),
    )


# --- main issue ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class MainIssue:
    kind: IssueKind
    text: str
    sources: tuple[str, ...]
    #: Said when the verdict rests on missing data (the CLI's verdict is kept; this qualifies it).
    caveat: str | None = None


ISSUE_TEXT: dict[IssueKind, str] = {
    "inflated": "DR is inflated relative to traffic and link quality.",
    "unbacked": "DR is not backed by enough validated traffic.",
    "low_trust": "The backlink trust score holds TrueDR below DR.",
    "trailing": "TrueDR trails DR because the supporting evidence is weaker.",
    "aligned": "TrueDR is broadly aligned with the evidence.",
}


def main_issue(lookup: Lookup) -> MainIssue:
    """The first matching rule, in the CLI's order."""
    s = read_signals(lookup)
    if s.gap_inflated and s.traffic_weak and s.trust_weak:
        kind: IssueKind = "inflated"
        sources = (*GAP_SOURCES, *TRAFFIC_SOURCES, SRC_TRUST)
    elif s.gap_inflated and s.traffic_weak:
        kind, sources = "unbacked", (*GAP_SOURCES, *TRAFFIC_SOURCES)
    elif s.trust_low:
        kind, sources = "low_trust", (SRC_TRUST,)
    elif s.gap is not None and s.gap < 0:
        kind, sources = "trailing", GAP_SOURCES
    else:
        kind, sources = "aligned", (*GAP_SOURCES, SRC_TRUST)
    return MainIssue(kind, ISSUE_TEXT[kind], sources, _issue_caveat(s))


def _issue_caveat(s: Signals) -> str | None:
    missing = [
        name
        for name, value in (("DR", s.dr), ("TrueDR", s.true_dr), ("trust score", s.trust))
        if value is None
    ]
    if not missing:
        return None
    return (
        f"The service did not report the {_join(missing)}, so this verdict rests only on the "
        "signals that are present."
    )


# --- actions ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Action:
    """One candidate action with the CLI's scores; ``impact`` is a heuristic estimate of TrueDR lift."""

    key: str
    title: str
    detail: str
    impact: str
    impact_score: int
    effort: Effort
    confidence: Confidence
    #: Heuristic TrueDR lift (low, high) if the action lands: the CLI's "roughly +a to +b".
    lift: tuple[int, int]
    sources: tuple[str, ...]
    #: The same step in the vendor CLI (``{domain}`` is filled in by ``cli_for``).
    cli: str
    #: Where in this app to carry it out (a Coach tab name), if anywhere.
    follow_up: str | None = None
    heuristic: bool = True

    @property
    def priority(self) -> int:
        return action_priority(self.impact_score, self.effort, self.confidence)

    def cli_for(self, domain: str) -> str:
        return self.cli.format(domain=domain)


def action_priority(impact_score: int, effort: str, confidence: str) -> int:
    """Impact plus the effort bonus, plus ``HIGH_CONFIDENCE_BONUS`` for high confidence (CLI)."""
    bonus = HIGH_CONFIDENCE_BONUS if confidence == "high" else 0
    return impact_score + EFFORT_BONUS.get(effort, 0) + bonus


PARTNER = Action(
    key="partner",
    title="Contact one verified partner",
    detail="Find a reachable site whose category, TrueDR, DR and traffic fit yours, preview the proposed "
    "exchange, and approve one focused outreach email.",
    impact="High: roughly +3 to +8 TrueDR when the partnership earns a relevant mention",
    impact_score=9,
    effort="low",
    confidence="high",
    lift=(3, 8),
    sources=("lookup.domain",),
    cli="vdr opportunities {domain}",
    follow_up="Next",
)
DIRECTORIES = Action(
    key="directories",
    title="Add about five relevant directory links",
    detail="Start with directories for your category and startup or SaaS directories where the site "
    "genuinely belongs.",
    impact="Medium: roughly +3 to +6 TrueDR when the links are relevant",
    impact_score=6,
    effort="low",
    confidence="high",
    lift=(3, 6),
    sources=(SRC_REFERRING,),
    cli="vdr opportunities {domain} --type directories",
)
RISKY_LINKS = Action(
    key="risky_links",
    title="Reduce risky backlink signals",
    detail="Deal with irrelevant, weak or spam-like referring domains before chasing more raw DR.",
    impact="Medium: roughly +2 to +5 TrueDR once weak patterns are cleaned up or outweighed",
    impact_score=5,
    effort="medium",
    confidence="high",
    lift=(2, 5),
    sources=(SRC_TRUST,),
    cli="vdr audit backlinks {domain}",
    follow_up="Audit backlinks",
)
TRAFFIC = Action(
    key="traffic",
    title="Improve traffic validation",
    detail="The authority score is not backed by enough visible, validated organic traffic.",
    impact="High: roughly +3 to +8 TrueDR as organic traffic evidence improves",
    impact_score=8,
    effort="high",
    confidence="medium",
    lift=(3, 8),
    sources=TRAFFIC_SOURCES,
    cli="vdr content-plan {domain}",
    follow_up="Content plan",
)
CONFIDENCE = Action(
    key="confidence",
    title="Increase measurement confidence",
    detail="More validated traffic and a larger, clean backlink sample make TrueDR less conservative.",
    impact="Low to medium: roughly +1 to +4 TrueDR as confidence improves",
    impact_score=4,
    effort="medium",
    confidence="medium",
    lift=(1, 4),
    sources=(SRC_CONFIDENCE,),
    cli="vdr track {domain}",
    follow_up="Track",
)
PROTECT = Action(
    key="protect",
    title="Protect the current authority base",
    detail="Watch the weekly changes and add only relevant links that reinforce the site's category.",
    impact="Low: roughly +1 to +3 TrueDR from steady, relevant gains",
    impact_score=3,
    effort="low",
    confidence="medium",
    lift=(1, 3),
    sources=(SRC_REFERRING, SRC_TRUST, *TRAFFIC_SOURCES, SRC_CONFIDENCE),
    cli="vdr track {domain}",
    follow_up="Track",
)
#: Every action the coach can recommend, in the CLI's rule order (ties in priority keep this order).
ACTIONS: tuple[Action, ...] = (PARTNER, DIRECTORIES, RISKY_LINKS, TRAFFIC, CONFIDENCE, PROTECT)


def candidate_actions(lookup: Lookup) -> list[Action]:
    """The actions whose conditions hold, in the CLI's order (before ranking).

    The partner action always applies. "Protect the current authority base" is added when none of
    the conditional actions applies (contract notes; the published CLI never reaches that branch,
    because its partner action is always present).
    """
    s = read_signals(lookup)
    conditional = [
        action
        for applies, action in (
            (s.referring_thin, DIRECTORIES),
            (s.trust_weak, RISKY_LINKS),
            (s.traffic_weak, TRAFFIC),
            (not s.confidence_firm, CONFIDENCE),
        )
        if applies
    ]
    return [PARTNER, *(conditional or [PROTECT])]


def rank_actions(actions: Iterable[Action]) -> list[Action]:
    """Highest priority first; ties keep their rule order (the CLI's stable sort)."""
    return sorted(actions, key=lambda action: -action.priority)


def ranked_actions(lookup: Lookup) -> list[Action]:
    return rank_actions(candidate_actions(lookup))


# --- analyze ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Analysis:
    domain: str
    dr: int | None
    true_dr: int | None
    gap: int | None
    issue: MainIssue
    top_actions: tuple[Action, ...]
    sources: tuple[str, ...] = GAP_SOURCES


def analyze(lookup: Lookup) -> Analysis:
    s = read_signals(lookup)
    return Analysis(
        s.domain,
        _as_int(s.dr),
        _as_int(s.true_dr),
        s.gap,
        main_issue(lookup),
        tuple(ranked_actions(lookup)[:TOP_ACTIONS]),
    )


# --- diagnose -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Reason:
    """One signal behind TrueDR, with the public evidence and the threshold it was judged by."""

    signal: str
    status: Status
    finding: str
    value: str
    threshold: str
    sources: tuple[str, ...]


@dataclass(frozen=True)
class Diagnosis:
    issue: MainIssue
    gap: int | None
    reasons: tuple[Reason, ...]
    first_action: Action

    @property
    def weak_reasons(self) -> tuple[Reason, ...]:
        return tuple(r for r in self.reasons if r.status == "weak")


def _fmt(value: float | None, suffix: str = "") -> str:
    return "unknown" if value is None else f"{round(value):,}{suffix}"


def _signed(value: float | None) -> str:
    if value is None:
        return "unknown"
    number = round(value, 1)
    number = int(number) if number == int(number) else number
    return f"{number:+,}" if number else "0"


def _gap_reason(s: Signals) -> Reason:
    if s.gap is None:
        status: Status = "unknown"
        finding = "The gap cannot be measured without both scores."
    elif s.gap_inflated:
        status, finding = (
            "weak",
            f"TrueDR is {-s.gap} points below DR: the headline score outruns its evidence.",
        )
    elif s.gap < 0:
        status, finding = (
            "weak",
            f"TrueDR is {-s.gap} points below DR: the evidence is weaker than the headline.",
        )
    else:
        status, finding = "ok", "TrueDR is at or above DR: the evidence backs the headline score."
    threshold = f"{INFLATED_GAP} or lower is inflated; below 0 trails"
    return Reason("TrueDR − DR", status, finding, _signed(s.gap), threshold, GAP_SOURCES)


def _trust_reason(s: Signals) -> Reason:
    if s.trust is None:
        status: Status = "unknown"
        finding = "The service did not report a trust score."
    elif s.trust_low:
        status, finding = "weak", "Backlink trust is low: the link profile itself holds TrueDR below DR."
    elif s.trust_weak:
        status, finding = (
            "weak",
            "Backlink trust is weak: some referring domains look irrelevant or spam-like.",
        )
    else:
        status, finding = "ok", "Backlink trust is healthy."
    value = "unknown" if s.trust is None else f"{_fmt(s.trust)}/100"
    threshold = f"under {WEAK_TRUST} is weak; under {LOW_TRUST} holds TrueDR down on its own"
    return Reason("Trust score", status, finding, value, threshold, (SRC_TRUST,))


def _validation_reason(s: Signals) -> Reason:
    if s.traffic_validated is None:
        status: Status = "weak"
        finding = (
            "The service did not say whether traffic is validated; the coach counts it as not validated."
        )
    elif s.traffic_validated:
        status, finding = "ok", "Organic traffic is validated."
    else:
        status, finding = "weak", "Organic traffic is not validated, so it cannot back the score."
    value = {None: "unknown", True: "yes", False: "no"}[s.traffic_validated]
    return Reason(
        "Traffic validated", status, finding, value, "validated traffic backs TrueDR", (SRC_VALIDATED,)
    )


def _traffic_reason(s: Signals) -> Reason:
    if s.traffic is None:
        status: Status = "weak"
        finding = "No traffic estimate: the coach counts unknown traffic as weak."
    elif s.traffic < MIN_TRAFFIC:
        status, finding = "weak", "Too little organic traffic to back the authority score."
    else:
        status, finding = "ok", "Enough organic traffic to back the score, once validated."
    threshold = f"under {MIN_TRAFFIC:,} visits a month is weak"
    return Reason("Traffic", status, finding, _fmt(s.traffic, " visits/month"), threshold, (SRC_TRAFFIC,))


def _referring_reason(s: Signals) -> Reason:
    if s.referring_domains is None:
        status: Status = "unknown"
        finding = "The service did not report referring domains; directory links are suggested in case."
    elif s.referring_thin:
        status, finding = "weak", "A thin referring-domain base: a few relevant links move TrueDR."
    else:
        status, finding = "ok", "A broad referring-domain base."
    threshold = f"under {THIN_REFERRING_DOMAINS} is a thin base"
    return Reason(
        "Referring domains", status, finding, _fmt(s.referring_domains), threshold, (SRC_REFERRING,)
    )


def _confidence_reason(s: Signals) -> Reason:
    if s.confidence is None:
        status: Status = "unknown"
        finding = "The service did not report how confident it is."
    elif s.confidence_firm:
        status, finding = "ok", "The service is sure of TrueDR."
    else:
        status, finding = "weak", "The service is not yet sure of TrueDR, so it keeps the score conservative."
    threshold = f"anything but {FIRM_CONFIDENCE} keeps TrueDR conservative"
    return Reason("Confidence", status, finding, s.confidence or "unknown", threshold, (SRC_CONFIDENCE,))


def diagnose(lookup: Lookup) -> Diagnosis:
    """The main issue and, next to each reason, the public evidence it rests on (CLI's evidence list,
    plus the gap and confidence, each judged against the rule's threshold)."""
    s = read_signals(lookup)
    reasons = (
        _gap_reason(s),
        _trust_reason(s),
        _validation_reason(s),
        _traffic_reason(s),
        _referring_reason(s),
        _confidence_reason(s),
    )
    return Diagnosis(main_issue(lookup), s.gap, reasons, ranked_actions(lookup)[0])


# --- audit backlinks ----------------------------------------------------------------------------


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
    spam = _as_number(row.spam_score)
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
        dr=_as_int(row.dr),
        follow=None if row.link_type is None else not is_nofollow(row),
        status=row.status,
        spam_score=_as_number(row.spam_score),
        backlinks=_as_int(row.backlinks),
        importance=_as_number(row.importance),
        flags=_flags(row),
    )


def _lookup_row(link: Backlink) -> LinkRow:
    return LinkRow(
        domain=link.source_domain or link.url,
        dr=_as_int(link.dr),
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
    reclaim = [r for r in rows if is_lost(r) and (_as_number(r.dr) or 0) >= RECLAIM_MIN_DR]
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
        names = _join([r.domain for r in reclaim[:3]])
        findings.append(
            Finding(
                f"{len(reclaim)} strong lost link{'s' if len(reclaim) != 1 else ''} worth reclaiming",
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
        total = _as_int(trust_map.total_domains)
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
        trust=_as_int(s.trust),
        referring_domains=_as_int(s.referring_domains),
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


# --- content plan -------------------------------------------------------------------------------


@dataclass(frozen=True)
class ContentItem:
    count: int
    kind: str
    title: str
    impact: str
    #: Why this page matters for this site now, from its evidence (the app's own tuning).
    why: str
    start_here: bool
    sources: tuple[str, ...]
    heuristic: bool = True


@dataclass(frozen=True)
class ContentPlan:
    domain: str
    traffic: int | None
    lead: str
    items: tuple[ContentItem, ...]
    sources: tuple[str, ...]


def _start_page(s: Signals) -> str:
    """The page that answers the site's weakest signal: traffic first, then links, then trust."""
    if s.traffic_weak:
        return "comparison"
    if s.referring_thin:
        return "integration"
    return "data" if s.trust_weak else "comparison"


def content_plan(lookup: Lookup) -> ContentPlan:
    """The CLI's four authority-supporting pages, with a lead line tuned to whether traffic is known and
    the page that answers the weakest signal marked as the place to start."""
    s = read_signals(lookup)
    if s.traffic is None:
        lead = "Traffic evidence is unknown, so start with pages that can prove organic demand."
    else:
        lead = (
            f"Current traffic evidence is {_fmt(s.traffic)} visits a month, so favour pages that compound "
            "organic discovery."
        )
    start = _start_page(s)
    pages = (
        (
            1,
            "comparison",
            "A comparison or alternatives page for a high-intent category query",
            "supports organic traffic validation",
            "Traffic is the weakest signal: a high-intent page is the quickest way to earn visits that "
            "validate it."
            if s.traffic_weak
            else "Keeps organic demand growing, so traffic keeps backing the score.",
            TRAFFIC_SOURCES,
        ),
        (
            2,
            "integration",
            "Integration, template or workflow pages that partners can link to naturally",
            "adds relevant referring domains",
            "The referring-domain base is thin or unknown: pages partners can cite turn into relevant links."
            if s.referring_thin
            else "Gives partners and integrations a natural page to link to.",
            (SRC_REFERRING,),
        ),
        (
            1,
            "data",
            "An original data or benchmark page that deserves editorial citations",
            "gives quality sites a reason to link",
            "Trust is weak: citations from editorial sites raise link quality, not just link count."
            if s.trust_weak
            else "Earns editorial citations, the strongest kind of link.",
            (SRC_TRUST,),
        ),
    )
    items = tuple(
        ContentItem(count, kind, title, impact, why, kind == start, sources)
        for count, kind, title, impact, why, sources in pages
    )
    sources = (SRC_TRAFFIC, SRC_VALIDATED, SRC_REFERRING, SRC_TRUST)
    return ContentPlan(s.domain, _as_int(s.traffic), lead, items, sources)


# --- fix: a 30/60/90-day plan toward a goal -------------------------------------------------------


@dataclass(frozen=True)
class PlanPhase:
    start_day: int
    end_day: int
    title: str
    detail: str
    #: Heuristic TrueDR lift (low, high); (0, 0) for the CLI's generic fallback steps.
    lift: tuple[int, int]
    #: None when the phase is the CLI's generic fallback (fewer than three actions applied).
    action_key: str | None
    follow_up: str | None

    @property
    def label(self) -> str:
        return f"Days {self.start_day}–{self.end_day}"


@dataclass(frozen=True)
class GrowthPlan:
    domain: str
    goal: int
    true_dr: int | None
    target: int | None
    phases: tuple[PlanPhase, ...]
    #: Heuristic TrueDR lift (low, high) if all three phases land: the sum of the actions' ranges.
    lift: tuple[int, int]
    outlook: str
    sources: tuple[str, ...]
    heuristic: bool = True


#: The CLI's fallback steps when fewer than three actions apply (title, detail); no lift is claimed.
FALLBACK_PHASES: tuple[tuple[str, str], ...] = (
    ("Find the highest-impact authority gap", "Start from the Diagnose tab and the top action."),
    ("Build relevant partner and directory links", "Partners and directories in your category."),
    ("Validate progress and remove remaining weak signals", "Check the Track tab and the backlink audit."),
)


def fix_plan(lookup: Lookup, goal: int = DEFAULT_GOAL) -> GrowthPlan:
    """The first three ranked actions as days 1–30, 31–60 and 61–90 (CLI), with a heuristic outlook
    for the goal: does the sum of the actions' estimated lifts reach it?"""
    s = read_signals(lookup)
    actions = ranked_actions(lookup)
    phases: list[PlanPhase] = []
    for i in range(3):
        start, end = i * PHASE_DAYS + 1, (i + 1) * PHASE_DAYS
        if i < len(actions):
            a = actions[i]
            phases.append(PlanPhase(start, end, a.title, a.detail, a.lift, a.key, a.follow_up))
        else:
            title, detail = FALLBACK_PHASES[i]
            phases.append(PlanPhase(start, end, title, detail, (0, 0), None, None))
    low = sum(p.lift[0] for p in phases)
    high = sum(p.lift[1] for p in phases)
    true_dr = _as_int(s.true_dr)
    target = None if true_dr is None else min(100, true_dr + goal)
    if goal <= 0:
        outlook = "Set a goal above zero to plan for growth."
    elif goal <= low:
        outlook = (
            f"A +{goal} goal is within the plan's estimated range (+{low} to +{high}) if the work lands."
        )
    elif goal <= high:
        outlook = (
            f"A +{goal} goal is reachable only if the actions land well: the estimated range is "
            f"+{low} to +{high}."
        )
    else:
        outlook = (
            f"A +{goal} goal is a stretch for 90 days: the estimated range is +{low} to +{high}. "
            "Plan a second cycle or add campaigns from the Boost tab."
        )
    if true_dr is not None and true_dr + goal > 100:
        outlook += " TrueDR cannot exceed 100, so the target is capped."
    return GrowthPlan(
        domain=s.domain,
        goal=goal,
        true_dr=true_dr,
        target=target,
        phases=tuple(phases),
        lift=(low, high),
        outlook=outlook,
        sources=(SRC_TRUE_DR, SRC_RULES),
    )


def parse_goal(text: str | int | None) -> int:
    """A goal like "+10", "10" or 10 → 10; anything else → ``DEFAULT_GOAL`` (the CLI's default)."""
    if isinstance(text, int) and not isinstance(text, bool):
        return text
    try:
        return int(str(text).strip().lstrip("+"))
    except (TypeError, ValueError):
        return DEFAULT_GOAL


# --- track --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TrackReport:
    domain: str
    dr_weekly: float | None
    true_dr_weekly: float | None
    dr_monthly: float | None
    true_dr_monthly: float | None
    traffic_change: float | None
    traffic: int | None
    improving: bool
    verdict: str
    observations: tuple[str, ...]
    next_action: Action
    sources: tuple[str, ...]


def track(lookup: Lookup) -> TrackReport:
    """Weekly changes and the CLI's verdict ("improving" only when TrueDR rose this week), plus
    observations the monthly changes and traffic allow (heuristic readings)."""
    c = lookup.changes
    dr_w = _as_number(c.dr_weekly_change) if c else None
    t_w = _as_number(c.true_dr_weekly_change) if c else None
    dr_m = _as_number(c.dr_monthly_change) if c else None
    t_m = _as_number(c.true_dr_monthly_change) if c else None
    traffic_change = _as_number(c.traffic_change) if c else None
    traffic = read_signals(lookup).traffic
    improving = t_w is not None and t_w > 0
    verdict = (
        "Improving: recent work appears to be lifting TrueDR."
        if improving
        else "No clear TrueDR lift is visible in the latest weekly change yet."
    )
    notes: list[str] = []
    if t_w is None:
        notes.append("The service did not report this week's TrueDR change.")
    elif t_w < 0:
        notes.append(
            f"TrueDR fell {_signed(t_w)} this week: check the backlink audit for lost or risky links."
        )
    if dr_w is not None and dr_w > 0 and (t_w is None or t_w <= 0):
        notes.append(
            "DR rose this week but TrueDR did not: the new links are not yet backed by traffic or trust."
        )
    if t_m is not None:
        direction = "up" if t_m > 0 else "down" if t_m < 0 else "flat"
        notes.append(f"Over the month TrueDR is {direction} ({_signed(t_m)}).")
    if traffic_change is not None:
        share = ""
        base = None if traffic is None else traffic - traffic_change
        if base and base > 0:
            share = f" ({traffic_change / base:+.0%})"
        notes.append(f"Traffic changed by {_signed(traffic_change)} visits{share} this week.")
    sources = (SRC_TRUE_DR_WEEK, SRC_DR_WEEK, SRC_TRUE_DR_MONTH, SRC_DR_MONTH, SRC_TRAFFIC_CHANGE)
    return TrackReport(
        domain=read_signals(lookup).domain,
        dr_weekly=dr_w,
        true_dr_weekly=t_w,
        dr_monthly=dr_m,
        true_dr_monthly=t_m,
        traffic_change=traffic_change,
        traffic=_as_int(traffic),
        improving=improving,
        verdict=verdict,
        observations=tuple(notes),
        next_action=ranked_actions(lookup)[0],
        sources=sources,
    )


# --- explain ------------------------------------------------------------------------------------


def explain(lookup: Lookup) -> str:
    """A plain paragraph for a client or founder: DR vs TrueDR, the gap, the main issue, the first action."""
    s = read_signals(lookup)
    dr, true_dr = _fmt(s.dr), _fmt(s.true_dr)
    if s.gap is None:
        gap_sentence = (
            "One of the two scores is not available, so the gap between the headline score and its "
            "supporting evidence cannot be measured yet."
        )
        joiner = "and"
    elif s.gap < 0:
        gap_sentence = (
            f"That {_signed(s.gap)} point gap means the headline authority score is stronger than the "
            "supporting evidence from traffic, backlink quality and trust signals."
        )
        joiner = "but"
    else:
        gap_sentence = (
            f"That {_signed(s.gap)} point gap means the headline authority score is in line with the "
            "supporting evidence from traffic, backlink quality and trust signals."
        )
        joiner = "and"
    first = ranked_actions(lookup)[0]
    return (
        f"{s.domain} has a DR of {dr}, {joiner} its VerifiedDR TrueDR is {true_dr}. {gap_sentence} "
        f"{main_issue(lookup).text} Recommended next step: {first.title.lower()}."
    )


# --- boost --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Campaign:
    domain: str
    steps: tuple[str, ...]
    padded: bool
    result: str
    start_with: Action
    sources: tuple[str, ...]
    heuristic: bool = True


#: Added when fewer than ``CAMPAIGN_SIZE`` actions apply (CLI).
PARTNER_LINKS_IDEA = "Build three partner links from customers, integrations or portfolio pages"


def boost(lookup: Lookup) -> Campaign:
    actions = ranked_actions(lookup)
    steps = [a.title for a in actions[:CAMPAIGN_SIZE]]
    padded = len(steps) < CAMPAIGN_SIZE
    if padded:
        steps.append(PARTNER_LINKS_IDEA)
    used = [source for action in actions[:CAMPAIGN_SIZE] for source in action.sources]
    return Campaign(
        read_signals(lookup).domain,
        tuple(steps),
        padded,
        "Medium to high TrueDR lift within 90 days, if the work earns relevant links and stronger "
        "traffic evidence.",
        actions[0],
        (*dict.fromkeys(used), SRC_RULES),
    )


# --- next ---------------------------------------------------------------------------------------


class Candidate(Protocol):
    """An exchange candidate: a lookup object plus slug, title and an ``opportunity`` (type, reason)."""

    domain: str
    slug: str | None
    title: str | None
    authority: Authority
    evidence: Evidence


@dataclass(frozen=True)
class PartnerPick:
    domain: str
    target: str
    title: str | None
    true_dr: int | None
    dr: int | None
    traffic: int | None
    angle: str | None
    reason: str | None


@dataclass(frozen=True)
class NextStep:
    action: Action
    partner: PartnerPick | None
    #: Why no partner is shown, when the action is the partner action but none could be picked.
    partner_note: str | None
    sources: tuple[str, ...]


def _opportunity(candidate: object) -> tuple[str | None, str | None]:
    """The candidate's opportunity type and reason, whether parsed as a model or kept as a dict."""
    raw = getattr(candidate, "opportunity", None)
    if raw is None:
        extra = getattr(candidate, "model_extra", None) or {}
        raw = extra.get("opportunity")
    get = raw.get if isinstance(raw, dict) else (lambda name: getattr(raw, name, None))
    kind, reason = get("type"), get("reason")
    return (kind if isinstance(kind, str) else None, reason if isinstance(reason, str) else None)


def partner_eligible(candidate: Candidate) -> bool:
    """The CLI's candidate filter: traffic validated and TrueDR at least ``PARTNER_MIN_TRUE_DR``."""
    a = getattr(candidate, "authority", None) or Authority()
    true_dr = _as_number(a.true_dr)
    return a.traffic_validated is True and true_dr is not None and true_dr >= PARTNER_MIN_TRUE_DR


def best_partner(
    domain: str, candidates: Sequence[Candidate], contacted: Collection[str] = ()
) -> PartnerPick | None:
    """The first eligible candidate (the service ranks them) not yet contacted and not the site itself."""
    skip = {name.lower() for name in contacted} | {domain.lower()}
    eligible = [c for c in candidates if partner_eligible(c)][:PARTNER_CANDIDATE_LIMIT]
    for c in eligible:
        slug = getattr(c, "slug", None)
        name = getattr(c, "domain", None)
        if not name or name.lower() in skip or (slug and slug.lower() in skip):
            continue
        a = c.authority or Authority()
        angle, reason = _opportunity(c)
        return PartnerPick(
            domain=name,
            target=slug or name,
            title=getattr(c, "title", None),
            true_dr=_as_int(a.true_dr),
            dr=_as_int(a.dr),
            traffic=_as_int((c.evidence or Evidence()).traffic),
            angle=angle,
            reason=reason,
        )
    return None


def next_step(
    lookup: Lookup, candidates: Sequence[Candidate] | None = None, contacted: Collection[str] = ()
) -> NextStep:
    """The single best next action; for the partner action, the best candidate when discovery data
    was given (``None`` means it was not fetched; an empty list means the service had none)."""
    action = ranked_actions(lookup)[0]
    if action.key != PARTNER.key:
        return NextStep(action, None, None, action.sources)
    if candidates is None:
        return NextStep(action, None, "Exchange candidates were not loaded.", action.sources)
    pick = best_partner(read_signals(lookup).domain, candidates, contacted)
    note = None
    if pick is None:
        note = f"No traffic-validated candidate with TrueDR {PARTNER_MIN_TRUE_DR}+ is waiting" + (
            " that you have not contacted yet." if contacted else "."
        )
    return NextStep(action, pick, note, (*action.sources, SRC_CANDIDATES))


# --- helpers ------------------------------------------------------------------------------------


def _join(items: Sequence[str | None]) -> str:
    words = [str(i) for i in items if i]
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def describe_sources(sources: Iterable[str]) -> str:
    """Sources as one short line for a caption (``lookup.authority.trustScore, ...``), each once."""
    return ", ".join(dict.fromkeys(sources))
