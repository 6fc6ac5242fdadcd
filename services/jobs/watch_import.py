"""``python -m store watch import FILE``: a whole watchlist from a CSV file, all of it or nothing.

The file is checked whole before anything is asked of the service or written: at most
``MAX_IMPORT_BYTES`` (a bigger file is refused by its size, before a row is read), at most
``MAX_IMPORT_ROWS`` rows, no cell longer than ``MAX_CELL`` characters, and every line a subject that can
be watched (a domain of up to 253 characters, a keyword of up to 200, the site a keyword is measured
for, tags of up to 32 characters each: all within the history's columns). Every bad line is named by
its number (the first ``MAX_PROBLEMS_SHOWN``, the rest counted) and nothing is watched.

Then the subjects not yet watched are read from the service (``watch.watch_all``): when it refuses any
(a domain it does not list, a keyword on a plan without keyword research), those lines are named and
nothing is watched either. Otherwise they are all watched in one transaction, and only after it are
today's numbers recorded, each watch audited and the keywords' tags set.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable, Sequence
from datetime import date
from pathlib import Path
from typing import BinaryIO

from analysis.wording import counted
from client import ApiClient
from client.inputs import MAX_RAW_INPUT_LENGTH
from services.jobs.exit_codes import EXIT_OK, EXIT_USAGE
from services.jobs.watch import Refused, Wanted, audit_change, own_sites_of, wanted, watch_all
from store.groups import BadLabel, clean_tags
from store.history import HistoryStore

#: The largest file an import takes, in bytes (5,000 lines of long URLs fit in it).
MAX_IMPORT_BYTES = 2_000_000
#: The most rows an import takes: an agency's watchlist, 5,000 keywords, in one file.
MAX_IMPORT_ROWS = 5_000
#: The longest cell, in characters: the longest text the app takes for one input (a URL).
MAX_CELL = MAX_RAW_INPUT_LENGTH
#: How many bad lines are named one by one; the rest are counted.
MAX_PROBLEMS_SHOWN = 20
IMPORT_COLUMNS = ("kind", "subject", "site")
#: An import's optional column: a keyword's tags (its groups on the Market page).
TAGS_COLUMN = "tags"
Rows = list[tuple[int, dict[str, str]]]


class FileRefused(Exception):
    """A file that cannot be imported as a whole (too big, unreadable), in plain words."""


def _too_big(name: str, size: int | None) -> str:
    how_big = f"is {size:,} bytes" if size is not None else f"is more than {MAX_IMPORT_BYTES:,} bytes"
    return (
        f"The file {name} {how_big}: an import takes at most {MAX_IMPORT_BYTES:,} bytes (2 MB). "
        "Nothing was watched; split it into smaller files."
    )


def file_text(name: str, stdin: BinaryIO) -> str:
    """The text of the file to import (``-``: standard input), never reading past the size limit;
    ``FileRefused`` when it is too big or cannot be read."""
    try:
        if name == "-":
            data = stdin.read(MAX_IMPORT_BYTES + 1)
        else:
            size = Path(name).stat().st_size
            if size > MAX_IMPORT_BYTES:
                raise FileRefused(_too_big(name, size))
            with Path(name).open("rb") as file:
                data = file.read(MAX_IMPORT_BYTES + 1)
    except OSError as exc:
        raise FileRefused(f"The file {name} cannot be read: {exc.strerror or exc}") from None
    if len(data) > MAX_IMPORT_BYTES:
        raise FileRefused(_too_big(name, None))
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise FileRefused(f"The file {name} cannot be read: it is not UTF-8 text") from None


def read_rows(text: str) -> Rows:
    """The file's rows with their line numbers; ``Refused`` when it cannot be read as a watchlist."""
    # A cell longer than the csv module's own limit (128 KiB) is named by ``_fits`` like any oversized
    # cell, by its line, rather than stopping the reading: the file itself is at most MAX_IMPORT_BYTES.
    csv.field_size_limit(max(csv.field_size_limit(), MAX_IMPORT_BYTES))
    reader = csv.DictReader(io.StringIO(text))
    try:
        if reader.fieldnames is None or not {"kind", "subject"} <= {f.strip() for f in reader.fieldnames}:
            raise Refused(
                f"the first line must name the columns {','.join(IMPORT_COLUMNS)} (site may be empty; "
                f"{TAGS_COLUMN} may follow)"
            )
        rows = []
        for row in reader:
            cleaned = {(k or "").strip(): (v or "").strip() for k, v in row.items() if isinstance(v, str)}
            if any(cleaned.values()):
                rows.append((reader.line_num, cleaned))
            if len(rows) > MAX_IMPORT_ROWS:
                raise Refused(
                    f"the file has more than {MAX_IMPORT_ROWS:,} rows, the most an import takes; "
                    "split it into smaller files"
                )
    except csv.Error as exc:
        raise Refused(f"line {reader.line_num} cannot be read as CSV ({exc})") from None
    return rows


def _fits(row: dict[str, str]) -> None:
    for column, value in row.items():
        if len(value) > MAX_CELL:
            raise Refused(
                f"the {column or 'unnamed'} cell is {len(value):,} characters long; "
                f"a cell holds at most {MAX_CELL:,}"
            )


def check_rows(rows: Rows, mine: Sequence[str]) -> tuple[list[Wanted], dict[str, list[str]], list[str]]:
    """Every row checked, none written: the subjects (each once, named by its first line), each
    keyword's tags, and a line in words for every bad row."""
    first: dict[tuple[str, str, str], Wanted] = {}
    tags: dict[str, list[str]] = {}
    problems: list[str] = []
    for line, row in rows:
        try:
            _fits(row)
            one = wanted(row.get("kind", "").lower(), row.get("subject", ""), row.get("site"), mine, line)
            cell = row.get(TAGS_COLUMN, "") if one.kind == "keyword" else ""
            names = list(clean_tags(re.split(r"[;|,]", cell))) if cell else []
        except Refused as exc:
            problems.append(f"line {line}: {exc}")
            continue
        except BadLabel as exc:
            problems.append(f"line {line}: tags: {exc}")
            continue
        first.setdefault((one.kind, one.subject, one.site), one)  # a subject listed twice is watched once
        if names:
            tags.setdefault(one.subject, []).extend(names)
    return list(first.values()), tags, problems


def _refuse(problems: list[str], already: int, say: Callable[[str], None]) -> int:
    for problem in problems[:MAX_PROBLEMS_SHOWN]:
        say(problem)
    if len(problems) > MAX_PROBLEMS_SHOWN:
        say(f"… and {counted(len(problems) - MAX_PROBLEMS_SHOWN, 'more line')} that cannot be watched")
    say(
        f"Nothing was watched: {counted(len(problems), 'line')} of the file cannot be watched as "
        f"{'it is' if len(problems) == 1 else 'they are'}. Correct the file and import it again."
    )
    print(f"watched 0, already watched {already}, refused {len(problems)}")
    return EXIT_USAGE


def import_file(
    store: HistoryStore, client: ApiClient, account: str, day: date, text: str, say: Callable[[str], None]
) -> int:
    """Watch every line of ``text`` (a CSV file), or none of them; the exit code."""
    subjects, tags, problems = check_rows(read_rows(text), own_sites_of(store, account))
    watched = store.watchlist.watched_subjects(account)
    fresh = [w for w in subjects if (w.kind, w.subject, w.site) not in watched]
    already = len(subjects) - len(fresh)
    if problems:
        return _refuse(problems, already, say)
    if fresh:
        say(f"Reading {counted(len(fresh), 'new subject')} before watching any of them…")
    refusals = watch_all(store, client, account, day, fresh, say)
    refused = [f"line {w.line}: {refusal}" for w, refusal in refusals.items() if refusal is not None]
    if refused:
        return _refuse(refused, already, say)
    _set_tags(store, account, tags)
    print(f"watched {len(fresh)}, already watched {already}, refused 0")
    return EXIT_OK


def _set_tags(store: HistoryStore, account: str, tags: dict[str, list[str]]) -> None:
    """The ``tags`` column (tags split by ``;``, ``|`` or ``,``, checked with the rows): each keyword given
    tags gets the tags of all its lines, as a whole; a keyword whose cell is empty keeps its tags. Each
    change is audited."""
    for keyword, names in tags.items():
        kept = clean_tags(names)
        changed = store.groups.set_keyword_tags(account, keyword, kept)
        audit_change(store, account, "tag_keyword", f"“{keyword}”: {', '.join(kept)}", changed)
