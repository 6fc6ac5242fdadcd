"""A Trust Map's referring domains, read one by one: the usable rows kept, each unusable one named.

One garbled row (a "domain" that is a spreadsheet formula or markup, a DR that is not a number) says
nothing true about that one referring domain, but nothing false about the others: the map keeps the
usable rows and names each skipped one (``SkippedRow``: its place in the answer, what was wrong with it
in plain words, and its name as plain text when it had one). A reader of the map, the page or the
daily job, says what was skipped; a skipped row is unknown, never a link lost.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

T = TypeVar("T")

#: How long a skipped row's name is kept (as text, for a person to recognise it).
MAX_NAME_CHARS = 60

Problem = Literal[
    "record",
    "no_domain",
    "not_a_domain",
    "dr",
    "backlinks",
    "link_type",
    "status",
    "importance",
    "spam_score",
    "other",
]
#: What was wrong with a skipped row, as a person reads it (never the service's field names).
PROBLEM_WORDS: dict[str, str] = {
    "record": "it is not a referring domain's record",
    "no_domain": "it names no referring domain",
    "not_a_domain": "its name is not a domain name",
    "dr": "its DR is not a whole number",
    "backlinks": "its backlink count is not a whole number",
    "link_type": "its link type is not text",
    "status": "its status is not text",
    "importance": "its importance is not a number",
    "spam_score": "its spam score is not a number",
    "other": "one of its values is not of the documented kind",
}
#: A row's fields (as the service or the app spells them) → the problem a wrong value in it is.
_FIELD_PROBLEMS: dict[str, Problem] = {
    "domain": "no_domain",
    "dr": "dr",
    "backlinks": "backlinks",
    "linkType": "link_type",
    "link_type": "link_type",
    "status": "status",
    "importance": "importance",
    "spamScore": "spam_score",
    "spam_score": "spam_score",
}


def plain_domain(value: str) -> bool:
    """Whether ``value`` reads as a domain name (letters, digits, dots and hyphens, with a dot): not markup,
    a formula or a sentence a garbled answer put where a domain belongs."""
    name = " ".join(value.split()).lower()
    return "." in name and all(ch.isalnum() or ch in ".-" for ch in name)


def plain_text(value: str, limit: int = MAX_NAME_CHARS) -> str:
    """``value`` as one line of plain characters: control and formatting characters (a terminal's escape
    sequences, line breaks, bidirectional overrides) become spaces, runs of spaces one, and the text is
    cut to ``limit`` characters ("…" marks a cut). Pages still escape it as they escape any text."""
    cleaned = "".join(" " if unicodedata.category(ch).startswith("C") else ch for ch in value)
    cleaned = " ".join(cleaned.split())
    return cleaned if len(cleaned) <= limit else cleaned[: limit - 1] + "…"


class SkippedRow(BaseModel):
    """A row of the answer that could not be used: its place (1 = the first), what was wrong with it, and
    its name as plain text when it had one."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    index: int
    problem: Problem
    name: str | None = None

    @property
    def reason(self) -> str:
        return PROBLEM_WORDS[self.problem]

    @property
    def words(self) -> str:
        """``row 4 ("=cmd|' /C calc'!A0"): its name is not a domain name``."""
        named = f' ("{plain_text(self.name)}")' if self.name else ""
        return f"row {self.index}{named}: {self.reason}"


def _problem(exc: ValidationError) -> Problem:
    for error in exc.errors():
        location = error.get("loc") or ()
        if location and str(location[0]) in _FIELD_PROBLEMS:
            return _FIELD_PROBLEMS[str(location[0])]
    return "other"


def split_rows(rows: list[Any], validate: Callable[[Any], T]) -> tuple[list[T], list[SkippedRow]]:
    """The rows ``validate`` accepts whose domain reads as a domain name, in order, and a ``SkippedRow``
    for each other one."""
    usable: list[T] = []
    skipped: list[SkippedRow] = []
    for index, row in enumerate(rows, start=1):
        if not isinstance(row, dict | BaseModel):  # a model: a map built in code (the sandbox's, a test's)
            skipped.append(SkippedRow(index=index, problem="record"))
            continue
        raw_name = row.get("domain") if isinstance(row, dict) else getattr(row, "domain", None)
        name = plain_text(raw_name) if isinstance(raw_name, str) and raw_name.strip() else None
        try:
            value = validate(row)
        except ValidationError as exc:
            skipped.append(SkippedRow(index=index, problem=_problem(exc), name=name))
            continue
        if not plain_domain(str(raw_name)):
            skipped.append(
                SkippedRow(index=index, problem="not_a_domain" if name else "no_domain", name=name)
            )
            continue
        usable.append(value)
    return usable, skipped
