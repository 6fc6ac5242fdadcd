"""The watchlist from the command line: ``python -m store watch add | remove | list | import``.

For teams with hundreds of subjects and for scripts. The same normalisation and the same account as
the app (the API key's fingerprint), and the same promises as the app's Watch button: a subject is
read before it is watched, so a domain the service does not list (or a keyword on a plan without
keyword research) is refused at once instead of failing the daily job every day, and today's numbers
are recorded straight away (the reads go through the snapshot job's own runner: paced, each answer
kept on its own). Every change is written to the audit log as done "from the command line", so the
Activity page shows it beside the app's.

Exit codes, as the other commands: 0 done; 1 some rows of an import were refused (each named with its
line number; the good rows are kept); 2 it could not start or the subject was refused; 3 the database.
"""

from __future__ import annotations

import csv
import io
import re
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import TextIO

from analysis.spreadsheet import defused_row
from client import ApiClient
from client.errors import InvalidInputError
from services.jobs.exit_codes import EXIT_FAILED, EXIT_OK, EXIT_USAGE
from services.jobs.outcomes import SubjectResult
from services.jobs.snapshot import SnapshotJob, subject_label
from store.audit import AuditEvent, AuditOutcome
from store.groups import BadLabel, clean_tags
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
IMPORT_COLUMNS = ("kind", "subject", "site")
#: An import's optional column: a keyword's tags (its groups on the Market page).
TAGS_COLUMN = "tags"


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


def wanted(
    store: HistoryStore, account: str, kind: str, subject: str, site: str | None, line: int = 0
) -> Wanted:
    """``kind``/``subject``/``site`` as the store keeps them; ``Refused`` saying what is wrong.

    A keyword needs its site; with no site given it is the account's only own site, when it has one.
    """
    if not is_watch_kind(kind):
        raise Refused(f"the kind is domain or keyword, not {kind!r}")
    return _checked_wanted(store, account, kind, subject, site, line)


def _checked_wanted(
    store: HistoryStore, account: str, kind: WatchKind, subject: str, site: str | None, line: int
) -> Wanted:
    try:
        name = normalise_subject(kind, subject)
        if kind == "domain":
            if site:
                raise Refused("--site is for keywords: a domain is measured for itself")
            return Wanted(kind, name, "", line)
        measured_for = normalise_site(kind, site) if site else _only_own_site(store, account)
    except InvalidInputError as exc:
        raise Refused(str(exc)) from None
    return Wanted(kind, name, measured_for, line)


def _only_own_site(store: HistoryStore, account: str) -> str:
    mine = own_sites(store.watchlist.entries(account))
    if len(mine) == 1:
        return mine[0]
    which = f" (your sites: {', '.join(mine)})" if mine else ""
    raise Refused(f"say which site the keyword is measured for, with --site DOMAIN{which}")


def _audit(store: HistoryStore, account: str, operation: str, target: str, outcome: AuditOutcome) -> None:
    store.audit.record(AuditEvent(PERSON, None, account, operation, target, outcome))


def _refusal(result: SubjectResult) -> str | None:
    """Why a subject read for watching can never be measured daily, or None."""
    if result.outcome == "waiting":  # only a domain waits: the service answered "not found" for it
        return f"{result.label} is not a listed site on VerifiedDR, so there is nothing to keep for it daily"
    plan = "failed: your plan does not include keyword research"
    if plan in result.problems:
        return "your plan does not include keyword research, so this keyword cannot be measured daily"
    return None


def watch_many(
    store: HistoryStore,
    client: ApiClient,
    account: str,
    day: date,
    subjects: Iterable[Wanted],
    say: Callable[[str], None],
) -> dict[Wanted, str | None]:
    """Read each subject once (recording today's numbers), then watch those the service can measure.

    Returns each subject's refusal in words, or None when it is watched now (or was already)."""
    fresh = [w for w in subjects if not store.watchlist.is_watched(account, w.kind, w.subject, w.site)]
    job = SnapshotJob(store, client, account, day, progress=say)
    job.run_items([w.item for w in fresh], {})
    refusals: dict[Wanted, str | None] = {}
    for w in fresh:
        result = job.results.get(w.label)
        refusal = _refusal(result) if result is not None else None
        refusals[w] = refusal
        if refusal is None:
            store.watchlist.watch(account, w.kind, w.subject, site=w.site or None)
            _audit(store, account, "watch", w.label, "done")
    return refusals


def add(
    store: HistoryStore, client: ApiClient, account: str, day: date, one: Wanted, say: Callable[[str], None]
) -> int:
    if store.watchlist.is_watched(account, one.kind, one.subject, one.site):
        _audit(store, account, "watch", one.label, "no_change")
        print(f"{one.label} was already watched.")
        return EXIT_OK
    refusal = watch_many(store, client, account, day, [one], say)[one]
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
    if kind == "domain" and name in own_sites(store.watchlist.entries(account)):
        raise Refused(f"{name} is one of your own sites: they are always watched")
    label = (
        name if kind == "domain" else f'keyword "{name}"' + (f" for {measured_for}" if measured_for else "")
    )
    removed = store.watchlist.unwatch(account, kind, name, measured_for)
    _audit(store, account, "unwatch", label, "done" if removed else "no_change")
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


def read_rows(text: str) -> tuple[list[tuple[int, dict[str, str]]], str | None]:
    """The file's rows with their line numbers, or why the file cannot be read as a watchlist."""
    reader = csv.DictReader(io.StringIO(text))
    if reader.fieldnames is None or not {"kind", "subject"} <= {f.strip() for f in reader.fieldnames}:
        return [], (
            f"the first line must name the columns {','.join(IMPORT_COLUMNS)} (site may be empty; "
            f"{TAGS_COLUMN} may follow)"
        )
    rows = []
    for row in reader:
        cleaned = {(k or "").strip(): (v or "").strip() for k, v in row.items() if isinstance(v, str)}
        if any(cleaned.values()):
            rows.append((reader.line_num, cleaned))
    return rows, None


def import_file(
    store: HistoryStore, client: ApiClient, account: str, day: date, text: str, say: Callable[[str], None]
) -> int:
    rows, problem = read_rows(text)
    if problem is not None:
        raise Refused(problem)
    good: list[Wanted] = []
    refused = 0
    for line, row in rows:
        try:
            good.append(
                wanted(
                    store, account, row.get("kind", "").lower(), row.get("subject", ""), row.get("site"), line
                )
            )
        except Refused as exc:
            refused += 1
            say(f"line {line}: not watched: {exc}")
    first: dict[tuple[str, str, str], Wanted] = {}
    for w in good:  # a subject listed twice is read and watched once (its first line names it)
        first.setdefault((w.kind, w.subject, w.site), w)
    outcomes = watch_many(store, client, account, day, first.values(), say)
    for w, refusal in outcomes.items():
        if refusal is not None:
            refused += 1
            say(f"line {w.line}: not watched: {refusal}")
    added = sum(1 for refusal in outcomes.values() if refusal is None)
    tagged = {w.subject for w in first.values() if w.kind == "keyword" and outcomes.get(w) is None}
    refused += _import_tags(store, account, rows, tagged, say)
    print(f"watched {added}, already watched {len(first) - len(outcomes)}, refused {refused}")
    return EXIT_OK if refused == 0 else EXIT_FAILED


def _import_tags(
    store: HistoryStore,
    account: str,
    rows: list[tuple[int, dict[str, str]]],
    watched: set[str],
    say: Callable[[str], None],
) -> int:
    """The ``tags`` column (tags split by ``;``, ``|`` or ``,``): each watched keyword given tags gets
    the tags of all its lines, as a whole; a keyword whose cell is empty keeps its tags. Each change is
    audited; the number of lines whose tags were refused."""
    wanted: dict[str, list[str]] = {}
    lines: dict[str, int] = {}
    for line, row in rows:
        cell = row.get(TAGS_COLUMN, "")
        subject = (
            normalise_subject("keyword", row.get("subject", ""))
            if row.get("kind", "").lower() == "keyword"
            else ""
        )
        if cell and subject in watched:
            wanted.setdefault(subject, []).extend(re.split(r"[;|,]", cell))
            lines.setdefault(subject, line)
    refused = 0
    for keyword, tags in wanted.items():
        try:
            changed = store.groups.set_keyword_tags(account, keyword, clean_tags(tags))
        except BadLabel as exc:
            refused += 1
            say(f"line {lines[keyword]}: tags not kept: {exc}")
            continue
        _audit(
            store,
            account,
            "tag_keyword",
            f"“{keyword}”: {', '.join(clean_tags(tags))}",
            "done" if changed else "no_change",
        )
    return refused
