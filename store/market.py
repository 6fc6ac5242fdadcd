"""The market's sums at the database (``HistoryStore.market``): what visibility and share of voice are made
of, summed by SQL over the watched keywords' top 10s instead of read row by row into memory.

The definition is ``analysis.market`` (this package does not import it): one top 10 per keyword and day
(the first site's by name), a domain's best position in it, c(p) of that position from the CTR curve,
summed per day and domain, plain and weighed by each keyword's volume; per day, the keywords with a top
10, their volumes and how many of them the day before had too. The curve, the keywords of a group and
the volumes arrive as plain data and go into temporary tables for the one read (a list of 5,000
keywords would pass SQLite's limit of bound parameters), which vanish with its transaction.
``analysis.market.figures_from_sums`` turns the sums into the figures, as it does the pandas path's;
``tests/store/test_market_sums.py`` holds both paths to the same frame on SQLite and PostgreSQL.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import date
from typing import Any

import pandas as pd
from sqlalchemy import (
    Column,
    Connection,
    Float,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    Select,
    String,
    Table,
    and_,
    case,
    cast,
    func,
    insert,
    literal,
    null,
    select,
    union_all,
)

from schema.history import MARKET_DAY_SUMS, MARKET_DOMAIN_SUMS, SERP_COLUMNS
from store.engine import Connected, tune_large_read
from store.models import SUBJECT_LEN, KeywordSnapshotRow, SerpResultRow
from store.queries import serp_frame, top10s_within
from store.spread import middle_place, spread_frame
from store.walks import period_pairs
from store.watchlist import check_account, subject_name

SERPS = SerpResultRow.__table__
KEYWORDS = KeywordSnapshotRow.__table__

#: The read's own data, in temporary tables of its connection (dropped with its transaction).
_TEMPORARY = MetaData()
CURVE = Table(
    "market_curve",
    _TEMPORARY,
    Column("position", Integer, primary_key=True),
    Column("clicks", Float, nullable=False),
    prefixes=["TEMPORARY"],
)
CHOSEN_KEYWORDS = Table(
    "market_keywords",
    _TEMPORARY,
    Column("keyword", String(SUBJECT_LEN), primary_key=True),
    prefixes=["TEMPORARY"],
)
CHOSEN_PAIRS = Table(
    "market_pairs",
    _TEMPORARY,
    Column("site", String(SUBJECT_LEN)),
    Column("keyword", String(SUBJECT_LEN)),
    PrimaryKeyConstraint("site", "keyword"),
    prefixes=["TEMPORARY"],
)
VOLUMES = Table(
    "market_volumes",
    _TEMPORARY,
    Column("keyword", String(SUBJECT_LEN), primary_key=True),
    Column("volume", Float, nullable=False),
    prefixes=["TEMPORARY"],
)


def _days(frame: pd.DataFrame) -> pd.DataFrame:
    frame["day"] = pd.to_datetime(frame["day"]).astype("datetime64[ns]")
    return frame


class MarketSums(Connected):
    """The market's sums and the small reads around them (``HistoryStore.market``)."""

    @contextmanager
    def with_data(
        self,
        curve: Sequence[float],
        volumes: Mapping[str, float],
        keywords: Collection[str] | None,
        pairs: Collection[tuple[str, str]] | None,
    ) -> Iterator[Connection]:
        """A reading connection holding the curve, the volumes and the chosen keywords (or (site,
        keyword) pairs) in its temporary tables."""
        with self._reading() as conn:
            tune_large_read(conn)  # its group-bys over a year of rows stay in memory
            tables: list[tuple[Table, list[dict[str, Any]]]] = [
                (CURVE, [{"position": p, "clicks": float(c)} for p, c in enumerate(curve, start=1)]),
                (VOLUMES, [{"keyword": k, "volume": float(v)} for k, v in volumes.items()]),
            ]
            if keywords is not None:
                tables.append((CHOSEN_KEYWORDS, [{"keyword": k} for k in sorted(set(keywords))]))
            if pairs is not None:
                tables.append((CHOSEN_PAIRS, [{"site": s, "keyword": k} for s, k in sorted(set(pairs))]))
            for table, rows in tables:
                table.create(conn)
                if rows:
                    conn.execute(insert(table), rows)
                if conn.dialect.name == "postgresql":  # the planner's row counts for the joins
                    conn.exec_driver_sql(f"ANALYZE {table.name}")
            try:
                yield conn
            finally:
                for table, _rows in reversed(tables):
                    table.drop(conn)

    @staticmethod
    def _one_site(conn: Connection, account: str, since: date | None, until: date | None) -> bool:
        """Whether the period's top 10s are of one site at most: then none needs the first site chosen
        (an index gives the least and the greatest site without reading the rows)."""
        query = top10s_within(
            select(func.min(SERPS.c.site), func.max(SERPS.c.site)), account, None, since, until
        )
        least, greatest = conn.execute(query).one()
        return least == greatest

    def _top10s(
        self,
        conn: Connection,
        account: str,
        site: str | None,
        since: date | None,
        until: date | None,
        keywords: Collection[str] | None,
        pairs: Collection[tuple[str, str]] | None,
        excluding: str | None = None,
    ) -> Any:
        """(day, keyword, position, domain, DR) of one top 10 per keyword and day (the first site's by name)
        among the chosen rows (without ``excluding``'s results when given), as a CTE."""
        query = top10s_within(
            select(SERPS.c.site, SERPS.c.keyword, SERPS.c.day, SERPS.c.position, SERPS.c.domain, SERPS.c.dr),
            account,
            site,
            since,
            until,
        )
        if excluding is not None:  # left out before the first site is chosen, as the definition does
            query = query.where(SERPS.c.domain != excluding)
        if keywords is not None:
            query = query.join(CHOSEN_KEYWORDS, CHOSEN_KEYWORDS.c.keyword == SERPS.c.keyword)
        if pairs is not None:
            query = query.join(
                CHOSEN_PAIRS,
                and_(CHOSEN_PAIRS.c.site == SERPS.c.site, CHOSEN_PAIRS.c.keyword == SERPS.c.keyword),
            )
        chosen = query.cte("chosen")
        if site is not None or self._one_site(
            conn, account, since, until
        ):  # its top 10s are the first site's
            return chosen
        first = (
            select(chosen.c.day, chosen.c.keyword, func.min(chosen.c.site).label("site"))
            .group_by(chosen.c.day, chosen.c.keyword)
            .cte("first_site")
        )
        return (
            select(chosen.c.day, chosen.c.keyword, chosen.c.position, chosen.c.domain, chosen.c.dr)
            .join_from(
                chosen,
                first,
                and_(
                    first.c.day == chosen.c.day,
                    first.c.keyword == chosen.c.keyword,
                    first.c.site == chosen.c.site,
                ),
            )
            .cte("top10")
        )

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
        """The sums per day and domain (``MARKET_DOMAIN_SUMS``) and per day (``MARKET_DAY_SUMS``) of the
        top 10s of the keywords watched for ``site`` (all when None) from ``since`` to ``until``, only
        ``keywords`` / only the (site, keyword) ``pairs`` when given, weighed by ``curve`` (c(1)…c(n))
        and ``volumes``; by day (then domain)."""
        with self.with_data(curve, volumes or {}, keywords, pairs) as conn:
            top10 = self._top10s(conn, account, site, since, until, keywords, pairs)
            # Each (day, keyword, domain) once, at its best place on the curve (NULL when none is on it):
            # the days' keywords are counted from it too, so the top 10s are read once.
            on_curve = case((top10.c.position.between(1, len(curve)), top10.c.position))
            best = (
                select(top10.c.day, top10.c.keyword, top10.c.domain, func.min(on_curve).label("position"))
                .group_by(top10.c.day, top10.c.keyword, top10.c.domain)
                .cte("best")
            )
            per_domain = (
                select(
                    literal("domain").label("kind"),
                    best.c.day,
                    best.c.domain,
                    func.sum(CURVE.c.clicks).label("clicks"),
                    func.sum(CURVE.c.clicks * VOLUMES.c.volume).label("volume_clicks"),
                    *(cast(null(), Float).label(name) for name in MARKET_DAY_SUMS[1:]),
                )
                .join_from(best, CURVE, CURVE.c.position == best.c.position)
                .outerjoin(VOLUMES, VOLUMES.c.keyword == best.c.keyword)
                .group_by(best.c.day, best.c.domain)
            )
            rows = conn.execute(union_all(per_domain, self._per_day(best))).all()
        # Each kind's rows made into a frame of its own, so each column's type is as its values give it.
        per_domain_frame = pd.DataFrame(
            [tuple(row)[1:5] for row in rows if row.kind == "domain"], columns=list(MARKET_DOMAIN_SUMS)
        ).sort_values(["day", "domain"], ignore_index=True)
        per_day_frame = pd.DataFrame(
            [(row.day, *tuple(row)[5:]) for row in rows if row.kind == "day"], columns=list(MARKET_DAY_SUMS)
        ).sort_values("day", ignore_index=True)
        per_domain_frame = per_domain_frame.astype({"clicks": "float64", "volume_clicks": "float64"})
        per_day_frame = per_day_frame.astype(
            {"keywords": "int64", "volume": "float64", "volumes_known": "int64", "kept": "int64"}
        )
        return _days(per_domain_frame), _days(per_day_frame)

    @staticmethod
    def _per_day(best: Any) -> Select[Any]:
        """Each day's keywords, the sum of their known volumes, how many were known, and how many of them
        the previous recorded day had too (rows of the kind "day")."""
        day_keywords = (
            select(best.c.day, best.c.keyword).group_by(best.c.day, best.c.keyword).cte("day_keywords")
        )
        days = (
            select(
                day_keywords.c.day,
                func.count().label("keywords"),
                func.coalesce(func.sum(VOLUMES.c.volume), 0.0).label("volume"),
                func.count(VOLUMES.c.volume).label("volumes_known"),
            )
            .join_from(day_keywords, VOLUMES, VOLUMES.c.keyword == day_keywords.c.keyword, isouter=True)
            .group_by(day_keywords.c.day)
            .cte("days")
        )
        ordered = select(days.c.day, func.lag(days.c.day).over(order_by=days.c.day).label("previous")).cte(
            "ordered"
        )
        now, before = day_keywords.alias("now"), day_keywords.alias("before")
        kept = (
            select(ordered.c.day, func.count().label("kept"))
            .join_from(ordered, now, now.c.day == ordered.c.day)
            .join(before, and_(before.c.day == ordered.c.previous, before.c.keyword == now.c.keyword))
            .group_by(ordered.c.day)
            .cte("kept")
        )
        return select(
            literal("day").label("kind"),
            days.c.day,
            cast(null(), String).label("domain"),
            cast(null(), Float).label("clicks"),
            cast(null(), Float).label("volume_clicks"),
            cast(days.c.keywords, Float).label("keywords"),
            cast(days.c.volume, Float).label("volume"),
            cast(days.c.volumes_known, Float).label("volumes_known"),
            cast(func.coalesce(kept.c.kept, 0), Float).label("kept"),
        ).join_from(days, kept, kept.c.day == days.c.day, isouter=True)

    def dr_spread(
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
        """Per day and keyword of the same top 10s as ``sums``: the median, lowest and highest DR of the
        results with one, the spread (highest − lowest) and how many had one (``SPREAD_COLUMNS``), by
        day and keyword; a keyword whose results had none that day is absent. Without the results of the
        domain ``excluding`` when given (a site measured against the domains it has to pass: the rows
        left out first, then one top 10 per keyword and day, as ``analysis.opportunities.series`` does)."""
        with self.with_data((), {}, keywords, pairs) as conn:
            top10 = self._top10s(conn, account, site, since, until, keywords, pairs, excluding)
            group = (top10.c.day, top10.c.keyword)
            rated = (
                select(
                    top10.c.day,
                    top10.c.keyword,
                    top10.c.dr,
                    func.row_number().over(partition_by=group, order_by=top10.c.dr).label("place"),
                    func.count().over(partition_by=group).label("rated"),
                )
                .where(top10.c.dr.is_not(None))
                .subquery()
            )
            middle = middle_place(rated.c.place, rated.c.rated)
            query = (
                select(
                    rated.c.day,
                    rated.c.keyword,
                    func.avg(case((middle, cast(rated.c.dr, Float)))).label("median_dr"),
                    cast(func.min(rated.c.dr), Float).label("min_dr"),
                    cast(func.max(rated.c.dr), Float).label("max_dr"),
                    func.max(rated.c.rated).label("rated"),
                )
                .group_by(rated.c.day, rated.c.keyword)
                .order_by(rated.c.day, rated.c.keyword)
            )
            return spread_frame(conn.execute(query).all())

    def latest_top10s(self, account: str, site: str, keywords: Collection[str], since: date) -> pd.DataFrame:
        """The top 10 of each of ``keywords`` watched for ``site`` on its latest recorded day from ``since``
        on (``serp_history``'s columns and order): one index probe a keyword for its day, then that day's
        rows, instead of every row of the period."""
        with self.with_data((), {}, keywords, None) as conn:
            mine = and_(SERPS.c.account == check_account(account), SERPS.c.site == subject_name(site))
            newest = (
                select(func.max(SERPS.c.day))
                .where(mine, SERPS.c.keyword == CHOSEN_KEYWORDS.c.keyword, SERPS.c.day >= since)
                .scalar_subquery()
            )
            latest = select(CHOSEN_KEYWORDS.c.keyword, newest.label("day")).subquery("latest")
            query = (
                select(*(SERPS.c[name] for name in SERP_COLUMNS))
                .join_from(
                    SERPS, latest, and_(latest.c.keyword == SERPS.c.keyword, latest.c.day == SERPS.c.day)
                )
                .where(mine)
                .order_by(SERPS.c.day, SERPS.c.site, SERPS.c.keyword, SERPS.c.position)
            )
            return serp_frame(conn.execute(query).all())

    def pairs(
        self, account: str, site: str | None, since: date | None, until: date | None
    ) -> list[tuple[str, str]]:
        """Each (site, keyword) with a top 10 from ``since`` to ``until`` (of ``site`` when given): what a
        brand or non-brand group is chosen among, and the keywords the Market page's tabs list. Read down
        the unique index, a few probes a pair (``store.walks``), never every row of the period."""
        with self._reading() as conn:
            return period_pairs(conn, account, site, since, until)
