"""The roll-ups' tables (revisions 0015, 0017, 0018 and 0019), the functions that mark a day's top 10s, or its
keyword rows, as changed, and the reads every roll-up shares (the days' versions, a period's days).

``serp_day_versions`` is part of the history: one row per account and day whose top 10s were ever
written, with a number that every write of that day's top 10s raises (recording, seeding, retention).
``market_roll_days`` and ``market_roll_domains`` are derived: a keyword set's sums of one day (its key is
a digest of the site, the set, the CTR curve and the volumes, ``store.rollups.days.roll_key``), each
stamped with the version of the day it was summed from. A day whose version moved on is summed again;
they are left out of a move to another database (``info={"derived": True}``): the target sums them
again when first read.

``keyword_day_versions`` does the same for the keyword rows (``keyword_snapshots``); the derived
``keyword_months`` keep each keyword's tallies of one month (``store.rollups.keyword_months``), and
``keyword_month_stamps`` the version each site's month was tallied at (the sum of its days' versions).

``top10_dr_days`` (revision 0018, derived) keep each top 10's DRs of one day summed up: the median,
lowest and highest DR of its rated results, and the same without the site's own results (the domains a
site has to pass), ``store.rollups.dr_days``; ``top10_dr_stamps`` the version of each day they were
summed at. They are kept by the day's top 10s' version like the market's roll-ups.

``keyword_latest_values`` (revision 0019, derived) keep each keyword's latest search volume and latest
impressions (any site's) with the day and site they were recorded for, ``keyword_latest_stamps`` the
day versions of the keyword rows they hold (``store.rollups.latest_values``).

Kept beside their repository rather than in ``store.models``, on the same ``Base``, like the report
tables.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from typing import Any

from sqlalchemy import Connection, Date, Float, Integer, String, Table, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Mapped, mapped_column

from store.models import ACCOUNT_LEN, SUBJECT_LEN, Base

KEY_LEN = 64
#: The longest name of a measure kept latest ("search_volume").
MEASURE_LEN = 32
DERIVED: dict[str, Any] = {"derived": True}


class SerpDayVersionRow(Base):
    """How many times an account's top 10s of one day were written: a roll-up of that day summed at an
    older version is stale."""

    __tablename__ = "serp_day_versions"

    account: Mapped[str] = mapped_column(String(ACCOUNT_LEN), primary_key=True)
    day: Mapped[date] = mapped_column(Date, primary_key=True)
    version: Mapped[int] = mapped_column(Integer)


class MarketRollDayRow(Base):
    """One day of a keyword set's market: its keywords with a top 10, the sum of their known volumes, how
    many were known, and how many of them the set's previous day with a top 10 had too (None: not known,
    the day was the first of the sums it came from)."""

    __tablename__ = "market_roll_days"
    __table_args__ = ({"info": DERIVED},)

    account: Mapped[str] = mapped_column(String(ACCOUNT_LEN), primary_key=True)
    roll_key: Mapped[str] = mapped_column(String(KEY_LEN), primary_key=True)
    day: Mapped[date] = mapped_column(Date, primary_key=True)
    version: Mapped[int] = mapped_column(Integer)
    keywords: Mapped[int] = mapped_column(Integer)
    volume: Mapped[float] = mapped_column(Float)
    volumes_known: Mapped[int] = mapped_column(Integer)
    kept: Mapped[int | None] = mapped_column(Integer)


class MarketRollDomainRow(Base):
    """One domain's sums on one day of a keyword set: c(p) of its best position summed over the day's
    keywords, plain and weighed by volume."""

    __tablename__ = "market_roll_domains"
    __table_args__ = ({"info": DERIVED},)

    account: Mapped[str] = mapped_column(String(ACCOUNT_LEN), primary_key=True)
    roll_key: Mapped[str] = mapped_column(String(KEY_LEN), primary_key=True)
    day: Mapped[date] = mapped_column(Date, primary_key=True)
    domain: Mapped[str] = mapped_column(String(SUBJECT_LEN), primary_key=True)
    clicks: Mapped[float] = mapped_column(Float)
    volume_clicks: Mapped[float | None] = mapped_column(Float)


class KeywordDayVersionRow(Base):
    """How many times an account's keyword rows of one day were written: a keyword month tallied at an
    older version is stale."""

    __tablename__ = "keyword_day_versions"

    account: Mapped[str] = mapped_column(String(ACCOUNT_LEN), primary_key=True)
    day: Mapped[date] = mapped_column(Date, primary_key=True)
    version: Mapped[int] = mapped_column(Integer)


class KeywordMonthRow(Base):
    """One keyword's rows of one month for one site, tallied: days recorded and in the top 10, its best
    position and the first day at it, and its newest two days (the day, its position and bar)."""

    __tablename__ = "keyword_months"
    __table_args__ = ({"info": DERIVED},)

    account: Mapped[str] = mapped_column(String(ACCOUNT_LEN), primary_key=True)
    site: Mapped[str] = mapped_column(String(SUBJECT_LEN), primary_key=True)
    keyword: Mapped[str] = mapped_column(String(SUBJECT_LEN), primary_key=True)
    month: Mapped[date] = mapped_column(Date, primary_key=True)
    days_recorded: Mapped[int] = mapped_column(Integer)
    days_in_top_10: Mapped[int] = mapped_column(Integer)
    best_position: Mapped[int | None] = mapped_column(Integer)
    best_day: Mapped[date | None] = mapped_column(Date)
    last_day: Mapped[date] = mapped_column(Date)
    last_position: Mapped[int | None] = mapped_column(Integer)
    last_median_dr: Mapped[float | None] = mapped_column(Float)
    last_gap: Mapped[float | None] = mapped_column(Float)
    before_last_day: Mapped[date | None] = mapped_column(Date)
    before_last_position: Mapped[int | None] = mapped_column(Integer)


class KeywordMonthStampRow(Base):
    """The version a site's month was tallied at (the sum of the month's day versions) and the last day
    with a version then (``through``: the tallies hold the days up to it). Kept also for a month where
    the site has no row, so that month is not tallied again on every read."""

    __tablename__ = "keyword_month_stamps"
    __table_args__ = ({"info": DERIVED},)

    account: Mapped[str] = mapped_column(String(ACCOUNT_LEN), primary_key=True)
    site: Mapped[str] = mapped_column(String(SUBJECT_LEN), primary_key=True)
    month: Mapped[date] = mapped_column(Date, primary_key=True)
    version: Mapped[int] = mapped_column(Integer)
    through: Mapped[date] = mapped_column(Date)


class Top10DrDayRow(Base):
    """One top 10's DRs on one day, summed up: how many of its results had a DR, their median, lowest
    and highest; and the same of the results that are not the site's own (``rivals_``). None where no
    result had one."""

    __tablename__ = "top10_dr_days"
    __table_args__ = ({"info": DERIVED},)

    account: Mapped[str] = mapped_column(String(ACCOUNT_LEN), primary_key=True)
    site: Mapped[str] = mapped_column(String(SUBJECT_LEN), primary_key=True)
    keyword: Mapped[str] = mapped_column(String(SUBJECT_LEN), primary_key=True)
    day: Mapped[date] = mapped_column(Date, primary_key=True)
    rated: Mapped[int] = mapped_column(Integer)
    median_dr: Mapped[float | None] = mapped_column(Float)
    min_dr: Mapped[float | None] = mapped_column(Float)
    max_dr: Mapped[float | None] = mapped_column(Float)
    rivals_rated: Mapped[int] = mapped_column(Integer)
    rivals_median_dr: Mapped[float | None] = mapped_column(Float)
    rivals_min_dr: Mapped[float | None] = mapped_column(Float)
    rivals_max_dr: Mapped[float | None] = mapped_column(Float)


class Top10DrStampRow(Base):
    """The version of an account's top 10s of one day that its ``top10_dr_days`` were summed at."""

    __tablename__ = "top10_dr_stamps"
    __table_args__ = ({"info": DERIVED},)

    account: Mapped[str] = mapped_column(String(ACCOUNT_LEN), primary_key=True)
    day: Mapped[date] = mapped_column(Date, primary_key=True)
    version: Mapped[int] = mapped_column(Integer)


class KeywordLatestValueRow(Base):
    """A keyword's latest row with a value of one measure (its search volume, its impressions) among all
    sites' keyword rows: that row's day and site, and the value (``store.rollups.latest_values``)."""

    __tablename__ = "keyword_latest_values"
    __table_args__ = ({"info": DERIVED},)

    account: Mapped[str] = mapped_column(String(ACCOUNT_LEN), primary_key=True)
    keyword: Mapped[str] = mapped_column(String(SUBJECT_LEN), primary_key=True)
    measure: Mapped[str] = mapped_column(String(MEASURE_LEN), primary_key=True)
    day: Mapped[date] = mapped_column(Date)
    site: Mapped[str] = mapped_column(String(SUBJECT_LEN))
    value: Mapped[float] = mapped_column(Float)


class KeywordLatestStampRow(Base):
    """What an account's ``keyword_latest_values`` hold: every keyword row up to ``through`` (the last
    day with a version when kept), the days before it at versions adding up to ``before_version``, that
    day at ``last_version``."""

    __tablename__ = "keyword_latest_stamps"
    __table_args__ = ({"info": DERIVED},)

    account: Mapped[str] = mapped_column(String(ACCOUNT_LEN), primary_key=True)
    through: Mapped[date] = mapped_column(Date)
    before_version: Mapped[int] = mapped_column(Integer)
    last_version: Mapped[int] = mapped_column(Integer)


VERSIONS: Table = SerpDayVersionRow.__table__
KEYWORD_VERSIONS: Table = KeywordDayVersionRow.__table__
KEYWORD_MONTHS: Table = KeywordMonthRow.__table__
MONTH_STAMPS: Table = KeywordMonthStampRow.__table__
ROLL_DAYS: Table = MarketRollDayRow.__table__
ROLL_DOMAINS: Table = MarketRollDomainRow.__table__
DR_DAYS: Table = Top10DrDayRow.__table__
DR_STAMPS: Table = Top10DrStampRow.__table__
LATEST_VALUES: Table = KeywordLatestValueRow.__table__
LATEST_STAMPS: Table = KeywordLatestStampRow.__table__


def day_versions(conn: Connection, account: str, since: date | None, until: date | None) -> dict[date, int]:
    """The version of each of the account's days from ``since`` to ``until`` (each end open when None)
    whose top 10s were ever written: what every roll-up of the top 10s is stamped with."""
    return _versions_of(conn, VERSIONS, account, since, until)


def keyword_day_versions(conn: Connection, account: str) -> dict[date, int]:
    """The version of each of the account's days whose keyword rows were ever written: what the keyword
    months and the kept latest values are stamped with."""
    return _versions_of(conn, KEYWORD_VERSIONS, account, None, None)


def _versions_of(
    conn: Connection, versions: Table, account: str, since: date | None, until: date | None
) -> dict[date, int]:
    query = select(versions.c.day, versions.c.version).where(versions.c.account == account)
    return {row.day: row.version for row in conn.execute(within_period(query, versions.c.day, since, until))}


def within_period(query: Any, column: Any, since: date | None, until: date | None) -> Any:
    """``query`` kept to the rows whose ``column`` (a day) is from ``since`` to ``until`` (each end open
    when None)."""
    if since is not None:
        query = query.where(column >= since)
    if until is not None:
        query = query.where(column <= until)
    return query


def bump_days(conn: Connection, account: str, days: Iterable[date]) -> None:
    """Mark the account's top 10s of ``days`` as changed, in the caller's transaction: every roll-up of
    those days, and of the day after each (whose "kept" counts against it), is summed again."""
    _bump(conn, VERSIONS, account, days)


def bump_keyword_days(conn: Connection, account: str, days: Iterable[date]) -> None:
    """Mark the account's keyword rows of ``days`` as changed, in the caller's transaction: each site's
    tallies of those days' months are counted again."""
    _bump(conn, KEYWORD_VERSIONS, account, days)


def _bump(conn: Connection, versions: Table, account: str, days: Iterable[date]) -> None:
    rows = [{"account": account, "day": day, "version": 1} for day in sorted(set(days))]
    if not rows:
        return
    dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
    stmt = dialect.insert(versions)
    stmt = stmt.on_conflict_do_update(
        index_elements=[versions.c.account, versions.c.day], set_={"version": versions.c.version + 1}
    )
    conn.execute(stmt, rows)
