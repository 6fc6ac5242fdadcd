"""The reading of one lookup: the signals every rule compares, the main issue, and how numbers are said.

Every rule starts from ``read_signals``, which turns a possibly sparse lookup into plain numbers
(None when the service did not say), so no rule has to guard against missing sub-objects, booleans
posing as numbers or NaN.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from analysis.coach.rules.sources import GAP_SOURCES, SRC_TRUST, TRAFFIC_SOURCES
from analysis.coach.rules.thresholds import (
    FIRM_CONFIDENCE,
    INFLATED_GAP,
    LOW_TRUST,
    MIN_TRAFFIC,
    THIN_REFERRING_DOMAINS,
    WEAK_TRUST,
)
from client.models import Authority, Evidence, Lookup

IssueKind = Literal["inflated", "unbacked", "low_trust", "trailing", "aligned"]

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


def as_number(value: Any) -> float | None:
    """A number the rules can compare, or None (booleans and text are not numbers here)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return None if value != value else value  # NaN is unknown


def as_int(value: Any) -> int | None:
    number = as_number(value)
    return None if number is None else round(number)


def gap_of(dr: Any, true_dr: Any) -> int | None:
    """TrueDR − DR, rounded (CLI); None when either is unknown."""
    d, t = as_number(dr), as_number(true_dr)
    return None if d is None or t is None else round(t - d)


def read_signals(lookup: Lookup) -> Signals:
    """The rule inputs of a lookup, tolerating missing sub-objects and null fields."""
    a = lookup.authority or Authority()
    e = lookup.evidence or Evidence()
    return Signals(
        domain=lookup.domain or "this site",
        dr=as_number(a.dr),
        true_dr=as_number(a.true_dr),
        gap=gap_of(a.dr, a.true_dr),
        trust=as_number(a.trust_score),
        confidence=a.confidence if isinstance(a.confidence, str) else None,
        traffic_validated=a.traffic_validated if isinstance(a.traffic_validated, bool) else None,
        traffic=as_number(e.traffic),
        referring_domains=as_number(e.referring_domains),
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
        sources: tuple[str, ...] = (*GAP_SOURCES, *TRAFFIC_SOURCES, SRC_TRUST)
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
        f"The service did not report the {join_words(missing)}, so this verdict rests only on the "
        "signals that are present."
    )


# --- how advice says a number -------------------------------------------------------------------


def fmt_count(value: float | None, suffix: str = "") -> str:
    return "unknown" if value is None else f"{round(value):,}{suffix}"


def fmt_signed(value: float | None) -> str:
    if value is None:
        return "unknown"
    number = round(value, 1)
    number = int(number) if number == int(number) else number
    return f"{number:+,}" if number else "0"


def join_words(items: Sequence[str | None]) -> str:
    words = [str(i) for i in items if i]
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]
