"""Each top 10's DRs of a day, summed up once and kept (``HistoryStore.dr_days``): the DR spread of a
period read from ``top10_dr_days`` instead of ranked again over every top-10 row of it.

``DrDays.spread`` answers exactly what ``store.market.MarketSums.dr_spread`` answers (``SPREAD_COLUMNS``)
for one site's keywords: the median, lowest and highest DR per day and keyword, of the whole top 10 or
of the results that are not the site's own (``excluding`` the site: the domains it has to pass, what a
report's next steps and the Opportunities page project against). A report reads the whole history of
every watched keyword: at 5,000 keywords a year that was ranking 18 million rows on every report; from
the roll-up it is reading one row a keyword and day.

**What is kept.** One row per site, keyword and day with a rated result, for every site of the account
(a day is summed for all its top 10s at once, by one INSERT … SELECT at the database), and per day the
version of its top 10s it was summed at (``top10_dr_stamps``). Every write of an account's top 10s
raises that day's version (``store.rollups.tables.bump_days``); a day whose stamp differs, that has top
10s but no stamp, or a stamp but no top 10s any more, is summed again on the next read, a month of days
per transaction (a first read of a long history that is stopped keeps what it finished). The days a
period holds are read from the top 10s' index (``store.walks.period_days``), so a day written around the
store is still seen.

**Other reads** (every site's keywords at once, a group chosen by (site, keyword) pairs, leaving out a
domain other than the site) are not what the roll-up holds: they are summed from the rows, as before.
Keeping the roll-up is best effort: when the database refuses the write (a read-only standby, another
replica summing the same days) the spread is summed from the rows all the same.
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

import numpy as np
import pandas as pd
from sqlalchemy import Connection, Engine, Float, and_, case, cast, delete, func, insert, literal, select

from store.engine import Connected, StoreUnavailable, collector_paused, driver_rows, tune_large_read
from store.market import CHOSEN_KEYWORDS, SERPS, MarketSums
from store.rollups.tables import DR_DAYS, DR_STAMPS, day_versions, within_period
from store.spread import day_stamps, middle_place, spread_frame
from store.walks import period_days
from store.watchlist import check_account, subject_name

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class KeptSeries:
    """Rows of the kept sums as columns, ordered by keyword then day: each row's keyword, its day
    (``datetime64[ns]``), and its median and lowest DR (``drs``, one column each)."""

    keywords: list[str]
    days: np.ndarray
    drs: np.ndarray


#: Days summed in one transaction: a first read of a year keeps its work month by month.
DAYS_PER_WRITE = 31


def _summed(account: str, days: Sequence[date]) -> Any:
    """The ``top10_dr_days`` rows of the account's top 10s of ``days``, summed by one SELECT."""
    top10 = (SERPS.c.site, SERPS.c.keyword, SERPS.c.day)
    rival = case((SERPS.c.domain != SERPS.c.site, 1), else_=0)
    ranked = (
        select(
            SERPS.c.site,
            SERPS.c.keyword,
            SERPS.c.day,
            cast(SERPS.c.dr, Float).label("dr"),
            rival.label("rival"),
            func.row_number().over(partition_by=top10, order_by=SERPS.c.dr).label("place"),
            func.count().over(partition_by=top10).label("rated"),
            func.row_number().over(partition_by=(*top10, rival), order_by=SERPS.c.dr).label("rival_place"),
            func.count().over(partition_by=(*top10, rival)).label("rivals"),
        )
        .where(SERPS.c.account == account, SERPS.c.day.in_(days), SERPS.c.dr.is_not(None))
        .subquery()
    )
    is_rival, rival_middle = ranked.c.rival == 1, middle_place(ranked.c.rival_place, ranked.c.rivals)
    return select(
        literal(account).label("account"),
        ranked.c.site,
        ranked.c.keyword,
        ranked.c.day,
        func.max(ranked.c.rated).label("rated"),
        func.avg(case((middle_place(ranked.c.place, ranked.c.rated), ranked.c.dr))).label("median_dr"),
        func.min(ranked.c.dr).label("min_dr"),
        func.max(ranked.c.dr).label("max_dr"),
        func.sum(ranked.c.rival).label("rivals_rated"),
        func.avg(case((and_(is_rival, rival_middle), ranked.c.dr))).label("rivals_median_dr"),
        func.min(case((is_rival, ranked.c.dr))).label("rivals_min_dr"),
        func.max(case((is_rival, ranked.c.dr))).label("rivals_max_dr"),
    ).group_by(ranked.c.site, ranked.c.keyword, ranked.c.day)


_SUMMED_COLUMNS = [
    "account", "site", "keyword", "day", "rated", "median_dr", "min_dr", "max_dr",
    "rivals_rated", "rivals_median_dr", "rivals_min_dr", "rivals_max_dr",
]  # fmt: skip


class DrDays(Connected):
    """The DR spread of one site's keywords from the kept daily sums (``MarketSums.dr_spread`` for the
    reads they do not hold)."""

    def __init__(self, engine: Engine, writer: Engine, url: str, sums: MarketSums) -> None:
        super().__init__(engine, writer, url)
        self._sums = sums

    def spread(
        self,
        account: str,
        site: str | None,
        *,
        since: date | None,
        until: date | None,
        keywords: Collection[str] | None = None,
        pairs: Collection[tuple[str, str]] | None = None,
        excluding: str | None = None,
    ) -> pd.DataFrame:
        """``MarketSums.dr_spread`` of the same arguments, read from the kept sums when they hold it."""
        account = check_account(account)
        if site is not None and pairs is None and self._holds(account, site, since, until, excluding):
            return self._kept(account, site, since, until, keywords, rivals=excluding is not None)
        return self._sums.dr_spread(
            account, site, since=since, until=until, keywords=keywords, pairs=pairs, excluding=excluding
        )

    def series(
        self,
        account: str,
        site: str,
        *,
        since: date | None,
        until: date | None,
        keywords: Collection[str] | None = None,
        excluding: str | None = None,
    ) -> KeptSeries | None:
        """The median and lowest DR of ``site``'s keywords by day, as ``spread`` reads them (only its rows
        with a rated result), straight into columns ordered by keyword then day, no frame made: what a
        report projects every watched keyword from (1.8 million rows at 5,000 keywords a year). None when
        the kept sums do not hold this read: the caller sums ``spread`` from the rows instead."""
        account = check_account(account)
        if not self._holds(account, site, since, until, excluding):
            return None
        rivals = excluding is not None
        rows = self._rows(account, site, since, until, keywords, rivals, ("median_dr", "min_dr"))
        with collector_paused():
            days, names, medians, lowest = zip(*rows, strict=True) if rows else ((), (), (), ())
            return KeptSeries(
                list(names),
                day_stamps(days).to_numpy(),
                np.column_stack([np.asarray(medians, dtype="float64"), np.asarray(lowest, dtype="float64")]),
            )

    def _holds(
        self, account: str, site: str, since: date | None, until: date | None, excluding: str | None
    ) -> bool:
        """Whether the kept sums answer a read of ``site``'s keywords without ``excluding``, kept up to
        date for the period first (best effort: a refused write leaves the read to the rows)."""
        if excluding not in (None, subject_name(site)):
            return False
        try:
            self.keep(account, since, until)
        except StoreUnavailable as exc:  # a read-only database, or another replica summing the same days
            logger.info("top-10 DR roll-up not kept: %s", exc)
            return False
        return True

    def _kept(
        self,
        account: str,
        site: str,
        since: date | None,
        until: date | None,
        keywords: Collection[str] | None,
        *,
        rivals: bool,
    ) -> pd.DataFrame:
        """The spread of ``site``'s keywords (only ``keywords`` when given) read from the kept sums: of the
        results that are not the site's own with ``rivals``, else of the whole top 10."""
        rows = self._rows(
            account, site, since, until, keywords, rivals, ("median_dr", "min_dr", "max_dr", "rated")
        )
        with collector_paused():
            frame = spread_frame(rows)
            return frame.sort_values("day", kind="stable", ignore_index=True)  # keywords stay in order

    def _rows(
        self,
        account: str,
        site: str,
        since: date | None,
        until: date | None,
        keywords: Collection[str] | None,
        rivals: bool,
        columns: Sequence[str],
    ) -> Sequence[Any]:
        """(day, keyword, ``columns``…) of ``site``'s kept rows with a rated result (only ``keywords``
        when given), of the results that are not the site's own with ``rivals``, else of the whole top
        10; by keyword and day, the order of the kept rows' key (no sort at the database)."""
        prefix = "rivals_" if rivals else ""
        query = select(DR_DAYS.c.day, DR_DAYS.c.keyword, *(DR_DAYS.c[f"{prefix}{name}"] for name in columns))
        query = query.where(
            DR_DAYS.c.account == account,
            DR_DAYS.c.site == subject_name(site),
            DR_DAYS.c[f"{prefix}rated"] > 0,
        )
        query = within_period(query, DR_DAYS.c.day, since, until).order_by(DR_DAYS.c.keyword, DR_DAYS.c.day)
        with self._sums.with_data((), {}, keywords, None) as conn, collector_paused():
            if keywords is not None:
                query = query.join(CHOSEN_KEYWORDS, CHOSEN_KEYWORDS.c.keyword == DR_DAYS.c.keyword)
            return driver_rows(conn, query)

    def keep(self, account: str, since: date | None, until: date | None) -> int:
        """Sum again the account's days from ``since`` to ``until`` whose kept sums are missing or stale
        (a month of days a transaction); how many days were summed. StoreUnavailable when a write is
        refused."""
        account = check_account(account)
        with self._reading() as conn:
            stale, versions, present = self._stale(conn, account, since, until)
        for start in range(0, len(stale), DAYS_PER_WRITE):
            days = stale[start : start + DAYS_PER_WRITE]
            with self._writing() as conn:
                tune_large_read(conn)
                self._sum_again(conn, account, days, versions, present)
        return len(stale)

    @staticmethod
    def _stale(
        conn: Connection, account: str, since: date | None, until: date | None
    ) -> tuple[list[date], dict[date, int], set[date]]:
        """The days of the period to sum again, the versions of the period's days and the days it has
        top 10s on."""
        versions = day_versions(conn, account, since, until)
        stamps = dict(conn.execute(within_period(
            select(DR_STAMPS.c.day, DR_STAMPS.c.version).where(DR_STAMPS.c.account == account),
            DR_STAMPS.c.day, since, until,
        )).all())  # fmt: skip
        present = set(period_days(conn, account, None, since, until))
        stale = sorted(
            day
            for day in present | set(stamps)
            if day not in present or day not in stamps or stamps[day] != versions.get(day, 0)
        )
        return stale, versions, present

    @staticmethod
    def _sum_again(
        conn: Connection, account: str, days: list[date], versions: dict[date, int], present_days: set[date]
    ) -> None:
        """Replace the kept sums of ``days`` by the sums of their top 10s now, and stamp each day that has
        any with its version."""
        for table in (DR_DAYS, DR_STAMPS):
            conn.execute(delete(table).where(table.c.account == account, table.c.day.in_(days)))
        conn.execute(insert(DR_DAYS).from_select(_SUMMED_COLUMNS, _summed(account, days)))
        present = [day for day in days if day in present_days]
        if present:
            conn.execute(
                insert(DR_STAMPS),
                [{"account": account, "day": day, "version": versions.get(day, 0)} for day in present],
            )
