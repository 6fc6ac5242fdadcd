"""The actions the coach can recommend, when each applies, and how they rank (the vdr CLI's rules).

Each action carries the CLI's scores (impact, effort, confidence), a heuristic TrueDR lift, the API
fields it rests on, the same step in the CLI and the Coach tab where it is carried out.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from analysis.coach.rules.signals import read_signals
from analysis.coach.rules.sources import (
    SRC_CONFIDENCE,
    SRC_DOMAIN,
    SRC_REFERRING,
    SRC_TRUST,
    TRAFFIC_SOURCES,
)
from analysis.coach.rules.thresholds import EFFORT_BONUS, HIGH_CONFIDENCE_BONUS
from client.models import Lookup

Effort = Literal["low", "medium", "high"]
Confidence = Literal["medium", "high"]


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
    sources=(SRC_DOMAIN,),
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
