"""A keyword set's market sums over a period, read from its daily roll-ups (``HistoryStore.market_days``).

``MarketDays.sums`` answers exactly what ``store.market.MarketSums.sums`` answers (the frames
``MARKET_DOMAIN_SUMS`` and ``MARKET_DAY_SUMS``), but sums at the database only the days it does not hold
yet, or whose top 10s changed since it summed them, and keeps what it summed. So a year's first view
reads 365 days of roll-ups and sums today's top 10s, whatever the number of keywords.

**The key.** A roll-up belongs to one keyword set as the figures see it: the site (or every site), the
group's keywords or (site, keyword) pairs, the CTR curve and the volumes, digested (``roll_key``). A
change to any of them (a tag, a brand term, the team's curve, a keyword's latest volume) is a new key,
summed afresh on its first read; the old key's rows are left (``forget_unread`` is not needed for the
figures to be right).

**A day's sums** depend on that day's top 10s alone, except "kept" (how many of the day's keywords the
set's previous day with a top 10 had), which depends on the previous such day too. Every write of an
account's top 10s raises that day's version (``store.rollups.tables.bump_days``); a roll-up day summed at
an older version is stale, and so is the first day with keywords after it. A stale run is summed again
from the last good day with keywords before it (whose "kept" stays as it was) through the first good one
after it. "Kept" of a day summed first in a run is not known (None): right for the period's first day
(whose "kept" is 0 by the definition), stale for any later one.

**The days** a period holds are read from the top 10s' index, one probe a day
(``store.walks.period_days``, a recursive "next day" query), so a day written around the store is still
seen; its roll-up stays until its version moves.

Keeping the sums is best effort: on a database that refuses writes (a read-only standby) the figures are
returned all the same.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Collection, Mapping, Sequence
from datetime import date
from typing import Any

import pandas as pd
from sqlalchemy import Connection, Engine, delete, insert, select

from schema.history import MARKET_DAY_SUMS, MARKET_DOMAIN_SUMS
from store.engine import Connected, StoreUnavailable, collector_paused, driver_rows
from store.market import MarketSums
from store.rollups.tables import ROLL_DAYS, ROLL_DOMAINS, day_versions, within_period
from store.walks import period_days
from store.watchlist import check_account

#: Raised when what a roll-up holds, or how it is summed, changes: every old key is then unread.
ROLL_FORMAT = 1
logger = logging.getLogger(__name__)


def roll_key(
    site: str | None,
    curve: Sequence[float],
    volumes: Mapping[str, float],
    keywords: Collection[str] | None,
    pairs: Collection[tuple[str, str]] | None,
) -> str:
    """The digest of everything a day's sums depend on besides the day's top 10s."""
    content = {
        "format": ROLL_FORMAT,
        "site": site,
        "curve": [float(c) for c in curve],
        "volumes": sorted((k, float(v)) for k, v in volumes.items()),
        "keywords": None if keywords is None else sorted(set(keywords)),
        "pairs": None if pairs is None else sorted(set(pairs)),
    }
    return hashlib.sha256(json.dumps(content, separators=(",", ":")).encode()).hexdigest()


def _good(day: date, present: set[date], stored: Mapping[date, Any], versions: Mapping[date, int]) -> bool:
    """Whether ``day``'s roll-up holds: its top 10s are there and unchanged since it was summed."""
    row = stored.get(day)
    return day in present and row is not None and row.version == versions.get(day, 0)


def _stale_span(
    timeline: list[date], present: set[date], stored: dict[date, Any], versions: dict[date, int]
) -> tuple[int, int] | None:
    """The indexes into ``timeline`` (the period's days with a top 10, and the days a roll-up holds whose
    top 10s are gone) of the first and last day to sum again, or None when every day is good. The first
    is a good day with keywords when there is one before the stale run: its "kept" stays as stored."""

    def good(day: date) -> bool:
        return _good(day, present, stored, versions)

    stale = [i for i, day in enumerate(timeline) if not good(day)]
    seen_keywords = False
    for i, day in enumerate(timeline):  # "kept" unknown on a day that is not the first with keywords
        if not good(day):
            seen_keywords = True
        elif stored[day].keywords > 0:
            if stored[day].kept is None and seen_keywords:
                stale.append(i)
            seen_keywords = True
    if not stale:
        return None
    first, last = min(stale), max(stale)
    while first > 0:  # back to the last good day with keywords
        first -= 1
        if good(timeline[first]) and stored[timeline[first]].keywords > 0:
            break
    while last < len(timeline) - 1:  # on to the first good day with keywords: its "kept" counts on the run
        last += 1
        if good(timeline[last]) and stored[timeline[last]].keywords > 0:
            break
    return first, last


class MarketDays(Connected):
    """The market's sums of a period from the daily roll-ups, summing at the database (``MarketSums``)
    only the days not held yet."""

    def __init__(self, engine: Engine, writer: Engine, url: str, sums: MarketSums) -> None:
        super().__init__(engine, writer, url)
        self._sums = sums

    def sums(
        self,
        account: str,
        site: str | None,
        *,
        since: date | None,
        until: date | None,
        curve: Sequence[float],
        volumes: Mapping[str, float] | None = None,
        keywords: Collection[str] | None = None,
        pairs: Collection[tuple[str, str]] | None = None,
    ) -> tuple[pd.DataFrame, pd.DataFrame]:
        """``MarketSums.sums`` of the same arguments, from the roll-ups where they hold the day."""
        account, volumes = check_account(account), volumes or {}
        key = roll_key(site, curve, volumes, keywords, pairs)
        with self._reading() as conn:  # the versions first: a day written meanwhile is stale next time
            versions = day_versions(conn, account, since, until)
            present = set(period_days(conn, account, site, since, until))
            stored = self._stored_days(conn, account, key, since, until)
            domain_rows = self._stored_domains(conn, account, key, since, until)
        timeline = sorted(present | set(stored))
        span = _stale_span(timeline, present, stored, versions)
        day_rows = {day: row._asdict() for day, row in stored.items() if day in present}
        if span is not None:
            first, last = timeline[span[0]], timeline[span[1]]
            per_domain, per_day = self._sums.sums(
                account, site, since=first, until=last, curve=curve, volumes=volumes, keywords=keywords,
                pairs=pairs,
            )  # fmt: skip
            keep_first = _good(first, present, stored, versions)  # its "kept" stays as stored
            run = timeline[span[0] : span[1] + 1]
            replaced = run[1:] if keep_first else run
            summed = [day for day in replaced if day in present]
            new_days, new_domains = _summed_rows(
                summed, per_domain, per_day, versions, known_first=keep_first
            )
            for day in replaced:
                day_rows.pop(day, None)
            day_rows.update({row["day"]: row for row in new_days})
            cleared = (first, keep_first, last)
            domain_rows = pd.concat(
                [domain_rows[~_within(domain_rows["day"], *cleared)], new_domains], ignore_index=True
            )
            self._keep(account, key, cleared, new_days, new_domains)
        return _frames(domain_rows, day_rows)

    @staticmethod
    def _stored_days(
        conn: Connection, account: str, key: str, since: date | None, until: date | None
    ) -> dict[date, Any]:
        columns = [ROLL_DAYS.c[name] for name in ("day", "version", *_DAY_VALUES)]
        query = select(*columns).where(ROLL_DAYS.c.account == account, ROLL_DAYS.c.roll_key == key)
        return {row.day: row for row in conn.execute(within_period(query, ROLL_DAYS.c.day, since, until))}

    @staticmethod
    def _stored_domains(
        conn: Connection, account: str, key: str, since: date | None, until: date | None
    ) -> pd.DataFrame:
        query = select(*(ROLL_DOMAINS.c[name] for name in MARKET_DOMAIN_SUMS)).where(
            ROLL_DOMAINS.c.account == account, ROLL_DOMAINS.c.roll_key == key
        )
        rows = driver_rows(conn, within_period(query, ROLL_DOMAINS.c.day, since, until))
        # Column by column: a year of a few hundred domains a day is 100,000 rows and more (150,000 at
        # 5,000 keywords), turned without the cycle collector (with it: 0.24 s of 0.3).
        with collector_paused():
            columns = list(zip(*rows, strict=True)) if rows else [() for _ in MARKET_DOMAIN_SUMS]
            frame = pd.DataFrame(dict(zip(MARKET_DOMAIN_SUMS, columns, strict=True)))
        frame["day"] = _stamps(frame["day"])
        return frame

    def _keep(
        self,
        account: str,
        key: str,
        cleared: tuple[date, bool, date],
        day_rows: list[dict[str, Any]],
        domain_rows: pd.DataFrame,
    ) -> None:
        """Replace the key's roll-ups of the summed run by what was summed; a refused write is logged
        and the figures are returned all the same."""
        first, keep_first, last = cleared
        of_key = {"account": account, "roll_key": key}
        try:
            with self._writing() as conn:
                for table in (ROLL_DOMAINS, ROLL_DAYS):
                    after_first = table.c.day > first if keep_first else table.c.day >= first
                    conn.execute(
                        delete(table).where(
                            table.c.account == account,
                            table.c.roll_key == key,
                            after_first,
                            table.c.day <= last,
                        )
                    )
                if day_rows:
                    conn.execute(insert(ROLL_DAYS), [{**of_key, **row} for row in day_rows])
                if not domain_rows.empty:
                    records = domain_rows.assign(day=domain_rows["day"].dt.date).to_dict("records")
                    conn.execute(insert(ROLL_DOMAINS), [{**of_key, **row} for row in records])
        except StoreUnavailable as exc:  # another reader kept the same days first, or a read-only database
            logger.info("market roll-up not kept: %s", exc)


_DAY_VALUES = ("keywords", "volume", "volumes_known", "kept")


def _stamps(days: Any) -> Any:
    """Days (dates, strings or stamps) as nanosecond stamps, the frames' one kind of day."""
    return pd.to_datetime(days).astype("datetime64[ns]")


def _within(days: pd.Series, first: date, keep_first: bool, last: date) -> pd.Series:
    """Which of ``days`` (stamps) a summed run replaces."""
    start = pd.Timestamp(first)
    return ((days > start) if keep_first else (days >= start)) & (days <= pd.Timestamp(last))


def _summed_rows(
    summed: list[date],
    per_domain: pd.DataFrame,
    per_day: pd.DataFrame,
    versions: Mapping[date, int],
    *,
    known_first: bool,
) -> tuple[list[dict[str, Any]], pd.DataFrame]:
    """The roll-up rows of the ``summed`` days from ``MarketSums.sums``' frames: a day without the set's
    keywords gets a row of none; "kept" of the first day with keywords is not known unless the run
    started from a good day (``known_first``)."""
    by_day = {stamp.date(): row for stamp, row in per_day.set_index("day").iterrows()}
    rows: list[dict[str, Any]] = []
    first_with_keywords = not known_first
    for day in summed:
        found = by_day.get(day)
        if found is None:
            rows.append({"day": day, "version": versions.get(day, 0), "keywords": 0, "volume": 0.0,
                         "volumes_known": 0, "kept": 0})  # fmt: skip
            continue
        kept: int | None = int(found["kept"])
        if first_with_keywords:
            kept, first_with_keywords = None, False
        rows.append({"day": day, "version": versions.get(day, 0), "keywords": int(found["keywords"]),
                     "volume": float(found["volume"]), "volumes_known": int(found["volumes_known"]),
                     "kept": kept})  # fmt: skip
    domains = per_domain.assign(day=_stamps(per_domain["day"]))
    return rows, domains[domains["day"].isin(_stamps(summed))].reset_index(drop=True)


def _frames(
    domain_rows: pd.DataFrame, day_rows: Mapping[date, Mapping[str, Any]]
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """``MarketSums.sums``' frames from the roll-up rows: only days with keywords, "kept" 0 on the
    first of them (the definition counts against the period's previous day, which it does not have)."""
    days = [row for _day, row in sorted(day_rows.items()) if row["keywords"] > 0]
    per_day = pd.DataFrame(
        [(row["day"], *(row[name] for name in MARKET_DAY_SUMS[1:])) for row in days],
        columns=list(MARKET_DAY_SUMS),
    )
    if not per_day.empty:
        per_day.loc[0, "kept"] = 0
    per_day = per_day.astype(
        {"keywords": "int64", "volume": "float64", "volumes_known": "int64", "kept": "int64"}
    )
    per_domain = domain_rows[domain_rows["day"].isin(_stamps([row["day"] for row in days]))]
    per_domain = per_domain.sort_values(["day", "domain"], ignore_index=True).astype(
        {"domain": "str", "clicks": "float64", "volume_clicks": "float64"}
    )
    for frame in (per_domain, per_day):
        frame["day"] = pd.to_datetime(frame["day"]).astype("datetime64[ns]")
    return per_domain, per_day
