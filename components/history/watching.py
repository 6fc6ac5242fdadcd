"""Watching a subject from the app: make sure the service can measure it, put it on the watchlist, and
keep today's numbers at once, so its History is never empty after a Watch.

A domain is read first (its lookup, then its Trust Map) and a keyword's report for the site it is
watched for, through the one data layer (cached answers cost nothing). A domain the service does not
list, or a keyword on a plan without keyword research, is refused before anything is watched: the
daily job would fail on it every day. A read that fails for another reason (a cold Trust Map, a busy
service) does not stop the watch: what could be read is kept and the rest is said in words. The role
check and the audit row are the caller's (``audited_store_write`` around ``watch_subject``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from client.errors import ApiError, NotFoundError, PaymentRequiredError
from components.core.cache import data
from components.core.cache.connection import Connection
from components.core.history import store as history

Kind = Literal["domain", "keyword"]
#: What each read is called in words.
WHAT = {"lookup": "DR", "trust_map": "Trust Map", "keyword_report": "position"}


@dataclass(frozen=True)
class WatchOutcome:
    """What a Watch did: newly watched or not, refused with a reason, and today's reads kept or missed."""

    label: str
    added: bool = False
    refused: str | None = None
    kept: tuple[str, ...] = ()
    missed: dict[str, str] = field(default_factory=dict)

    @property
    def words(self) -> str:
        """One sentence or two for the person who clicked."""
        if self.refused is not None:
            return f"Not watched: {self.refused}"
        said = f"Watching {self.label}" if self.added else f"{self.label} was already watched"
        if self.kept:
            said += f": today's {' and '.join(self.kept)} recorded; kept once a day from now on."
        else:
            said += ": kept once a day from now on."
        for what, why in self.missed.items():
            said += f" Today's {what} could not be read ({why}); the daily job tries again."
        return said


def _reads(kind: Kind, subject: str, site: str | None) -> list[tuple[str, Any]]:
    """The reads that measure a subject, each with what it is asked with."""
    if kind == "domain":
        return [("lookup", subject), ("trust_map", subject)]
    return [("keyword_report", (subject, site))]


def _read(conn: Connection, operation: str, asked: Any) -> Any:
    if operation == "keyword_report":
        keyword, site = asked
        return data.keyword_report(conn, keyword, site)
    return data.lookup(conn, asked) if operation == "lookup" else data.trust_map(conn, asked)


def _refusal(kind: Kind, subject: str, exc: ApiError) -> str | None:
    """Why the subject can never be measured daily, or None when the failure may pass."""
    if kind == "domain" and isinstance(exc, NotFoundError):
        return (
            f"{subject} is not a listed site on VerifiedDR, so there is nothing to keep for it every day. "
            "If it is yours, submit it on My sites first."
        )
    if kind == "keyword" and isinstance(exc, PaymentRequiredError):
        return "your plan does not include keyword research, so this keyword cannot be measured daily."
    return None


def watch_subject(conn: Connection, kind: Kind, subject: str, site: str | None = None) -> WatchOutcome:
    """Check, watch and record ``subject`` (a keyword for ``site``) for this account."""
    label = subject if kind == "domain" else f"“{subject}” for {site}"
    if kind == "keyword" and not site:
        return WatchOutcome(label, refused="say which site the keyword is measured for.")
    answers: dict[str, tuple[Any, Any]] = {}
    missed: dict[str, str] = {}
    for operation, asked in _reads(kind, subject, site):
        try:
            answers[operation] = (asked, _read(conn, operation, asked))
        except ApiError as exc:
            refusal = _refusal(kind, subject, exc) if operation != "trust_map" else None
            if refusal is not None:
                return WatchOutcome(label, refused=refusal)
            missed[WHAT[operation]] = str(exc)
    added = history.set_watched(conn, kind, subject, True, site=site)
    kept = [WHAT[op] for op, (asked, value) in answers.items() if history.record_now(conn, op, asked, value)]
    return WatchOutcome(label, added=added, kept=tuple(kept), missed=missed)
