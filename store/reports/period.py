"""A report's period: a calendar month by default (``YYYY-MM``), or any span of whole days.

One place says how a period reads ("October 2026", "3–17 October 2026") and which month is "last
month", so the page, the command, the schedule and the share link agree.
"""

from __future__ import annotations

import calendar
from dataclasses import dataclass
from datetime import date, timedelta


class BadPeriod(ValueError):
    """A period that cannot be used; the message says why in plain words."""


@dataclass(frozen=True, order=True)
class Period:
    """The days ``start`` to ``end``, both included."""

    start: date
    end: date

    def __post_init__(self) -> None:
        if self.end < self.start:
            raise BadPeriod(f"the period ends ({self.end}) before it starts ({self.start})")

    @property
    def days(self) -> int:
        return (self.end - self.start).days + 1

    @property
    def is_month(self) -> bool:
        return self.start.day == 1 and self.end == month_end(self.start)

    @property
    def words(self) -> str:
        """ "October 2026" for a whole month, else "3–17 October 2026" or "28 September – 4 October 2026"."""
        if self.is_month:
            return f"{calendar.month_name[self.start.month]} {self.start.year}"
        end = f"{self.end.day} {calendar.month_name[self.end.month]} {self.end.year}"
        if (self.start.year, self.start.month) == (self.end.year, self.end.month):
            return f"{self.start.day}–{end}"
        start_year = "" if self.start.year == self.end.year else f" {self.start.year}"
        return f"{self.start.day} {calendar.month_name[self.start.month]}{start_year} – {end}"

    @property
    def slug(self) -> str:
        """For file names: "2026-10" for a month, else "2026-10-03_2026-10-17"."""
        if self.is_month:
            return self.start.strftime("%Y-%m")
        return f"{self.start.isoformat()}_{self.end.isoformat()}"


def month_end(day: date) -> date:
    return day.replace(day=calendar.monthrange(day.year, day.month)[1])


def month_of(day: date) -> Period:
    """The calendar month ``day`` falls in."""
    return Period(day.replace(day=1), month_end(day))


def last_month(today: date) -> Period:
    """The last whole month before ``today``'s (the default report, and what a schedule sends)."""
    return month_of(today.replace(day=1) - timedelta(days=1))


def parse_month(text: str) -> Period:
    """``YYYY-MM`` → that month; BadPeriod otherwise."""
    try:
        year, month = (int(part) for part in text.strip().split("-"))
        return month_of(date(year, month, 1))
    except ValueError:
        raise BadPeriod(f"{text!r} is not a month written YYYY-MM") from None
