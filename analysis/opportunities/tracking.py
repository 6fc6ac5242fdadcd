"""Which of the keywords chosen on the Opportunities page a click on Track would send, said before the
click: the site's tracked-keyword limit and how many it tracks, the monthly checks left where the plan
has an allowance (each add spends one), the chosen keywords tracked already (never sent again), and
those that would not fit. Pure.

When the choice would pass the limit (or the checks left), the keywords that fit are sent and the rest
are named as not fitting, rather than the button refusing the whole choice: the table lists the best
opportunities first, so the first chosen keywords are the ones worth the free places, and a marketer
should not have to unchoose rows one by one to find how many fit. The words before the click name
exactly which would not fit, so nothing the click does is a surprise.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from analysis.keywords.frames.tracked import Usage
from analysis.wording import counted, named_first

#: How many keywords a sentence names one by one (the rest are counted).
NAMED = 5


def same_keyword(keyword: str) -> str:
    """What two spellings of one keyword share: whitespace folded, case ignored (as the service compares)."""
    return " ".join(keyword.split()).casefold()


def named(keywords: Sequence[str]) -> str:
    """“a”, “b” and 3 more."""
    return named_first([f"“{k}”" for k in keywords], NAMED)


@dataclass(frozen=True)
class TrackPlan:
    """The chosen keywords split by what a click would do with them, and the site's list as it stands."""

    use: Usage
    chosen: tuple[str, ...]
    #: Chosen keywords the site tracks already: never sent again.
    tracked: tuple[str, ...]
    #: Chosen keywords a click sends, in the table's order.
    fits: tuple[str, ...]
    #: Chosen keywords not tracked yet that would pass the limit or the checks left: not sent.
    over: tuple[str, ...]

    @property
    def new(self) -> tuple[str, ...]:
        return (*self.fits, *self.over)

    def standing_words(self) -> str:
        """ "12 of 25 tracked; 3 chosen, 2 not tracked yet." and the monthly checks left, if limited."""
        use = self.use
        held = (
            f"{use.tracked} of {use.limit} tracked"
            if use.limit is not None
            else f"{use.tracked} tracked (the service did not say its limit)"
        )
        words = f"{held}; {len(self.chosen)} chosen, {len(self.new)} not tracked yet."
        if use.checks_limit is not None and use.checks_left is not None:
            words += (
                f" {use.checks_left} of {use.checks_limit} monthly keyword checks left; each add spends one."
            )
        return words

    def detail_words(self) -> list[str]:
        """What the click leaves out and why, one sentence each."""
        lines: list[str] = []
        if self.tracked:
            lines.append(f"Tracked already, not sent again: {named(self.tracked)}.")
        if self.over:
            lines.append(f"Would not fit, not sent: {named(self.over)} — {self._over_reason()}.")
        return lines

    def _over_reason(self) -> str:
        use = self.use
        room = self._limit_room()
        if room is not None and room <= len(self.fits):
            more = f", room for {counted(room, 'more keyword')}" if room else ""
            return f"the site tracks {use.tracked} of {use.limit} keywords, its limit{more}"
        return f"{counted(use.checks_left or 0, 'monthly keyword check')} left, one per add"

    def _limit_room(self) -> int | None:
        if self.use.limit is None:
            return None
        return max(0, self.use.limit - self.use.tracked)

    def refusal(self) -> str | None:
        """Why the Track button is disabled; None when a click sends something."""
        if not self.chosen:
            return "Choose rows in the table first (the boxes at their left)."
        if self.fits:
            return None
        if not self.new:
            return "Every chosen keyword is tracked already."
        if self.use.at_limit:
            return (
                f"The site tracks {self.use.tracked} of {self.use.limit} keywords, its limit: remove one on "
                "Tracked keywords to make room."
            )
        return "No monthly keyword check is left: adds work again when the allowance renews next month."


def plan_tracking(chosen: Sequence[str], tracked_keywords: Iterable[str], use: Usage) -> TrackPlan:
    """Split ``chosen`` (in the table's order) by what a click on Track would do with each keyword."""
    held = {same_keyword(k) for k in tracked_keywords}
    seen: set[str] = set()
    already: list[str] = []
    new: list[str] = []
    for keyword in chosen:
        folded = same_keyword(keyword)
        if folded in seen:
            continue
        seen.add(folded)
        (already if folded in held else new).append(keyword)
    rooms = [
        room
        for room in (
            None if use.limit is None else max(0, use.limit - use.tracked),
            use.checks_left if use.checks_limit is not None else None,
        )
        if room is not None
    ]
    room = min(rooms) if rooms else len(new)
    return TrackPlan(use, tuple(dict.fromkeys(chosen)), tuple(already), tuple(new[:room]), tuple(new[room:]))
