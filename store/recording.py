"""Recording snapshots: one row per (account, subject, day), the latest write of the day winning.

Every write is one ``INSERT … ON CONFLICT (account, subject, day) DO UPDATE … WHERE <a value
differs>`` (SQLite and PostgreSQL both have it), so two writers of the same subject and day, the app
and the job, or two jobs, can never make a second row nor fail on the unique constraint; the row that
comes back (RETURNING) tells "recorded" from "unchanged" without a separate read that could race. A
Trust Map's links are replaced in the same transaction as its snapshot row, so a reader sees the old
sample or the new one, never a mix.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from datetime import UTC, date, datetime
from typing import Any, Literal, get_args

from sqlalchemy import Connection, Engine, Row, Table, and_, delete, exists, insert, or_, select
from sqlalchemy.dialects import postgresql, sqlite

from client.models import KeywordReport, Lookup, TrackedKeywords, TrustMap
from schema import history as columns
from store import rows as shape
from store.engine import Connected
from store.models import (
    DomainSnapshotRow,
    KeywordSnapshotRow,
    SerpResultRow,
    TrustMapLinkRow,
    TrustMapSnapshotRow,
)
from store.partitions import MonthlyPartitions
from store.rollups.tables import bump_days, bump_keyword_days
from store.watchlist import check_account

RecordOutcome = Literal["recorded", "unchanged"]
Source = Literal["job", "browsing", "demo"]
SOURCES: tuple[str, ...] = get_args(Source)

DOMAINS: Table = DomainSnapshotRow.__table__
TRUST_MAPS: Table = TrustMapSnapshotRow.__table__
LINKS: Table = TrustMapLinkRow.__table__
KEYWORDS: Table = KeywordSnapshotRow.__table__
SERPS: Table = SerpResultRow.__table__
#: The reads history keeps, named as the client's methods.
RECORDED_READS = ("lookup", "trust_map", "tracked_keywords", "keyword_report")
DOMAIN_KEY = ("account", "domain", "day")
KEYWORD_KEY = ("account", "site", "keyword", "day")
SERP_KEY = (*KEYWORD_KEY, "position")
#: Rows per INSERT statement when seeding (well under SQLite's bound-parameter limit).
CHUNK_ROWS = 400


def _check(account: str, day: date, source: str) -> None:
    check_account(account)
    if not isinstance(day, date) or isinstance(day, datetime):
        raise ValueError("day is the date the snapshot stands for (a datetime.date)")
    if source not in SOURCES:
        raise ValueError(f"source is one of {', '.join(SOURCES)}")


def _last_per_key(rows: Iterable[dict[str, Any]], key: Sequence[str]) -> list[dict[str, Any]]:
    """One row per key, the last one given winning (one statement may not touch a row twice)."""
    return list({tuple(row[name] for name in key): row for row in rows}.values())


def upsert_returning(
    conn: Connection,
    table: Table,
    rows: list[dict[str, Any]],
    key: Sequence[str],
    values: Sequence[str],
    returning: Sequence[str] = ("id",),
) -> list[Row[Any]]:
    """Insert ``rows``, or update the day's row where a value differs; the rows written (none: unchanged)."""
    if not rows:
        return []
    dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
    stmt = dialect.insert(table)
    excluded = stmt.excluded
    differs = or_(*(table.c[name].is_distinct_from(excluded[name]) for name in values))
    stmt = stmt.on_conflict_do_update(
        index_elements=[table.c[name] for name in key],
        set_={name: excluded[name] for name in rows[0] if name not in key},
        where=differs,
    ).returning(*(table.c[name] for name in returning))
    # The rows as parameters of one statement (SQLAlchemy's "insertmanyvalues"): it is compiled once and
    # cached, where a statement with the rows as its VALUES is compiled afresh for every chunk (most of
    # seeding's time).
    return list(conn.execute(stmt, rows).all())


def upsert(
    conn: Connection, table: Table, rows: list[dict[str, Any]], key: Sequence[str], values: Sequence[str]
) -> list[int]:
    """``upsert_returning``, giving the ids written (none: every row was unchanged)."""
    return [row.id for row in upsert_returning(conn, table, rows, key, values)]


def _replace_links(conn: Connection, links_by_snapshot: dict[int, list[dict[str, Any]]]) -> None:
    """Each snapshot's links, replacing whatever it held (one DELETE and one executemany for all)."""
    if not links_by_snapshot:
        return
    conn.execute(delete(LINKS).where(LINKS.c.snapshot_id.in_(list(links_by_snapshot))))
    rows = [{"snapshot_id": sid, **link} for sid, links in links_by_snapshot.items() for link in links]
    if rows:
        conn.execute(insert(LINKS), rows)


def _serp_rows(keyword_row: dict[str, Any], report: KeywordReport) -> list[dict[str, Any]]:
    """The report's top 10 under the keyword row's key and stamp."""
    stamp = {name: keyword_row[name] for name in (*KEYWORD_KEY, "source", "recorded_at")}
    return [{**stamp, **values} for values in shape.serp_values(report)]


def _record_serp(conn: Connection, rows: list[dict[str, Any]]) -> int:
    """One keyword's top 10 of one day, replacing the day's: positions it no longer has are deleted.
    The number of rows written or deleted (0: the day's top 10 was already this one)."""
    if not rows:
        return 0
    written = 0
    for chunk in _chunks(rows):
        written += len(upsert(conn, SERPS, chunk, SERP_KEY, columns.SERP_VALUES))
    first = rows[0]
    stale = delete(SERPS).where(
        and_(*(SERPS.c[name] == first[name] for name in KEYWORD_KEY)),
        SERPS.c.position.not_in([row["position"] for row in rows]),
    )
    written += conn.execute(stale).rowcount
    if written:  # the day's market roll-ups are summed again
        bump_days(conn, first["account"], [first["day"]])
    return written


def _record_keywords(conn: Connection, account: str, rows: list[dict[str, Any]]) -> int:
    """Keyword rows of the account (inserted, or updated where a value differs); the number written.
    The days of those written are marked as changed: their months' tallies are counted again."""
    written = upsert_returning(conn, KEYWORDS, rows, KEYWORD_KEY, columns.KEYWORD_VALUES, ("day",))
    bump_keyword_days(conn, account, {row.day for row in written})
    return len(written)


def _chunks(rows: list[dict[str, Any]]) -> Iterable[list[dict[str, Any]]]:
    for start in range(0, len(rows), CHUNK_ROWS):
        yield rows[start : start + CHUNK_ROWS]


class Snapshots(Connected):
    """The daily snapshots as they are recorded (``HistoryStore.snapshots``; read back through
    ``HistoryStore.queries``). Before writing keyword or top-10 rows it makes sure their months have a
    partition (``partitions``: nothing on SQLite, and once a month per process on PostgreSQL)."""

    def __init__(self, engine: Engine, writer: Engine, url: str, partitions: MonthlyPartitions) -> None:
        super().__init__(engine, writer, url)
        self._partitions = partitions

    def _stamp(self, account: str, day: date, source: str) -> dict[str, Any]:
        _check(account, day, source)
        return {"account": account, "day": day, "source": source, "recorded_at": datetime.now(UTC)}

    def record_lookup(
        self, account: str, lookup: Lookup, day: date, source: Source, domain: str | None = None
    ) -> RecordOutcome:
        """The day's lookup, under ``domain`` (the domain asked for) when given."""
        row = {**self._stamp(account, day, source), **shape.lookup_values(lookup, domain)}
        with self._writing() as conn:
            written = upsert(conn, DOMAINS, [row], DOMAIN_KEY, columns.DOMAIN_VALUES)
        return "recorded" if written else "unchanged"

    def record_trust_map(
        self, account: str, trust_map: TrustMap, day: date, source: Source, domain: str | None = None
    ) -> RecordOutcome:
        """The day's Trust Map and its links, under ``domain`` (the domain asked for) when given."""
        links = shape.trust_map_links(trust_map)
        row = {**self._stamp(account, day, source), **shape.trust_map_values(trust_map, links, domain)}
        with self._writing() as conn:
            written = upsert(conn, TRUST_MAPS, [row], DOMAIN_KEY, columns.TRUST_MAP_VALUES)
            if written:
                _replace_links(conn, {written[0]: links})
        return "recorded" if written else "unchanged"

    def record_tracked(
        self, account: str, tracked: TrackedKeywords, day: date, source: Source, slug: str | None = None
    ) -> RecordOutcome:
        """Every measured tracked keyword of the site (``slug``, the one asked for, else the answer's)."""
        stamp = self._stamp(account, day, source)
        keyword_rows = [{**stamp, **values} for values in shape.tracked_values(tracked, slug)]
        self._partitions.ensure([day])
        with self._writing() as conn:
            written = _record_keywords(conn, account, keyword_rows)
        return "recorded" if written else "unchanged"

    def record_keyword_report(
        self,
        account: str,
        report: KeywordReport,
        day: date,
        source: Source,
        site: str,
        keyword: str | None = None,
    ) -> RecordOutcome:
        """A watched keyword's report for the day, measured for ``site`` (a domain); ``Unusable`` (nothing
        written) when the report says where no site stands: a missing read is never "not ranking"."""
        row = {**self._stamp(account, day, source), **shape.keyword_report_values(report, site, keyword)}
        self._partitions.ensure([day])
        with self._writing() as conn:
            written = _record_keywords(conn, account, [row])
            written += _record_serp(conn, _serp_rows(row, report))
        return "recorded" if written else "unchanged"

    def record_read(
        self, account: str, operation: str, asked: Any, value: Any, day: date, source: Source
    ) -> RecordOutcome:
        """One answer of a read history keeps (``RECORDED_READS``, named as the client's methods), under
        what was asked, not what the answer says it is about: a lookup or Trust Map under the domain
        asked, a tracked-keyword list under the slug asked, a keyword report under (keyword, site).
        ``store.rows.Unusable`` when the answer says nothing true enough to keep."""
        if operation == "lookup":
            return self.record_lookup(account, value, day, source, asked)
        if operation == "trust_map":
            return self.record_trust_map(account, value, day, source, asked)
        if operation == "tracked_keywords":
            return self.record_tracked(account, value, day, source, asked)
        if operation == "keyword_report":
            keyword, site = asked
            return self.record_keyword_report(account, value, day, source, site, keyword)
        raise ValueError(f"history keeps {', '.join(RECORDED_READS)}, not {operation!r}")

    def seed(
        self,
        account: str,
        lookups: Iterable[tuple[date, Lookup]] = (),
        trust_maps: Iterable[tuple[date, TrustMap]] = (),
        trackeds: Iterable[tuple[date, TrackedKeywords]] = (),
        source: Source = "demo",
        keyword_reports: Iterable[tuple[date, KeywordReport, str]] = (),
    ) -> int:
        """Many days at once (demo history, backfills): one transaction per subject; rows written."""
        written = 0
        by_domain: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for day, lookup in lookups:
            row = {**self._stamp(account, day, source), **shape.lookup_values(lookup)}
            by_domain[row["domain"]].append(row)
        for domain_rows in by_domain.values():
            with self._writing() as conn:
                for chunk in _chunks(_last_per_key(domain_rows, DOMAIN_KEY)):
                    written += len(upsert(conn, DOMAINS, chunk, DOMAIN_KEY, columns.DOMAIN_VALUES))

        # day → (snapshot row, its links), per domain; the last map given for a day wins.
        maps_by_domain: dict[str, dict[date, tuple[dict[str, Any], list[dict[str, Any]]]]] = defaultdict(dict)
        for day, trust_map in trust_maps:
            links = shape.trust_map_links(trust_map)
            row = {**self._stamp(account, day, source), **shape.trust_map_values(trust_map, links)}
            maps_by_domain[row["domain"]][day] = (row, links)
        for by_day in maps_by_domain.values():
            with self._writing() as conn:
                for chunk in _chunks([row for row, _links in by_day.values()]):
                    changed = upsert_returning(
                        conn, TRUST_MAPS, chunk, DOMAIN_KEY, columns.TRUST_MAP_VALUES, ("id", "day")
                    )
                    _replace_links(conn, {row.id: by_day[row.day][1] for row in changed})
                    written += len(changed)

        by_site: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for day, tracked in trackeds:
            stamp = self._stamp(account, day, source)
            by_site[shape.subject_name(tracked.website.slug)].extend(
                {**stamp, **values} for values in shape.tracked_values(tracked)
            )
        self._partitions.ensure(row["day"] for rows in by_site.values() for row in rows)
        for site_rows in by_site.values():
            with self._writing() as conn:
                for chunk in _chunks(_last_per_key(site_rows, KEYWORD_KEY)):
                    written += _record_keywords(conn, account, chunk)

        report_rows, serp_rows = [], []
        for day, report, site in keyword_reports:
            row = {**self._stamp(account, day, source), **shape.keyword_report_values(report, site)}
            report_rows.append(row)
            serp_rows.extend(_serp_rows(row, report))
        if report_rows:  # watched keywords' reports and their top 10s: one transaction for all of them
            self._partitions.ensure(row["day"] for row in report_rows)
            with self._writing() as conn:
                for chunk in _chunks(_last_per_key(report_rows, KEYWORD_KEY)):
                    written += _record_keywords(conn, account, chunk)
                for chunk in _chunks(_last_per_key(serp_rows, SERP_KEY)):
                    written += len(upsert(conn, SERPS, chunk, SERP_KEY, columns.SERP_VALUES))
                bump_days(conn, account, {row["day"] for row in serp_rows})
        return written

    def has_rows(self, account: str) -> bool:
        """Whether the account has any recorded day at all."""
        return self._any_row(account, demo_only=False)

    def has_demo_rows(self, account: str) -> bool:
        """Whether any of the account's rows are demo history."""
        return self._any_row(account, demo_only=True)

    def _any_row(self, account: str, *, demo_only: bool) -> bool:
        check_account(account)
        checks = []
        for table in (DOMAINS, TRUST_MAPS, KEYWORDS, SERPS):
            condition = table.c.account == account
            if demo_only:
                condition = condition & (table.c.source == "demo")
            checks.append(exists().where(condition))
        with self._reading() as conn:
            return bool(conn.execute(select(or_(*checks))).scalar())

    def recorded_reads(self, account: str, day: date) -> set[tuple[str, Any]]:
        """The reads the day already holds, as ``(operation, asked)`` the way ``record_read`` takes them:
        ``("lookup", domain)``, ``("trust_map", domain)``, ``("tracked_keywords", slug)`` (a slug with at
        least one measured keyword kept) and ``("keyword_report", (keyword, site))`` (a top 10 kept).

        Demo history does not count (the sandbox's demo days are drawn, not read); a read recorded by the
        job or while browsing does. A keyword report is known by its top 10 rows, which only a report
        writes (a tracked keyword's row, under the site's slug, has none). The daily job asks only what
        is not here, so a run killed half-way and started again the same day never asks twice."""
        check_account(account)
        held: set[tuple[str, Any]] = set()
        queries: list[tuple[str, Any]] = [
            ("lookup", select(DOMAINS.c.domain).where(*self._of_day(DOMAINS, account, day))),
            ("trust_map", select(TRUST_MAPS.c.domain).where(*self._of_day(TRUST_MAPS, account, day))),
            (
                "tracked_keywords",
                select(KEYWORDS.c.site).distinct().where(*self._of_day(KEYWORDS, account, day)),
            ),
        ]
        reports = select(SERPS.c.keyword, SERPS.c.site).distinct().where(*self._of_day(SERPS, account, day))
        with self._reading() as conn:
            for operation, query in queries:
                held.update((operation, subject) for (subject,) in conn.execute(query))
            held.update(("keyword_report", (keyword, site)) for keyword, site in conn.execute(reports))
        return held

    @staticmethod
    def _of_day(table: Table, account: str, day: date) -> tuple[Any, ...]:
        return (table.c.account == account, table.c.day == day, table.c.source != "demo")
