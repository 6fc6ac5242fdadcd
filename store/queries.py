"""The history as pandas DataFrames, always of one account, with fixed columns in a fixed order.

Every frame has exactly the columns its ``*_COLUMNS`` tuple lists, also when empty, and is sorted
by day (then by subject). ``day`` is a pandas datetime (midnight of the day); whole-number columns
are nullable integers (``Int64``), yes/no columns nullable booleans, the rest floats and text.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import Any

import pandas as pd
from sqlalchemy import ColumnElement, FromClause, Select, func, select

from schema.history import (
    DOMAIN_COLUMNS,
    DOMAIN_COUNTS,
    KEYWORD_COLUMNS,
    LINK_COLUMNS,
    SERP_COLUMNS,
    TRUST_MAP_TOTALS,
    TRUST_TOTAL_COLUMNS,
)
from store.engine import Connected, collector_paused
from store.models import (
    DomainSnapshotRow,
    KeywordSnapshotRow,
    SerpResultRow,
    TrustMapLinkRow,
    TrustMapSnapshotRow,
)
from store.rows import subject_name
from store.watchlist import check_account

INTEGER_COLUMNS = frozenset(
    {
        "dr",
        "true_dr",
        "trust_score",
        *DOMAIN_COUNTS,
        *TRUST_MAP_TOTALS,
        "position",
        "previous_position",
        "user_dr",
        "impressions",
        "search_volume",
        "best_position",
        "change",
        "days_in_top_10",
        "days_recorded",
    }
)
FLOAT_COLUMNS = frozenset({"spam_score", "importance", "median_dr", "min_dr", "gap"})
BOOLEAN_COLUMNS = frozenset({"traffic_validated", "verified"})

DOMAINS = DomainSnapshotRow.__table__
TRUST_MAPS = TrustMapSnapshotRow.__table__
LINKS = TrustMapLinkRow.__table__
KEYWORDS = KeywordSnapshotRow.__table__
SERPS = SerpResultRow.__table__
#: The last place of a top 10 (a keyword's day "in the top 10" is a position up to it).
TOP_10 = 10


def keywords_within(
    table: FromClause, account: str, site: str, since: date | None, until: date | None
) -> list[ColumnElement[bool]]:
    """The conditions of one site's keyword rows in ``table`` (the keyword table or an alias of it) from
    ``since`` to ``until`` (each end open when None)."""
    where = [table.c.account == check_account(account), table.c.site == subject_name(site)]
    if since is not None:
        where.append(table.c.day >= since)
    if until is not None:
        where.append(table.c.day <= until)
    return where


def top10s_within(
    query: Select[Any], account: str, site: str | None, since: date | None, until: date | None
) -> Select[Any]:
    """``query`` over the top-10 rows kept to the account's, of ``site`` when given (the keywords watched
    for it), from ``since`` to ``until`` (each end open when None): the one period filter of the top 10s
    every read of them uses."""
    query = query.where(SERPS.c.account == check_account(account))
    if site is not None:
        query = query.where(SERPS.c.site == subject_name(site))
    if since is not None:
        query = query.where(SERPS.c.day >= since)
    if until is not None:
        query = query.where(SERPS.c.day <= until)
    return query


def serp_frame(rows: Sequence[Any]) -> pd.DataFrame:
    """Top-10 rows (``SERP_COLUMNS``) as ``serp_history`` gives them, whichever read found them."""
    return history_frame(rows, SERP_COLUMNS)


def history_frame(rows: Sequence[Any], columns: Sequence[str]) -> pd.DataFrame:
    """``rows`` as a frame of ``columns``, each typed as this module's docstring says (whichever read of
    the store found them)."""
    frame = pd.DataFrame([tuple(row) for row in rows], columns=list(columns))
    for name in columns:
        if name == "day":
            frame[name] = pd.to_datetime(frame[name]).astype("datetime64[ns]")
        elif name in ("best_day", "latest_day"):
            frame[name] = pd.to_datetime(frame[name]).dt.date.astype("object")
        elif name in INTEGER_COLUMNS:
            frame[name] = frame[name].astype("Int64")
        elif name in FLOAT_COLUMNS:
            frame[name] = frame[name].astype("Float64")
        elif name in BOOLEAN_COLUMNS:
            frame[name] = frame[name].astype("boolean")
        else:
            frame[name] = frame[name].astype("object")
    return frame


class Queries(Connected):
    """The recorded history read back as frames (``HistoryStore.queries``)."""

    def _rows(self, query: Select[Any]) -> list[Any]:
        with self._reading() as conn:
            return list(conn.execute(query).all())

    def domain_history(self, account: str, domains: Sequence[str], since: date | None = None) -> pd.DataFrame:
        """Each day's lookup of ``domains`` (from ``since`` on), by day then domain."""
        names = sorted({subject_name(domain) for domain in domains})
        query = select(*(DOMAINS.c[name] for name in DOMAIN_COLUMNS)).where(
            DOMAINS.c.account == check_account(account), DOMAINS.c.domain.in_(names)
        )
        if since is not None:
            query = query.where(DOMAINS.c.day >= since)
        query = query.order_by(DOMAINS.c.day, DOMAINS.c.domain)
        return history_frame(self._rows(query) if names else [], DOMAIN_COLUMNS)

    def trust_map_days(self, account: str, domain: str) -> list[date]:
        """The days with a Trust Map of ``domain``, oldest first."""
        query = (
            select(TRUST_MAPS.c.day)
            .where(
                TRUST_MAPS.c.account == check_account(account), TRUST_MAPS.c.domain == subject_name(domain)
            )
            .order_by(TRUST_MAPS.c.day)
        )
        return [row.day for row in self._rows(query)]

    def trust_map_links(self, account: str, domain: str, day: date) -> pd.DataFrame:
        """The referring domains of the day's Trust Map of ``domain``, highest DR first."""
        query = (
            select(*(LINKS.c[name] for name in LINK_COLUMNS))
            .join(TRUST_MAPS, TRUST_MAPS.c.id == LINKS.c.snapshot_id)
            .where(
                TRUST_MAPS.c.account == check_account(account),
                TRUST_MAPS.c.domain == subject_name(domain),
                TRUST_MAPS.c.day == day,
            )
            .order_by(LINKS.c.dr.desc().nulls_last(), LINKS.c.referring_domain)
        )
        return history_frame(self._rows(query), LINK_COLUMNS)

    def trust_map_totals(self, account: str, domain: str, since: date | None = None) -> pd.DataFrame:
        """Each day's Trust Map totals of ``domain`` (from ``since`` on), by day."""
        query = select(*(TRUST_MAPS.c[name] for name in TRUST_TOTAL_COLUMNS)).where(
            TRUST_MAPS.c.account == check_account(account), TRUST_MAPS.c.domain == subject_name(domain)
        )
        if since is not None:
            query = query.where(TRUST_MAPS.c.day >= since)
        return history_frame(self._rows(query.order_by(TRUST_MAPS.c.day)), TRUST_TOTAL_COLUMNS)

    def keyword_history(
        self, account: str, site: str | None = None, since: date | None = None, until: date | None = None
    ) -> pd.DataFrame:
        """Keyword positions by day (from ``since`` to ``until``, each end open when None): one site's
        tracked keywords (its slug), "" for watched keywords' reports, or None for all of the account's;
        by day, then site and keyword. A month of 5,000 keywords is 150,000 rows: the collector is
        paused while they become a frame (``collector_paused``)."""
        query = select(*(KEYWORDS.c[name] for name in KEYWORD_COLUMNS)).where(
            KEYWORDS.c.account == check_account(account)
        )
        if site is not None:
            query = query.where(KEYWORDS.c.site == subject_name(site))
        if since is not None:
            query = query.where(KEYWORDS.c.day >= since)
        if until is not None:
            query = query.where(KEYWORDS.c.day <= until)
        query = query.order_by(KEYWORDS.c.day, KEYWORDS.c.site, KEYWORDS.c.keyword)
        with collector_paused():
            return history_frame(self._rows(query), KEYWORD_COLUMNS)

    def keyword_days(
        self,
        account: str,
        site: str,
        keywords: Sequence[str],
        since: date | None = None,
        until: date | None = None,
    ) -> pd.DataFrame:
        """``keyword_history``'s rows of ``keywords`` only (the few on a chart), from ``since`` to
        ``until``: what the charts and the daily table read, not the whole period of every keyword."""
        names = sorted({subject_name(keyword) for keyword in keywords})
        query = (
            select(*(KEYWORDS.c[name] for name in KEYWORD_COLUMNS))
            .where(*keywords_within(KEYWORDS, account, site, since, until), KEYWORDS.c.keyword.in_(names))
            .order_by(KEYWORDS.c.day, KEYWORDS.c.site, KEYWORDS.c.keyword)
        )
        return history_frame(self._rows(query) if names else [], KEYWORD_COLUMNS)

    def serp_history(
        self,
        account: str,
        site: str | None = None,
        since: date | None = None,
        until: date | None = None,
    ) -> pd.DataFrame:
        """The watched keywords' top 10s by day (from ``since`` to ``until``, both included): of the
        keywords watched for ``site`` (a domain), or of all of the account's; by day, site, keyword and
        position."""
        query = top10s_within(select(*(SERPS.c[name] for name in SERP_COLUMNS)), account, site, since, until)
        query = query.order_by(SERPS.c.day, SERPS.c.site, SERPS.c.keyword, SERPS.c.position)
        return history_frame(self._rows(query), SERP_COLUMNS)

    def serp_days(self, account: str, site: str | None, days: Sequence[date]) -> pd.DataFrame:
        """The watched keywords' top 10s of ``days`` only (of the keywords watched for ``site``, when
        given), as ``serp_history`` gives them: what comparing two days reads, not the whole period."""
        query = select(*(SERPS.c[name] for name in SERP_COLUMNS)).where(
            SERPS.c.account == check_account(account), SERPS.c.day.in_(sorted(set(days)))
        )
        if site is not None:
            query = query.where(SERPS.c.site == subject_name(site))
        query = query.order_by(SERPS.c.day, SERPS.c.site, SERPS.c.keyword, SERPS.c.position)
        return history_frame(self._rows(query) if days else [], SERP_COLUMNS)

    def latest_serp_day(self, account: str, site: str | None = None) -> date | None:
        """The latest day with a recorded top 10 (of the keywords watched for ``site``, when given)."""
        query = select(func.max(SERPS.c.day)).where(SERPS.c.account == check_account(account))
        if site is not None:
            query = query.where(SERPS.c.site == subject_name(site))
        with self._reading() as conn:
            latest = conn.execute(query).scalar()
        return latest if isinstance(latest, date) or latest is None else date.fromisoformat(str(latest))
