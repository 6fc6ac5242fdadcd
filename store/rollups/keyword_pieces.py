"""How a period of one site's keyword rows is read from its keyword months (``store.rollups.
keyword_months``): the tally of a run of days (``TALLY``, the one definition of a month's tallies, kept or
read from the rows), the period cut into pieces, and the one statement that adds them up per keyword.

A piece is a run of whole kept months, or days tallied from their rows: the part of a month the period
covers in part, or a month not kept. Each piece says whether it counts for the period (its days are
inside it) and for the best ever (all-time, whatever the period): a month the period cuts is one piece
for the best ever (kept whole) and another for the period (its days inside, from the rows). Adding up:
the period's counts are summed; its latest day is its newest piece's, and the recorded day before it is
that piece's second newest, or else the next piece's newest; the best ever is the lowest best position
of any piece and the first day at it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from sqlalchemy import Date, Float, Integer, String

from store.partitions import month_of, next_month

TOP_10 = 10
#: A month's tallies of one keyword, as ``keyword_months`` keeps them and a piece gives them.
TALLIES = (
    "keyword",
    "days_recorded",
    "days_in_top_10",
    "best_position",
    "best_day",
    "last_day",
    "last_position",
    "last_median_dr",
    "last_gap",
    "before_last_day",
    "before_last_position",
)
COLUMNS = ", ".join(TALLIES)
#: What ``summary`` gives for each keyword, and ``best``.
SUMMARY_COLUMNS = (
    "keyword",
    "days_recorded",
    "days_in_top_10",
    "latest_day",
    "position",
    "median_dr",
    "gap",
    "earlier",
    "best_position",
    "best_day",
)
BEST_COLUMNS = ("keyword", "best_position", "best_day")
TYPES: dict[str, Any] = {
    "keyword": String,
    **dict.fromkeys(("days_recorded", "days_in_top_10", "best_position", "position", "earlier"), Integer),
    **dict.fromkeys(("last_position", "before_last_position"), Integer),
    **dict.fromkeys(("best_day", "last_day", "before_last_day", "latest_day"), Date),
    **dict.fromkeys(("last_median_dr", "last_gap", "median_dr", "gap"), Float),
}

#: The tallies of one site's keyword rows from ``{since}`` to the day before ``{before}``.
TALLY = """
SELECT keyword,
    COUNT(*) AS days_recorded,
    COUNT(CASE WHEN position <= :top THEN 1 END) AS days_in_top_10,
    MIN(position) AS best_position,
    MAX(CASE WHEN best = 1 AND position IS NOT NULL THEN day END) AS best_day,
    MAX(CASE WHEN newest = 1 THEN day END) AS last_day,
    MAX(CASE WHEN newest = 1 THEN position END) AS last_position,
    MAX(CASE WHEN newest = 1 THEN median_dr END) AS last_median_dr,
    MAX(CASE WHEN newest = 1 THEN gap END) AS last_gap,
    MAX(CASE WHEN newest = 2 THEN day END) AS before_last_day,
    MAX(CASE WHEN newest = 2 THEN position END) AS before_last_position
FROM (
    SELECT keyword, day, position, median_dr, gap,
        ROW_NUMBER() OVER (PARTITION BY keyword ORDER BY day DESC) AS newest,
        ROW_NUMBER() OVER (
            PARTITION BY keyword ORDER BY CASE WHEN position IS NULL THEN 1 ELSE 0 END, position, day
        ) AS best
    FROM keyword_snapshots
    WHERE account = :account AND site = :site AND day >= {since} AND day < {before}
) AS ranked
GROUP BY keyword
"""
#: A run of kept months, as a piece.
_KEPT = """
SELECT {columns} FROM keyword_months
WHERE account = :account AND site = :site AND month >= {since} AND month < {before}
"""
_PIECE = "SELECT {for_best} AS for_best, {in_period} AS in_period, tallied.* FROM ({part}) AS tallied"

#: Every piece's tallies added up per keyword recorded in the period, with its best ever.
SUMMARY = """
WITH pieces AS ({pieces}),
ordered AS (
    SELECT pieces.*,
        ROW_NUMBER() OVER (PARTITION BY keyword ORDER BY in_period DESC, last_day DESC) AS piece,
        MIN(CASE WHEN for_best = 1 THEN best_position END) OVER (PARTITION BY keyword) AS best_ever
    FROM pieces
)
SELECT keyword,
    SUM(CASE WHEN in_period = 1 THEN days_recorded END) AS days_recorded,
    SUM(CASE WHEN in_period = 1 THEN days_in_top_10 END) AS days_in_top_10,
    MAX(CASE WHEN piece = 1 THEN last_day END) AS latest_day,
    MAX(CASE WHEN piece = 1 THEN last_position END) AS position,
    MAX(CASE WHEN piece = 1 THEN last_median_dr END) AS median_dr,
    MAX(CASE WHEN piece = 1 THEN last_gap END) AS gap,
    CASE WHEN MAX(CASE WHEN piece = 1 THEN before_last_day END) IS NOT NULL
        THEN MAX(CASE WHEN piece = 1 THEN before_last_position END)
        ELSE MAX(CASE WHEN piece = 2 AND in_period = 1 THEN last_position END)
    END AS earlier,
    MIN(best_ever) AS best_position,
    MIN(CASE WHEN for_best = 1 AND best_position = best_ever THEN best_day END) AS best_day
FROM ordered
GROUP BY keyword
HAVING MAX(in_period) = 1
ORDER BY keyword
"""
#: Each keyword's best ever alone: its lowest best position over every piece, the first day at it.
BEST = """
WITH pieces AS ({pieces})
SELECT keyword, best_position, best_day FROM (
    SELECT keyword, best_position, best_day,
        ROW_NUMBER() OVER (PARTITION BY keyword ORDER BY best_position, best_day) AS nth
    FROM pieces WHERE best_position IS NOT NULL
) AS ranked
WHERE nth = 1
ORDER BY keyword
"""


@dataclass(frozen=True)
class Piece:
    """Days ``since`` to the day before ``before``: whole kept months (``kept``) or rows to tally, and
    what they count for."""

    since: date
    before: date
    kept: bool
    for_best: bool = True
    in_period: bool = True


def pieces(known: set[date], kept: set[date], since: date | None, until: date | None) -> list[Piece]:
    """The site's history cut into pieces, month by month, for a period from ``since`` to ``until``
    (each end open when None): ``known`` the months with keyword rows (a day version), ``kept`` those
    kept. Adjacent pieces of the same kind are one run."""
    if not known:
        return []
    start = since or min(known)
    after = until + timedelta(days=1) if until is not None else next_month(max(known))
    found: list[Piece] = []
    month = month_of(min(start, min(known)))
    while month <= max(month_of(after - timedelta(days=1)), max(known)):
        following = next_month(month)
        inside = (max(month, start), min(following, after))
        if inside == (month, following):
            found.append(Piece(month, following, month in kept))
        elif inside[0] >= inside[1]:
            found.append(Piece(month, following, month in kept, in_period=False))
        else:
            found.append(Piece(month, following, month in kept, in_period=False))
            found.append(Piece(*inside, kept=False, for_best=False))
        month = following
    return _runs(found)


def _runs(found: Sequence[Piece]) -> list[Piece]:
    runs: list[Piece] = []
    for piece in found:
        last = runs[-1] if runs else None
        if (
            last is not None
            and last.before == piece.since
            and (last.kept, last.for_best, last.in_period) == (piece.kept, piece.for_best, piece.in_period)
        ):
            runs[-1] = Piece(last.since, piece.before, piece.kept, piece.for_best, piece.in_period)
        else:
            runs.append(piece)
    return runs


def union(found: Sequence[Piece]) -> tuple[str, dict[str, date]]:
    """The pieces' tallies (``for_best``, ``in_period``, then ``TALLIES``) as one SELECT, and its days'
    parameters. Only constant text and numbered parameter names go into the statement."""
    parts, params = [], {}
    for n, piece in enumerate(found):
        since, before = f"since_{n}", f"before_{n}"
        params[since], params[before] = piece.since, piece.before
        template = _KEPT if piece.kept else TALLY
        part = template.format(columns=COLUMNS, since=f":{since}", before=f":{before}")
        parts.append(_PIECE.format(for_best=int(piece.for_best), in_period=int(piece.in_period), part=part))
    return "\nUNION ALL\n".join(parts), params
