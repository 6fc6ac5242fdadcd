"""Retention: keep each watched keyword's top 10 daily for the last N days, one day a week before that.

The top-10 rows (``serp_results``: ten a keyword a day) are nine tenths of a large history; thinning
the old ones to one day a week keeps a long history's trend at a seventh of its size. Nothing else is
thinned: a keyword's own row of the day (``keyword_snapshots``: its position, its bar, its top 10's
median DR; one row, not ten) stays daily, because the History page's positions, the alerts and the
"best position" need every day, and so do domain, Trust Map and every other table.

**Which day of a week is kept**: for each account and ISO week (Monday to Sunday), the first day of that
week on which the account recorded any top 10. It is one day for every keyword of the account, so a
week's visibility, share of voice and DR spread still compare like with like across keywords (a fixed
weekday would do that too, but would lose the whole week when the job missed that weekday). A keyword
without a top 10 on that day has no point that week, as it had none that day.

The setting is ``DASHBOARD_KEEP_DAILY_DAYS`` (the environment wins, as ``DASHBOARD_DATABASE_URL`` does)
or ``keep_daily_days`` under ``[history]`` in the secrets files; absent, everything stays daily.
``Retention.prune`` deletes in small batches, each its own short transaction, so the app reads on while
it runs; it is idempotent: a second run finds nothing to delete.
"""

from __future__ import annotations

import os
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path

from sqlalchemy import and_, delete, func, select

from client.settings import SECRETS_FILES
from store.config import secrets_tables
from store.engine import Connected
from store.models import SerpResultRow
from store.rollups.tables import bump_days

ENV_VAR = "DASHBOARD_KEEP_DAILY_DAYS"
SECTION = "history"
SETTING = "keep_daily_days"
#: The shortest daily history allowed: alerts, the weekly digest and the last two months' reports
#: always read daily top 10s.
MIN_KEEP_DAILY_DAYS = 90
#: Rows deleted per transaction: short enough that a reader or the daily job never waits long.
BATCH_ROWS = 5_000
#: How far before the boundary ``weekly_before`` looks, and how late a prune may be for it still to
#: call the history thinned (the job prunes daily; a week's lag is generous).
LOOK_BACK = timedelta(days=35)
PRUNE_LAG = timedelta(days=7)

_serp = SerpResultRow.__table__


class RetentionSettingError(ValueError):
    """The retention setting is set but is not a usable number of days (the words say why)."""


def keep_daily_days(
    environ: Mapping[str, str] = os.environ, secrets_files: tuple[Path, ...] = SECRETS_FILES
) -> int | None:
    """How many days of top 10s are kept daily; None (the default) keeps everything daily."""
    configured: object = (environ.get(ENV_VAR) or "").strip() or None
    where = ENV_VAR
    if configured is None:
        for content in secrets_tables(secrets_files):
            section = content.get(SECTION)
            if isinstance(section, dict) and SETTING in section:
                configured = section[SETTING]
                where = f"[{SECTION}] {SETTING}"
    if configured is None:
        return None
    try:
        days = int(str(configured)) if not isinstance(configured, bool) else None
    except ValueError:
        days = None
    if days is None or days < MIN_KEEP_DAILY_DAYS:
        raise RetentionSettingError(
            f"{where} is {configured!r}: it must be a whole number of days, at least {MIN_KEEP_DAILY_DAYS} "
            "(leave it out to keep every day)"
        )
    return days


def daily_from(today: date, days: int) -> date:
    """The first day kept daily when ``days`` are (today included): older top 10s are thinned."""
    return today - timedelta(days=days - 1)


def _week(day: date) -> tuple[int, int]:
    iso = day.isocalendar()
    return iso.year, iso.week


def kept_days(days: Iterable[date]) -> set[date]:
    """Of one account's recorded days, the one kept in each ISO week: its first."""
    first: dict[tuple[int, int], date] = {}
    for day in days:
        week = _week(day)
        if week not in first or day < first[week]:
            first[week] = day
    return set(first.values())


@dataclass(frozen=True)
class ThinnedDay:
    """One account's day whose top 10s a prune removes, and how many rows that is."""

    account: str
    day: date
    rows: int


@dataclass(frozen=True)
class PrunePlan:
    """What a prune with this boundary removes (nothing at or after ``daily_from``)."""

    daily_from: date
    days: tuple[ThinnedDay, ...]

    @property
    def rows(self) -> int:
        return sum(day.rows for day in self.days)


class Retention(Connected):
    """The thinning of old top 10s and what the pages need to say about it."""

    def plan(self, first_daily_day: date) -> PrunePlan:
        """Every account's days before ``first_daily_day`` that are not their week's kept day."""
        query = (
            select(_serp.c.account, _serp.c.day, func.count())
            .where(_serp.c.day < first_daily_day)
            .group_by(_serp.c.account, _serp.c.day)
        )
        with self._reading() as conn:
            counted = [(str(account), day, int(rows)) for account, day, rows in conn.execute(query)]
        by_account: dict[str, list[date]] = defaultdict(list)
        for account, day, _rows in counted:
            by_account[account].append(day)
        keep = {account: kept_days(days) for account, days in by_account.items()}
        thinned = sorted(
            (ThinnedDay(account, day, rows) for account, day, rows in counted if day not in keep[account]),
            key=lambda item: (item.account, item.day),
        )
        return PrunePlan(first_daily_day, tuple(thinned))

    def prune(
        self,
        first_daily_day: date,
        *,
        dry_run: bool = False,
        batch_rows: int = BATCH_ROWS,
        progress: Callable[[str], None] = lambda _line: None,
    ) -> PrunePlan:
        """Delete the plan's rows (unless ``dry_run``), ``batch_rows`` per transaction; the plan."""
        plan = self.plan(first_daily_day)
        if dry_run:
            return plan
        for number, thinned in enumerate(plan.days, start=1):
            self._delete_day(thinned.account, thinned.day, batch_rows)
            done = f"{number}/{len(plan.days)}"
            progress(f"{done} {thinned.day.isoformat()}: {thinned.rows} top-10 rows removed")
        return plan

    def _delete_day(self, account: str, day: date, batch_rows: int) -> None:
        of_day = and_(_serp.c.account == account, _serp.c.day == day)
        while True:
            batch = select(_serp.c.id).where(of_day).limit(batch_rows).scalar_subquery()
            with self._writing() as conn:
                # The day in the DELETE too: on PostgreSQL it then opens only that day's month.
                if conn.execute(delete(_serp).where(of_day, _serp.c.id.in_(batch))).rowcount == 0:
                    return
                bump_days(conn, account, [day])  # the market roll-ups of the day and the next are stale

    def weekly_before(self, account: str, first_daily_day: date) -> date | None:
        """``first_daily_day`` when the account's top 10s before it are weekly, so a page says so; None
        when they are not (yet): the weeks before it, in the five before the boundary (a prune up to a
        week late allowed), must each hold one recorded day."""
        query = (
            select(_serp.c.day)
            .where(_serp.c.account == account)
            .where(_serp.c.day >= first_daily_day - LOOK_BACK, _serp.c.day < first_daily_day - PRUNE_LAG)
            .distinct()
        )
        with self._reading() as conn:
            days = list(conn.execute(query).scalars())
        by_week: dict[tuple[int, int], int] = defaultdict(int)
        for day in days:
            by_week[_week(day)] += 1
        if not by_week or any(count > 1 for count in by_week.values()):
            return None
        return first_daily_day
