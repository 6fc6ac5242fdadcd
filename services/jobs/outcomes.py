"""What became of each watched subject in a snapshot run, in the words its lines use.

Each request of a subject (a domain's lookup, Trust Map and tracked keywords; a keyword's report) is
settled on its own, so one failed read never throws away the others: a subject is "recorded" or
"unchanged" when every request was, "partly recorded" when some were kept and others failed, "failed"
when none was, and "waiting" when the service no longer lists the domain (nothing to read until it is
listed again: said on a ``waiting:`` line, not a failure). An answer kept without some of its rows (a
Trust Map row that is not a referring domain's) is recorded, and what it left out is said on the
subject's line and on a ``skipped:`` line. The tally's last line is always
``recorded N, unchanged M, failed K``; a partly recorded subject counts as failed, because something
the team expects is missing for the day.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

#: The words a line uses for each request (the client's method names), in the order the job asks them.
WHAT = {
    "lookup": "lookup",
    "trust_map": "Trust Map",
    "tracked_keywords": "tracked keywords",
    "keyword_report": "keyword report",
}
#: Why a domain is waiting: the service does not list it (its lookup answered "not found").
UNLISTED = "not a listed site on VerifiedDR (any more); nothing to record until it is listed again"

Outcome = Literal["recorded", "unchanged", "partly recorded", "failed", "waiting"]


def _asked_order(what: str) -> tuple[int, str]:
    """Where a request's words stand in ``WHAT`` (the order the job asks them in)."""
    order = list(WHAT.values())
    return (order.index(what) if what in order else len(order), what)


def _joined(whats: list[str]) -> str:
    return " and ".join(sorted(whats, key=_asked_order))


@dataclass
class SubjectResult:
    """One watched subject's requests as they settle; ``outcome`` once none is pending."""

    label: str
    pending: int
    #: The requests whose answer was written (or was already there, unchanged), by words.
    kept: dict[str, bool] = field(default_factory=dict)
    #: What went wrong, by message: the requests that met it ("lookup", "Trust Map", …).
    failures: dict[str, list[str]] = field(default_factory=dict)
    #: The requests the service answered "not found", with its words: a lookup's makes the domain
    #: waiting (unlisted), and then the others' are the same news; otherwise each is a failure.
    not_found: dict[str, str] = field(default_factory=dict)
    #: Why a subject waits without being asked (a keyword whose site is unknown).
    waits_for: str | None = None
    #: What a kept answer left out, by words: "Trust Map: 1 referring domain … could not be used: …".
    notes: list[str] = field(default_factory=list)

    def kept_answer(self, what: str, *, changed: bool, left_out: str = "") -> None:
        self.kept[what] = changed
        if left_out:
            self.notes.append(f"{what}: {left_out.rstrip('.')}")

    def failed(self, what: str, message: str) -> None:
        self.failures.setdefault(message, []).append(what)

    @property
    def waiting(self) -> str | None:
        return UNLISTED if "lookup" in self.not_found else self.waits_for

    @property
    def problems(self) -> dict[str, list[str]]:
        """Every failure by message (decided once all requests settled: they finish in any order)."""
        if "lookup" in self.not_found:
            return self.failures
        merged = {message: list(whats) for message, whats in self.failures.items()}
        for what, words in self.not_found.items():
            merged.setdefault(f"failed: {words}", []).append(what)
        return merged

    @property
    def reasons(self) -> str:
        """Each distinct problem once: "lookup and Trust Map failed: <the service's words>", the requests
        always in the order they are asked."""
        return "; ".join(f"{_joined(whats)} {message}" for message, whats in self.problems.items())

    @property
    def outcome(self) -> Outcome:
        if self.problems:
            return "partly recorded" if self.kept else "failed"
        if self.waiting is not None:
            return "waiting"
        return "recorded" if any(self.kept.values()) else "unchanged"

    @property
    def why_waiting(self) -> str:
        """Why the subject waits, and what was kept all the same."""
        kept = f"; {_joined(list(self.kept))} kept" if self.kept else ""
        return f"{self.waiting}{kept}"

    @property
    def line(self) -> str:
        """The progress line's words after the label: "recorded", "partly recorded (Trust Map recorded;
        lookup failed: …)", "waiting (…)"."""
        outcome = self.outcome
        if outcome == "partly recorded":
            return f"partly recorded ({_joined(list(self.kept))} kept; {self.reasons})"
        if outcome == "failed":
            return f"failed ({self.reasons})"
        if outcome == "waiting":
            return f"waiting ({self.why_waiting})"
        return f"{outcome} ({'; '.join(self.notes)})" if self.notes else outcome


@dataclass
class SnapshotReport:
    recorded: int = 0
    unchanged: int = 0
    failed: int = 0
    #: "<subject>: <why>" for every subject that failed, wholly or in part.
    failures: list[str] = field(default_factory=list)
    #: "<subject>: <why>" for every subject waiting to be listed again.
    waiting: list[str] = field(default_factory=list)
    #: "<subject>: <what>: <the rows left out>" for every kept answer that left rows out.
    skipped: list[str] = field(default_factory=list)

    @property
    def summary(self) -> str:
        return f"recorded {self.recorded}, unchanged {self.unchanged}, failed {self.failed}"

    @property
    def ok(self) -> bool:
        return self.failed == 0

    def count(self, subject: SubjectResult) -> None:
        """Add a settled subject to the tally."""
        outcome = subject.outcome
        self.skipped += [f"{subject.label}: {note}" for note in subject.notes]
        if outcome in ("failed", "partly recorded"):
            self.failed += 1
            why = subject.reasons if outcome == "failed" else subject.line
            self.failures.append(f"{subject.label}: {why}")
        elif outcome == "waiting":
            self.waiting.append(f"{subject.label}: {subject.why_waiting}")
        elif outcome == "recorded":
            self.recorded += 1
        else:
            self.unchanged += 1

    def fail_alone(self, label: str, reason: str) -> None:
        """Something outside any one subject failed (the key, the site list)."""
        self.failed += 1
        self.failures.append(f"{label}: {reason}")
