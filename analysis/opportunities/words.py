"""When a keyword becomes winnable, in words: the one sentence per projection that a page, a report or a
command shows ("Within reach now", "In about 5 months (between 3 and 9)", …), and its months as dates.
Pure; numbers, plurals and days as ``analysis.wording`` writes them.

A band is rounded outwards (its early end down, its late end up) and the central month to the nearest:
the words never state a narrower band than the fit gave.
"""

from __future__ import annotations

import math
from datetime import date

from analysis.opportunities.winnable import (
    HORIZON_MONTHS,
    MIN_WEEKS,
    UNCERTAIN_BEYOND_MONTHS,
    Projection,
    Target,
)
from analysis.wording import plural

#: Each state but "in_months" in a few words, for a table cell (``answer_words``).
_SHORT_ANSWERS = {
    "within_reach": "Within reach now",
    "not_at_this_pace": "Not at this pace",
    "too_uncertain": "Too uncertain yet",
    "too_little_history": "Too little history",
}
TARGET_WORDS: dict[str, str] = {
    "median": "the top 10's median DR",
    "lowest": "the lowest DR in the top 10 (a first foothold)",
}


def months_words(months: float) -> str:
    """ "5 months", "1 month"; under half a month is "less than a month"."""
    rounded = round(months)
    return "less than a month" if rounded < 1 else f"{rounded} {plural(rounded, 'month')}"


def band_words(band: tuple[float, float]) -> str:
    """ "between 3 and 9", or "at most 2" when the early end is this month."""
    early, late = math.floor(band[0]), math.ceil(band[1])
    return f"at most {late}" if early < 1 else f"between {early} and {late}"


def projection_words(projection: Projection) -> str:
    """The projection's sentence."""
    state = projection.state
    if state == "within_reach":
        return "Within reach now"
    if state == "too_little_history":
        return f"Not enough history yet (needs at least {MIN_WEEKS} weeks; {projection.weeks} recorded)"
    if state == "in_months" and projection.months is not None and projection.band is not None:
        when = months_words(projection.months)
        lead = "In less than a month" if when == "less than a month" else f"In about {when}"
        return f"{lead} ({band_words(projection.band)})"
    if state == "not_at_this_pace":
        if projection.reason == "beyond_horizon":
            return f"Not within {_years(HORIZON_MONTHS)} at this pace"
        if projection.reason == "hardening":
            return "Not at the current pace — the top 10 is hardening faster than the site grows"
        return "Not at the current pace — the site's DR is not gaining on the top 10"
    if projection.reason == "too_wide" and projection.band is not None:
        early = math.floor(projection.band[0])
        return (
            f"Too uncertain to say yet — the history allows anything from {early} to more than "
            f"{UNCERTAIN_BEYOND_MONTHS} months"
        )
    return "Too uncertain to say yet — at the slow end of what the history allows, the site never catches up"


def projection_dates(projection: Projection) -> str:
    """The month and its band as calendar months ("around May 2027, between Mar 2027 and Sep 2027"); ""
    unless the projection states a month."""
    if projection.day is None or projection.band_days is None:
        return ""
    early, late = projection.band_days
    return f"around {projection.day:%b %Y}, between {early:%b %Y} and {late:%b %Y}"


def answer_words(state: str, day: date | None) -> str:
    """A projection in a few words, for a table cell at a laptop's width ("Around May 2027"), from its
    state and its month; ``projection_words`` and ``projection_dates`` say it in full (how many months,
    the band, the reason). "" for a state no projection has (a keyword not watched)."""
    if state == "in_months":
        return f"Around {day:%b %Y}" if day is not None else "In some months"
    return _SHORT_ANSWERS.get(state, "")


def projection_answer(projection: Projection) -> str:
    """``answer_words`` of ``projection``."""
    return answer_words(projection.state, projection.day)


def _years(months: int) -> str:
    years = months // 12
    return {1: "a year", 2: "two years", 3: "three years"}.get(years, f"{years} years")


def target_words(target: Target) -> str:
    return TARGET_WORDS[target]
