"""The single best next step, and for the partner action the exchange candidate to contact ("next").

The candidates come from the service's discovery endpoint; the CLI's filter (traffic validated,
TrueDR floor, first few) picks among them, skipping partners already contacted this session.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Protocol

from analysis.coach.rules.actions import PARTNER, Action, ranked_actions
from analysis.coach.rules.signals import as_int, as_number, read_signals
from analysis.coach.rules.sources import SRC_CANDIDATES
from analysis.coach.rules.thresholds import PARTNER_CANDIDATE_LIMIT, PARTNER_MIN_TRUE_DR
from client.models import Authority, Evidence, Lookup


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
    true_dr = as_number(a.true_dr)
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
            true_dr=as_int(a.true_dr),
            dr=as_int(a.dr),
            traffic=as_int((c.evidence or Evidence()).traffic),
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
