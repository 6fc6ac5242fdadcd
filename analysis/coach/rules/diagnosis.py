"""What one lookup says about a site: analyze, diagnose, track and explain (the vdr CLI's readings).

These read the lookup alone and answer "what is wrong, why, and is it getting better"; the plans
that answer "what to do over the next weeks" live in ``plans``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from analysis.coach.rules.actions import Action, ranked_actions
from analysis.coach.rules.signals import (
    MainIssue,
    Signals,
    as_int,
    as_number,
    fmt_count,
    fmt_signed,
    main_issue,
    read_signals,
)
from analysis.coach.rules.sources import (
    GAP_SOURCES,
    SRC_CONFIDENCE,
    SRC_DR_MONTH,
    SRC_DR_WEEK,
    SRC_REFERRING,
    SRC_TRAFFIC,
    SRC_TRAFFIC_CHANGE,
    SRC_TRUE_DR_MONTH,
    SRC_TRUE_DR_WEEK,
    SRC_TRUST,
    SRC_VALIDATED,
)
from analysis.coach.rules.thresholds import (
    FIRM_CONFIDENCE,
    INFLATED_GAP,
    LOW_TRUST,
    MIN_TRAFFIC,
    THIN_REFERRING_DOMAINS,
    TOP_ACTIONS,
    WEAK_TRUST,
)
from client.models import Lookup

Status = Literal["weak", "ok", "unknown"]


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
        as_int(s.dr),
        as_int(s.true_dr),
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
    return Reason("TrueDR − DR", status, finding, fmt_signed(s.gap), threshold, GAP_SOURCES)


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
    value = "unknown" if s.trust is None else f"{fmt_count(s.trust)}/100"
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
    return Reason(
        "Traffic", status, finding, fmt_count(s.traffic, " visits/month"), threshold, (SRC_TRAFFIC,)
    )


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
        "Referring domains", status, finding, fmt_count(s.referring_domains), threshold, (SRC_REFERRING,)
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
    dr_w = as_number(c.dr_weekly_change) if c else None
    t_w = as_number(c.true_dr_weekly_change) if c else None
    dr_m = as_number(c.dr_monthly_change) if c else None
    t_m = as_number(c.true_dr_monthly_change) if c else None
    traffic_change = as_number(c.traffic_change) if c else None
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
            f"TrueDR fell {fmt_signed(t_w)} this week: check the backlink audit for lost or risky links."
        )
    if dr_w is not None and dr_w > 0 and (t_w is None or t_w <= 0):
        notes.append(
            "DR rose this week but TrueDR did not: the new links are not yet backed by traffic or trust."
        )
    if t_m is not None:
        direction = "up" if t_m > 0 else "down" if t_m < 0 else "flat"
        notes.append(f"Over the month TrueDR is {direction} ({fmt_signed(t_m)}).")
    if traffic_change is not None:
        share = ""
        base = None if traffic is None else traffic - traffic_change
        if base and base > 0:
            share = f" ({traffic_change / base:+.0%})"
        notes.append(f"Traffic changed by {fmt_signed(traffic_change)} visits{share} this week.")
    sources = (SRC_TRUE_DR_WEEK, SRC_DR_WEEK, SRC_TRUE_DR_MONTH, SRC_DR_MONTH, SRC_TRAFFIC_CHANGE)
    return TrackReport(
        domain=read_signals(lookup).domain,
        dr_weekly=dr_w,
        true_dr_weekly=t_w,
        dr_monthly=dr_m,
        true_dr_monthly=t_m,
        traffic_change=traffic_change,
        traffic=as_int(traffic),
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
    dr, true_dr = fmt_count(s.dr), fmt_count(s.true_dr)
    if s.gap is None:
        gap_sentence = (
            "One of the two scores is not available, so the gap between the headline score and its "
            "supporting evidence cannot be measured yet."
        )
        joiner = "and"
    elif s.gap < 0:
        gap_sentence = (
            f"That {fmt_signed(s.gap)} point gap means the headline authority score is stronger than the "
            "supporting evidence from traffic, backlink quality and trust signals."
        )
        joiner = "but"
    else:
        gap_sentence = (
            f"That {fmt_signed(s.gap)} point gap means the headline authority score is in line with the "
            "supporting evidence from traffic, backlink quality and trust signals."
        )
        joiner = "and"
    first = ranked_actions(lookup)[0]
    return (
        f"{s.domain} has a DR of {dr}, {joiner} its VerifiedDR TrueDR is {true_dr}. {gap_sentence} "
        f"{main_issue(lookup).text} Recommended next step: {first.title.lower()}."
    )
