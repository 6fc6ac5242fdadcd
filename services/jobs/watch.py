"""The watchlist from the command line: ``python -m store watch add | remove | list | import``.

For teams with hundreds of subjects and for scripts. The same normalisation and the same account as
the app (the API key's fingerprint), and the same promises as the app's Watch button: a subject is
read before it is watched, so a domain the service does not list (or a keyword on a plan without
keyword research) is refused at once instead of failing the daily job every day, and today's numbers
are recorded straight away (the reads go through the snapshot job's own runner: paced, each answer
kept on its own). Every change is written to the audit log as done "from the command line", so the
Activity page shows it beside the app's.

Subjects are read first, their answers held; only when the service refuses none of them are they all
watched, in one transaction, and only then are today's answers recorded and each watch audited: a
subject's numbers are never recorded before it is watched. ``import`` (``services.jobs.watch_import``)
checks its whole file before any of that.

Exit codes, as the other commands: 0 done; 2 it could not start, or a subject (for ``import``: any line
of the file) was refused, and nothing was watched; 3 the database.
"""

from __future__ import annotations

import csv
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import TextIO

from analysis.spreadsheet import defused_row
from client import ApiClient
from client.errors import InvalidInputError
from services.jobs.exit_codes import EXIT_OK, EXIT_USAGE
from services.jobs.outcomes import SubjectResult
from services.jobs.snapshot import SnapshotJob, subject_label
from store.audit import AuditEvent, AuditOutcome
from store.history import HistoryStore
from store.watchlist import (
    WatchItem,
    WatchKind,
    is_watch_kind,
    normalise_site,
    normalise_subject,
    own_sites,
)

#: Who the audit log says made a change from here.
PERSON = "command line"


class Refused(Exception):
    """A subject that cannot be watched, in plain words (exit 2 for ``add``, a named line for ``import``)."""


@dataclass(frozen=True)
class Wanted:
    """A subject someone asked to watch, normalised; ``line`` is its line in an imported file."""

    kind: WatchKind
    subject: str
    site: str
    line: int = 0

    @property
    def item(self) -> WatchItem:
        return WatchItem(self.kind, self.subject, "added", datetime.now(UTC), self.site)

    @property
    def label(self) -> str:
        return subject_label(self.item)


def wanted(kind: str, subject: str, site: str | None, mine: Sequence[str], line: int = 0) -> Wanted:
    """``kind``/``subject``/``site`` as the store keeps them; ``Refused`` saying what is wrong.

    A keyword needs its site; with no site given it is the account's only own site (``mine``: the
    account's own sites, ``own_sites_of``), when it has one.
    """
    if not is_watch_kind(kind):
        raise Refused(f"the kind is domain or keyword, not {kind[:40]!r}")
    try:
        name = normalise_subject(kind, subject)
        if kind == "domain":
            if site:
                raise Refused("--site is for keywords: a domain is measured for itself")
            return Wanted(kind, name, "", line)
        measured_for = normalise_site(kind, site) if site else _only_own_site(mine)
    except InvalidInputError as exc:
        raise Refused(str(exc)) from None
    return Wanted(kind, name, measured_for, line)


def own_sites_of(store: HistoryStore, account: str) -> list[str]:
    """The account's own sites as its watchlist knows them."""
    return own_sites(store.watchlist.entries(account))


def _only_own_site(mine: Sequence[str]) -> str:
    if len(mine) == 1:
        return mine[0]
    which = f" (your sites: {', '.join(mine)})" if mine else ""
    raise Refused(f"say which site the keyword is measured for, with --site DOMAIN{which}")


def audit_change(store: HistoryStore, account: str, operation: str, target: str, changed: bool) -> None:
    """The audit row of a change made from here: "done", or "no_change" when nothing changed."""
    outcome: AuditOutcome = "done" if changed else "no_change"
    store.audit.record(AuditEvent(PERSON, None, account, operation, target, outcome))


def _refusal(result: SubjectResult) -> str | None:
    """Why a subject read for watching can never be measured daily, or None."""
    if result.outcome == "waiting":  # only a domain waits: the service answered "not found" for it
        return f"{result.label} is not a listed site on VerifiedDR, so there is nothing to keep for it daily"
    plan = "failed: your plan does not include keyword research"
    if plan in result.problems:
        return "your plan does not include keyword research, so this keyword cannot be measured daily"
    return None


def watch_all(
    store: HistoryStore,
    client: ApiClient,
    account: str,
    day: date,
    subjects: Sequence[Wanted],
    say: Callable[[str], None],
) -> dict[Wanted, str | None]:
    """Read each subject once, holding its answers; when the service refuses none, watch them all in one
    transaction, audit each new watch, and only then record today's answers.

    Returns each subject's refusal in words (None: not refused). When any is refused, nothing is watched
    nor recorded."""
    job = SnapshotJob(store, client, account, day, progress=say, hold=True)
    job.run_items([w.item for w in subjects], {})
    refusals: dict[Wanted, str | None] = {}
    for w in subjects:
        result = job.results.get(w.label)
        refusals[w] = _refusal(result) if result is not None else None
    if any(refusal is not None for refusal in refusals.values()):
        return refusals
    added = store.watchlist.watch_many(account, [(w.kind, w.subject, w.site or None) for w in subjects])
    for w, new in zip(subjects, added, strict=True):
        audit_change(store, account, "watch", w.label, new)
    job.record_held({w.label for w in subjects})
    return refusals


def add(
    store: HistoryStore, client: ApiClient, account: str, day: date, one: Wanted, say: Callable[[str], None]
) -> int:
    if store.watchlist.is_watched(account, one.kind, one.subject, one.site):
        audit_change(store, account, "watch", one.label, False)
        print(f"{one.label} was already watched.")
        return EXIT_OK
    refusal = watch_all(store, client, account, day, [one], say)[one]
    if refusal is not None:
        print(f"Not watched: {refusal}.", file=sys.stderr)
        return EXIT_USAGE
    print(f"Watching {one.label}: today's numbers are recorded (see the lines above) and kept once a day.")
    return EXIT_OK


def remove(store: HistoryStore, account: str, kind: str, subject: str, site: str | None) -> int:
    if not is_watch_kind(kind):
        raise Refused(f"the kind is domain or keyword, not {kind!r}")
    try:
        name = normalise_subject(kind, subject)
        measured_for = normalise_site(kind, site) if site else None
    except InvalidInputError as exc:
        raise Refused(str(exc)) from None
    if kind == "domain" and name in own_sites_of(store, account):
        raise Refused(f"{name} is one of your own sites: they are always watched")
    label = (
        name if kind == "domain" else f'keyword "{name}"' + (f" for {measured_for}" if measured_for else "")
    )
    removed = store.watchlist.unwatch(account, kind, name, measured_for)
    audit_change(store, account, "unwatch", label, removed)
    print(f"No longer watching {label}; what was recorded stays." if removed else f"{label} was not watched.")
    return EXIT_OK


def listing(store: HistoryStore, account: str, as_csv: bool, out: TextIO) -> int:
    items = store.watchlist.entries(account)
    if as_csv:
        writer = csv.writer(out)
        writer.writerow(["kind", "subject", "site", "origin", "added_at"])
        for item in items:
            row = [item.kind, item.subject, item.site, item.origin, item.added_at.isoformat()]
            writer.writerow(defused_row(row))  # a subject is anyone's text: never a formula
        return EXIT_OK
    if not items:
        print("Nothing is watched yet.", file=out)
    for item in items:
        why = {"own": "your site", "added": "added", "demo": "demo"}.get(item.origin, item.origin)
        print(f"{item.kind:<8} {subject_label(item)}  ({why}, since {item.added_at:%Y-%m-%d})", file=out)
    return EXIT_OK
