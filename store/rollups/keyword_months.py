"""Each keyword's rows tallied by month (``keyword_months``), so the History page's keyword summary and
each keyword's best ever read about a dozen rows a keyword a year, not its every day.

A site's month is tallied (days recorded, days in the top 10, best position and the first day at it, the
newest two days with their position and bar) on the first read that finds it missing or stale, and kept
with the version it was tallied at: the sum of the versions of the month's days
(``keyword_day_versions``, raised by every write of a day's keyword rows, ``bump_keyword_days``).
Versions only grow, so a month whose sum moved on had a day written since. The stamp also says the
month's last day with a version then (``through``; the tallies hold the days up to it): when the days up
to it still add up to the stamp, only later days were written (the daily job's new day), and those
days' tallies are added to the kept ones; otherwise the month is tallied again. Adding is claimed by
moving the stamp on in the same transaction, so two readers never add the same days twice.

A period is read as pieces in one statement (``store.rollups.keyword_pieces``): the kept months, and
the days of the months it covers in part tallied from their rows. A month that could not be kept
(another reader kept it first, a read-only database) is read from its rows the same way, so the answer
never waits on a write.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

import pandas as pd
from sqlalchemy import Date, bindparam, delete, insert, select, text, update

from schema.history import KEYWORD_BEST_COLUMNS, KEYWORD_SUMMARY_COLUMNS
from store.engine import Connected, StoreUnavailable, tune_large_read
from store.partitions import month_of
from store.queries import history_frame
from store.rollups.keyword_pieces import (
    BEST,
    BEST_COLUMNS,
    COLUMNS,
    SUMMARY,
    SUMMARY_COLUMNS,
    TALLY,
    TOP_10,
    TYPES,
    pieces,
    union,
)
from store.rollups.tables import KEYWORD_MONTHS, MONTH_STAMPS, keyword_day_versions
from store.rows import subject_name
from store.watchlist import check_account

logger = logging.getLogger(__name__)

#: A month's days from ``:since`` to the day before ``:before`` tallied and kept, at the database.
_KEEP = """
INSERT INTO keyword_months (account, site, month, {columns})
SELECT :account, :site, :month, {columns} FROM ({tally}) AS tallied WHERE true
""".format(columns=COLUMNS, tally=TALLY.format(since=":since", before=":before"))
#: The same days added to the month's kept tallies, all later than the days they hold: counts add up, a
#: better position is the best (a tie keeps the earlier day), the newest days are the new ones'.
_EXTEND = (
    _KEEP
    + """
ON CONFLICT (account, site, keyword, month) DO UPDATE SET
    days_recorded = keyword_months.days_recorded + excluded.days_recorded,
    days_in_top_10 = keyword_months.days_in_top_10 + excluded.days_in_top_10,
    best_position = CASE
        WHEN keyword_months.best_position IS NULL OR excluded.best_position < keyword_months.best_position
        THEN excluded.best_position ELSE keyword_months.best_position END,
    best_day = CASE
        WHEN keyword_months.best_position IS NULL OR excluded.best_position < keyword_months.best_position
        THEN excluded.best_day ELSE keyword_months.best_day END,
    last_day = excluded.last_day,
    last_position = excluded.last_position,
    last_median_dr = excluded.last_median_dr,
    last_gap = excluded.last_gap,
    before_last_day = COALESCE(excluded.before_last_day, keyword_months.last_day),
    before_last_position = CASE
        WHEN excluded.before_last_day IS NOT NULL THEN excluded.before_last_position
        ELSE keyword_months.last_position END
"""
)


class KeywordMonths(Connected):
    """The keyword months of ``HistoryStore.queries``: kept on read, read as a period's pieces."""

    def summary(
        self, account: str, site: str, since: date | None = None, until: date | None = None
    ) -> pd.DataFrame:
        """One row per keyword of ``site`` recorded from ``since`` to ``until`` (each end open when None;
        ``KEYWORD_SUMMARY_COLUMNS``, by keyword): what ``analysis.figures.history_frames.keyword_summary``
        makes of the period's rows, without reading them. Its days recorded and in the top 10, its latest
        day with that day's position and bar, the places gained since the recorded day before, and its
        best ever with the first day at it (all-time, whatever the period), from the period's pieces."""
        found = self._read(SUMMARY, SUMMARY_COLUMNS, account, site, since, until)
        earlier = pd.to_numeric(found["earlier"]).astype("Float64")
        found["change"] = (earlier - pd.to_numeric(found["position"]).astype("Float64")).to_numpy()
        return history_frame(
            found.loc[:, list(KEYWORD_SUMMARY_COLUMNS)].itertuples(index=False), KEYWORD_SUMMARY_COLUMNS
        )

    def best(self, account: str, site: str) -> pd.DataFrame:
        """Each keyword of ``site`` that ever ranked: its best position in all the history kept and the
        first day it was reached (``KEYWORD_BEST_COLUMNS``), by keyword. All-time on purpose: a "best
        ever" read from a period's rows would change with the period."""
        found = self._read(BEST, BEST_COLUMNS, account, site, None, None)
        return history_frame(found.itertuples(index=False), KEYWORD_BEST_COLUMNS)

    def _read(
        self,
        template: str,
        columns: tuple[str, ...],
        account: str,
        site: str,
        since: date | None,
        until: date | None,
    ) -> pd.DataFrame:
        """``template`` (``SUMMARY`` or ``BEST``) over the pieces of the site's period, its months kept
        first; ``columns`` by keyword (none when nothing is recorded in the period)."""
        account, site = check_account(account), subject_name(site)
        found = pieces(*self._keep_stale(account, site), since, until)
        if not any(piece.in_period for piece in found):
            return pd.DataFrame(columns=list(columns))
        statement, days = union(found)
        query = text(template.format(pieces=statement)).bindparams(
            *(bindparam(name, type_=Date) for name in days)
        )
        typed = query.columns(**{name: TYPES[name] for name in columns})
        with self._reading() as conn:
            tune_large_read(conn)
            rows = conn.execute(typed, {**days, "account": account, "site": site, "top": TOP_10}).all()
        return pd.DataFrame([tuple(row) for row in rows], columns=list(columns))

    def _keep_stale(self, account: str, site: str) -> tuple[set[date], set[date]]:
        """Tally and keep the site's months that are missing or stale: the months with keyword rows, and
        those of them now kept (the rest are read from their rows)."""
        with self._reading() as conn:
            versions = keyword_day_versions(conn, account)
            stamps = {
                month: _Stamp(version, through)
                for month, version, through in conn.execute(
                    select(MONTH_STAMPS.c.month, MONTH_STAMPS.c.version, MONTH_STAMPS.c.through).where(
                        MONTH_STAMPS.c.account == account, MONTH_STAMPS.c.site == site
                    )
                )
            }
        days: dict[date, dict[date, int]] = defaultdict(dict)
        for day, version in versions.items():
            days[month_of(day)][day] = version
        kept = set()
        for month, of_month in sorted(days.items()):
            stamp = _Stamp(sum(of_month.values()), max(of_month))
            stored = stamps.get(month)
            if stored == stamp or self._keep(account, site, month, stamp, stored, of_month):
                kept.add(month)
        return set(days), kept

    def _keep(
        self,
        account: str,
        site: str,
        month: date,
        stamp: _Stamp,
        stored: _Stamp | None,
        versions: dict[date, int],
    ) -> bool:
        """Keep ``month``'s tallies at ``stamp``, at the database: the days after those kept added to
        them when only they changed (the daily job's new day), else the month tallied afresh up to its
        last day with a version. False when the write was refused (another reader kept it first, or a
        read-only database): the month is then read from its rows."""
        of_month = {"account": account, "site": site, "month": month}
        extended = stored if stored is not None and _unchanged_through(stored, versions) else None
        since = extended.through + timedelta(days=1) if extended else month
        params = {**of_month, "since": since, "before": stamp.through + timedelta(days=1), "top": TOP_10}
        new_stamp = {**of_month, "version": stamp.version, "through": stamp.through}
        try:
            with self._writing() as conn:
                if extended:
                    claimed = conn.execute(
                        update(MONTH_STAMPS)
                        .where(*_of_month(MONTH_STAMPS, account, site, month))
                        .where(MONTH_STAMPS.c.version == extended.version)
                        .where(MONTH_STAMPS.c.through == extended.through)
                        .values(version=stamp.version, through=stamp.through)
                    )
                    if claimed.rowcount != 1:  # another reader moved the month on first
                        return False
                    conn.execute(_bound(_EXTEND), params)
                    return True
                for table in (KEYWORD_MONTHS, MONTH_STAMPS):
                    conn.execute(delete(table).where(*_of_month(table, account, site, month)))
                conn.execute(_bound(_KEEP), params)
                conn.execute(insert(MONTH_STAMPS), [new_stamp])
            return True
        except StoreUnavailable as exc:
            logger.info("keyword month not kept: %s", exc)
            return False


@dataclass(frozen=True)
class _Stamp:
    """A month's version (the sum of its days' versions) and its last day with a version."""

    version: int
    through: date


def _unchanged_through(stamp: _Stamp, versions: dict[date, int]) -> bool:
    """Whether the month's days up to the stamp's last day still add up to its version: none of them was
    written since, so only later days were (versions only grow)."""
    return sum(version for day, version in versions.items() if day <= stamp.through) == stamp.version


def _of_month(table: Any, account: str, site: str, month: date) -> list[Any]:
    return [table.c.account == account, table.c.site == site, table.c.month == month]


def _bound(statement: str) -> Any:
    return text(statement).bindparams(*(bindparam(name, type_=Date) for name in ("month", "since", "before")))
