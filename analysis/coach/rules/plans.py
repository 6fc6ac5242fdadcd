"""Plans for the weeks ahead: the content plan, the 30/60/90-day fix plan and the boost campaign.

Each turns the ranked actions (or the weakest signal) into steps with a heuristic outlook; the
readings they start from live in ``diagnosis``.
"""

from __future__ import annotations

from dataclasses import dataclass

from analysis.coach.rules.actions import Action, ranked_actions
from analysis.coach.rules.signals import Signals, as_int, fmt_count, read_signals
from analysis.coach.rules.sources import (
    SRC_REFERRING,
    SRC_RULES,
    SRC_TRAFFIC,
    SRC_TRUE_DR,
    SRC_TRUST,
    SRC_VALIDATED,
    TRAFFIC_SOURCES,
)
from analysis.coach.rules.thresholds import CAMPAIGN_SIZE, DEFAULT_GOAL, PHASE_DAYS
from client.models import Lookup

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
            f"Current traffic evidence is {fmt_count(s.traffic)} visits a month, so favour pages that "
            "compound organic discovery."
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
    return ContentPlan(s.domain, as_int(s.traffic), lead, items, sources)


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
    true_dr = as_int(s.true_dr)
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
