"""How the app writes numbers, signs, counts, days and a missing value in words: each said one way.

Pure (strings in, strings out), shared by the pages, the alerts, the digest and the reports. Two marks
for a value the service did not give: ``NOT_AVAILABLE`` in sentences and metrics on the pages,
``NO_VALUE`` (a dash) in a table cell or a document. Two ways to write a day: ``say_day`` ("4 Mar 2025")
in sentences and documents, ``screen_day`` ("Mar 04, 2025") where a page lists days next to its charts,
whose hover labels write them so; ``iso_day`` where a day is data (a CSV, a plain-text line).
Escaping for Markdown is not here: it belongs to the pages (``analysis.text``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import date
from typing import Any

import pandas as pd

from client.map_rows import SkippedRow

#: A value the service did not give, in a sentence or a metric on a page.
NOT_AVAILABLE = "not available"
#: A value the service did not give, in a table cell or a document (report, digest, webhook).
NO_VALUE = "—"


def is_missing(value: object) -> bool:
    """Whether ``value`` holds no value: None, ``pd.NA`` or NaN (a frame's empty cell)."""
    return value is None or value is pd.NA or (isinstance(value, float) and math.isnan(value))


# --- numbers ------------------------------------------------------------------------------------


def whole_number(value: Any, missing: str = NOT_AVAILABLE) -> str:
    """A whole number with thousands separators (``12,345``); ``missing`` when there is none."""
    if is_missing(value):
        return missing
    return f"{round(float(value)):,}"


def short_number(value: Any, digits: int = 1, missing: str = NOT_AVAILABLE) -> str:
    """A number with separators and at most ``digits`` decimals, without trailing zeros (``2.5``, ``3``)."""
    if is_missing(value):
        return missing
    text = f"{float(value):,.{digits}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


#: A table column's format for a change of a count, written as ``signed_whole`` writes it (``+1,200``).
SIGNED_WHOLE_FORMAT = "%+,d"


def signed_whole(value: Any, missing: str = NO_VALUE) -> str:
    """A change as a signed whole number (``+3``, ``-1,200``), no change as ``±0``."""
    if is_missing(value):
        return missing
    rounded = round(float(value))
    return f"{rounded:+,}" if rounded else "±0"


def direction(value: Any, *, higher_is_better: bool = True) -> str:
    """ "up" for a change for the better, "down" for one for the worse, "" for none (or none known)."""
    if is_missing(value) or not value:
        return ""
    return "up" if (float(value) > 0) == higher_is_better else "down"


def yes_no(value: bool | None, yes: str = "yes", no: str = "no") -> str:
    if value is None:
        return NOT_AVAILABLE
    return yes if value else no


def text_or_dash(value: Any) -> str:
    """A stored value as text, ``NO_VALUE`` when there is none (an alert's before and after)."""
    return NO_VALUE if is_missing(value) else str(value)


# --- counts -------------------------------------------------------------------------------------


def plural(count: float, one: str, many: str | None = None) -> str:
    """The noun for ``count`` of it: ``one`` for 1, else ``many`` (``one`` + "s" unless given)."""
    return one if count == 1 else many or one + "s"


def counted(count: int, one: str, many: str | None = None, *, zero_as_no: bool = False) -> str:
    """ "3 keywords", "1 keyword" (separators from 1,000); with ``zero_as_no``, 0 is "no keywords"."""
    if zero_as_no and not count:
        return f"no {plural(0, one, many)}"
    return f"{count:,} {plural(count, one, many)}"


def named_first(names: Sequence[str], shown: int) -> str:
    """The first ``shown`` of ``names`` and how many more: "a, b and 3 more" (separators from 1,000)."""
    rest = len(names) - shown
    return ", ".join(names[:shown]) + (f" and {rest:,} more" if rest > 0 else "")


#: How many skipped rows a sentence names one by one (the rest are counted).
SKIPPED_NAMED = 3


def skipped_rows_words(skipped: Sequence[SkippedRow]) -> str:
    """What a Trust Map left out, in one sentence: "1 referring domain in the answer could not be used:
    row 4 ("=cmd…"): its name is not a domain name." ("" when nothing was). Names are plain text; a page
    escapes the sentence as it escapes any text."""
    if not skipped:
        return ""
    named = "; ".join(row.words for row in skipped[:SKIPPED_NAMED])
    more = len(skipped) - SKIPPED_NAMED
    rest = f"; and {counted(more, 'other')}" if more > 0 else ""
    return f"{counted(len(skipped), 'referring domain')} in the answer could not be used: {named}{rest}."


def duration_words(seconds: float) -> str:
    """A length of time as a progress line says it: "45 s", "4 min 10 s", "1 h 5 min" (whole seconds,
    at least "1 s"; the smallest unit dropped once there are hours)."""
    whole = max(1, round(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours} h {minutes} min" if minutes else f"{hours} h"
    if minutes:
        return f"{minutes} min {secs} s" if secs else f"{minutes} min"
    return f"{secs} s"


# --- days ---------------------------------------------------------------------------------------


def _as_date(value: Any) -> date:
    return pd.Timestamp(value).date()


def say_day(value: Any) -> str:
    """A day as people write it in a sentence or a document: "4 Mar 2025"; ``NO_VALUE`` when missing."""
    if is_missing(value):
        return NO_VALUE
    day = _as_date(value)
    return f"{day.day} {day:%b %Y}"


def screen_day(value: Any) -> str:
    """A day as the pages list it beside their charts (whose hover labels write it so): "Mar 04, 2025"."""
    return f"{_as_date(value):%b %d, %Y}"


def iso_day(value: Any) -> str:
    """A day as data: "2025-03-04"."""
    return _as_date(value).isoformat()


def change_since(change: Any, since: Any, *, unit: str = "points", digits: int = 1) -> str:
    """A figure's move over a period, as a metric card says it: "+1.3 points since Aug 30, 2026"; a
    move that rounds to nothing is "no change since Aug 30, 2026"."""
    rounded = round(float(change), digits)
    day = screen_day(since)
    if not rounded:
        return f"no change since {day}"
    return f"{rounded:+,.{digits}f} {unit} since {day}"


def period_words(start: date, end: date) -> str:
    """16–22 Nov 2026, 28 Nov – 4 Dec 2026, 28 Dec 2026 – 3 Jan 2027."""
    if start == end:
        return f"{end.day} {end:%b %Y}"
    if (start.year, start.month) == (end.year, end.month):
        return f"{start.day}–{end.day} {end:%b %Y}"
    if start.year == end.year:
        return f"{start.day} {start:%b} – {end.day} {end:%b %Y}"
    return f"{start.day} {start:%b %Y} – {end.day} {end:%b %Y}"


def in_days(days: int) -> str:
    """How long a change took: "in 7 days"."""
    return f"in {days} {plural(days, 'day')}"
