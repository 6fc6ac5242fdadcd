"""Each keyword's latest search volume and latest impressions, kept (``HistoryStore.latest_values``): the
weights of the Market page's volume-weighted visibility, which every page, report, feed and command
reads before its sums (they are part of the roll-ups' key, ``store.rollups.days``).

Found by walking every keyword down the index (``store.walks.latest_value_rows``), that read probes every
month's partition a keyword on PostgreSQL: 0.8 s of the Market page's first view at 5,000 keywords. Kept,
a read takes a few thousand rows. The kept rows are each keyword's latest row with a value of each
measure among all sites' keyword rows (its day, its site, the value): the latest value from any day on
is the kept one when its day is on or after that day, else there is none.

They are stamped with the keyword rows' day versions they hold (``keyword_day_versions``, raised by every
write of a day's keyword rows): the last day with a version then (``through``), its version, and the sum
of the versions of the days before it. Versions only grow, so when the days before ``through`` still add
up to the stamp, only that day and later ones were written (the daily job's day, in one run or several):
the rows of those days are read and their values, newer than any kept from before, replace the kept
ones. Otherwise (an older day written again, or a value taken away from the days read) every keyword is
walked again. The new stamp is claimed in the same transaction as the values (an update of the stamp
that was read), so two readers never keep different answers; a reader that cannot write (another kept
them first, a read-only database) answers from what it read.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from sqlalchemy import Connection, delete, insert, select, update

from store.engine import Connected, StoreUnavailable, tune_large_read
from store.queries import KEYWORDS
from store.recording import upsert_returning
from store.rollups.tables import LATEST_STAMPS, LATEST_VALUES, keyword_day_versions
from store.walks import LatestColumn, latest_value_rows
from store.watchlist import check_account

logger = logging.getLogger(__name__)

#: A kept value's key.
_KEY = ("account", "keyword", "measure")
#: Every measure kept, whichever a read asks for.
MEASURES: tuple[LatestColumn, ...] = ("impressions", "search_volume")

#: (keyword, measure) → (day, site, value) of its latest row with a value.
Kept = dict[tuple[str, str], tuple[date, str, float]]


@dataclass(frozen=True)
class _Stamp:
    through: date
    before: int
    last: int


class LatestValues(Connected):
    """Each keyword's latest value of a measure, kept (``HistoryStore.latest_values``)."""

    def read(
        self, account: str, columns: Sequence[LatestColumn], since: date | None
    ) -> dict[str, dict[str, float]]:
        """Each keyword's latest known value of each of ``columns`` (any site's, from ``since`` on), by
        column: on the latest day that has one, the greatest site's (the order the keyword history is
        read in); the kept values brought up to date first."""
        account = check_account(account)
        with self._reading() as conn:
            versions = keyword_day_versions(conn, account)
            read, now = _stamp_of(conn, account), _stamp_now(versions)
            kept = _kept(conn, account) if read is not None else {}
            found = kept if read is not None and read == now else None
            if found is None and read is not None and _before(versions, read.through) == read.before:
                found = _brought_up(kept, _rows_from(conn, account, read.through), read.through)
            if found is None:  # never kept, an older day written again, or a value taken away
                tune_large_read(conn)
                found = {(k, m): (d, s, v) for k, m, d, s, v in latest_value_rows(conn, account, MEASURES)}
        if read != now:
            self._keep(account, read, now, kept, found)
        return {
            column: {
                keyword: value
                for (keyword, measure), (day, _site, value) in found.items()
                if measure == column and (since is None or day >= since)
            }
            for column in columns
        }

    def _keep(self, account: str, read: _Stamp | None, now: _Stamp | None, kept: Kept, found: Kept) -> None:
        """Keep ``found`` under ``now`` if the stamp is still the one read (only the values that changed;
        all of them when none were kept); a refused write is logged."""
        if now is None:  # no keyword row was ever written through the store
            return
        changed = [key for key, value in found.items() if kept.get(key) != value]
        gone = [key for key in kept if key not in found]
        try:
            with self._writing() as conn:
                if not _claim(conn, account, read, now):
                    return  # another reader kept them since
                for keyword, measure in gone:
                    conn.execute(
                        delete(LATEST_VALUES).where(
                            LATEST_VALUES.c.account == account,
                            LATEST_VALUES.c.keyword == keyword,
                            LATEST_VALUES.c.measure == measure,
                        )
                    )
                rows = [
                    {"account": account, "keyword": keyword, "measure": measure, "day": day, "site": site,
                     "value": value}
                    for keyword, measure in changed
                    for day, site, value in [found[keyword, measure]]
                ]  # fmt: skip
                upsert_returning(conn, LATEST_VALUES, rows, _KEY, ("day", "site", "value"), returning=_KEY)
        except StoreUnavailable as exc:  # a read-only database, or another replica keeping the same
            logger.info("latest keyword values not kept: %s", exc)


def _before(versions: dict[date, int], day: date) -> int:
    return sum(version for each, version in versions.items() if each < day)


def _stamp_of(conn: Connection, account: str) -> _Stamp | None:
    columns = (LATEST_STAMPS.c[name] for name in ("through", "before_version", "last_version"))
    row = conn.execute(select(*columns).where(LATEST_STAMPS.c.account == account)).first()
    return None if row is None else _Stamp(row.through, row.before_version, row.last_version)


def _stamp_now(versions: dict[date, int]) -> _Stamp | None:
    if not versions:
        return None
    through = max(versions)
    return _Stamp(through, _before(versions, through), versions[through])


def _brought_up(kept: Kept, rows: Iterable[Any], first: date) -> Kept | None:
    """The kept values with the rows of ``first`` and later days read again; None when a value kept from
    those days is no longer on them (the latest before them is not kept: every keyword is walked)."""
    newest = _newest(rows)
    if any(found[0] >= first and key not in newest for key, found in kept.items()):
        return None
    return {**{key: found for key, found in kept.items() if found[0] < first}, **newest}


def _kept(conn: Connection, account: str) -> Kept:
    columns = (LATEST_VALUES.c[name] for name in ("keyword", "measure", "day", "site", "value"))
    rows = conn.execute(select(*columns).where(LATEST_VALUES.c.account == account)).all()
    return {(row.keyword, row.measure): (row.day, row.site, row.value) for row in rows}


def _rows_from(conn: Connection, account: str, first: date) -> list[Any]:
    """The keyword rows of ``first`` and later days (one day's at the daily job's pace)."""
    columns = [KEYWORDS.c[name] for name in ("keyword", "day", "site", *MEASURES)]
    return list(conn.execute(select(*columns).where(KEYWORDS.c.account == account, KEYWORDS.c.day >= first)))


def _newest(rows: Iterable[Any]) -> Kept:
    """Each (keyword, measure) with a value among ``rows``: its newest day's, then its greatest site's."""
    newest: Kept = {}
    for row in rows:
        for measure in MEASURES:
            value = row._mapping[measure]
            if value is None:
                continue
            key, found = (row.keyword, measure), (row.day, row.site, float(value))
            if key not in newest or (found[0], found[1]) > (newest[key][0], newest[key][1]):
                newest[key] = found
    return newest


def _claim(conn: Connection, account: str, read: _Stamp | None, now: _Stamp) -> bool:
    """Move the account's stamp from ``read`` to ``now`` in the caller's transaction; False when another
    reader moved it first."""
    values = {"through": now.through, "before_version": now.before, "last_version": now.last}
    if read is None:
        taken = conn.execute(select(LATEST_STAMPS.c.account).where(LATEST_STAMPS.c.account == account))
        if taken.first() is not None:
            return False
        conn.execute(delete(LATEST_VALUES).where(LATEST_VALUES.c.account == account))
        conn.execute(insert(LATEST_STAMPS), [{"account": account, **values}])
        return True
    moved = conn.execute(
        update(LATEST_STAMPS)
        .where(
            LATEST_STAMPS.c.account == account,
            LATEST_STAMPS.c.through == read.through,
            LATEST_STAMPS.c.before_version == read.before,
            LATEST_STAMPS.c.last_version == read.last,
        )
        .values(**values)
    )
    return moved.rowcount == 1
