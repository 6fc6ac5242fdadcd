"""A year of daily top 10s of N keywords watched for one site, written into a store fast enough for agency
size (5,000 keywords: some 18 million top-10 rows), and the day after it recorded as the daily job does.

The rows are ``bench.market_page``'s generator (some 400 domains that come and go, your site climbing in
and out, about one DR in 17 unresolved, a known search volume per keyword). On PostgreSQL they stream
through COPY, a few ten thousand rows in memory at a time; on SQLite through plain bulk inserts. Both go
around the daily job's upserts (far slower to fill, and not what the benchmarks measure). Every table
the rows go to is written through ``copy_rows`` / ``insert_rows`` below, after the store has made the
months' partitions they go to (PostgreSQL).
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

from bench.market_page import ACCOUNT, SITE, top10_of_day
from client.inputs import slug_for
from client.models import (
    KeywordReport,
    KeywordSnapshot,
    KeywordUser,
    SerpResult,
    TrackedKeyword,
    TrackedKeywords,
    TrackedWebsite,
)
from schema import history as history_columns

SITE_SLUG = slug_for(SITE)
#: Rows held in memory before they are sent (COPY) or inserted (SQLite).
BATCH = 20_000
#: The columns written: the history's own (``schema.history``), with the account and the stamp.
SERP_COLUMNS = ("account", *history_columns.SERP_COLUMNS, "source", "recorded_at")
KEYWORD_COLUMNS = ("account", *history_columns.KEYWORD_COLUMNS, "recorded_at")


@dataclass(frozen=True)
class Filled:
    """What a fill wrote: the top-10 rows, the keyword-day rows, and the seconds it took."""

    serp_rows: int
    keyword_rows: int
    seconds: float

    @property
    def rows_per_s(self) -> float:
        return (self.serp_rows + self.keyword_rows) / self.seconds if self.seconds else 0.0


def keyword_name(k: int) -> str:
    return f"keyword {k:04d}"


def search_volume(k: int) -> int:
    return 100 + (k * 37) % 5000


def _rows(
    keywords: int, days: Sequence[tuple[date, int]], now: datetime
) -> Iterator[tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]]:
    """Each keyword-day's keyword rows and top-10 rows, as tuples in ``KEYWORD_COLUMNS`` /
    ``SERP_COLUMNS`` order; ``days`` pairs each day with its number in the generator. Each keyword is
    both watched for your site (its report and top 10, under the domain) and one of the site's tracked
    keywords (its position and search volume, under the site's slug), as an agency's keywords are: the
    Market page reads the first (and the volumes of the second), the History page's keyword positions
    and the report's keyword section the second. The rows are the ones the daily job records."""
    for k in range(keywords):
        keyword, volume = keyword_name(k), search_volume(k)
        for day, n in days:
            results = top10_of_day(k, n)
            mine = next((p for p, d, _dr in results if d == SITE), None)
            stamp = (ACCOUNT, SITE, keyword, day)
            measured = (mine, None, 50.0, 20.0, 45, 5.0, "advanced", None)
            yield (
                [
                    (*stamp, *measured, None, "job", now),
                    (ACCOUNT, SITE_SLUG, keyword, day, *measured, volume, "job", now),
                ],
                [(*stamp, p, d, dr, "job", now) for p, d, dr in results],
            )


def watch(store: Any, keywords: int) -> None:
    """Your site, two competitors and ``keywords`` keywords watched for your site, one in four tagged
    "pricing" (a keyword group of the Market page)."""
    store.watchlist.watch(ACCOUNT, "domain", SITE, origin="own")
    for competitor in ("rival-001.com", "rival-002.com"):
        store.watchlist.watch(ACCOUNT, "domain", competitor)
    for k in range(keywords):
        store.watchlist.watch(ACCOUNT, "keyword", keyword_name(k), site=SITE)
        if k % 4 == 0:
            store.groups.set_keyword_tags(ACCOUNT, keyword_name(k), ["pricing"])


def fill(url: str, keywords: int, days: int, last_day: date) -> Filled:
    """``days`` days of ``keywords`` keywords ending on ``last_day`` into the store at ``url`` (made and
    migrated by ``HistoryStore.open``), with the watchlist; the tables are analysed after a PostgreSQL
    fill, as the server's autovacuum would do soon after."""
    from store import HistoryStore
    from store.rollups.tables import bump_keyword_days

    span = [(last_day - timedelta(days=back), days - back) for back in range(days - 1, -1, -1)]
    rows = _rows(keywords, span, datetime.now(UTC))
    with HistoryStore.open(url) as store:
        watch(store, keywords)
        started = time.perf_counter()
        store.partitions.ensure(day for day, _n in span)  # the rows go in directly: their months first
        with store.engine.begin() as conn:
            if conn.dialect.name == "postgresql":
                serps, keyword_rows = copy_rows(conn, rows)
            else:
                serps, keyword_rows = insert_rows(conn, rows)
            bump_keyword_days(conn, ACCOUNT, [day for day, _n in span])  # as the job's writes mark them
        if store.engine.dialect.name == "postgresql":
            with store.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
                conn.exec_driver_sql("ANALYZE serp_results")
                conn.exec_driver_sql("ANALYZE keyword_snapshots")
        return Filled(serps, keyword_rows, time.perf_counter() - started)


def _copy_text(value: Any) -> str:
    if value is None:
        return "\\N"
    if isinstance(value, datetime):
        return value.isoformat()
    return str(value)


def copy_rows(
    conn: Any, rows: Iterator[tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]]
) -> tuple[int, int]:
    """The rows through two COPY streams in turn (the top 10s, then the keyword rows: one connection
    has one COPY at a time), ``BATCH`` rows of text in memory at a time; the keyword rows wait in a
    temporary file meanwhile. Names and values are the generator's own: no tab, newline or backslash
    needs escaping."""
    from sqlalchemy import Table

    from store.models import KeywordSnapshotRow, SerpResultRow

    serps_table: Table = SerpResultRow.__table__
    keywords_table: Table = KeywordSnapshotRow.__table__
    cursor = conn.connection.driver_connection.cursor()
    counts = [0, 0]
    with tempfile.TemporaryFile("w+", encoding="utf-8") as waiting:
        with cursor.copy(f"COPY {serps_table.name} ({', '.join(SERP_COLUMNS)}) FROM STDIN") as copy:
            lines: list[str] = []
            for keyword_rows, serp_rows in rows:
                waiting.writelines("\t".join(map(_copy_text, row)) + "\n" for row in keyword_rows)
                counts[1] += len(keyword_rows)
                lines.extend("\t".join(map(_copy_text, row)) + "\n" for row in serp_rows)
                if len(lines) >= BATCH:
                    copy.write("".join(lines))
                    counts[0] += len(lines)
                    lines.clear()
            copy.write("".join(lines))
            counts[0] += len(lines)
        waiting.seek(0)
        with cursor.copy(f"COPY {keywords_table.name} ({', '.join(KEYWORD_COLUMNS)}) FROM STDIN") as copy:
            while block := waiting.read(1 << 20):
                copy.write(block)
    return counts[0], counts[1]


def insert_rows(
    conn: Any, rows: Iterator[tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]]
) -> tuple[int, int]:
    """The rows as plain bulk inserts, ``BATCH`` top-10 rows at a time (SQLite)."""
    from sqlalchemy import insert

    from store.models import KeywordSnapshotRow, SerpResultRow

    serps: list[dict[str, Any]] = []
    keyword_dicts: list[dict[str, Any]] = []
    counts = [0, 0]

    def flush() -> None:
        if serps:
            conn.execute(insert(SerpResultRow.__table__), serps)
        if keyword_dicts:
            conn.execute(insert(KeywordSnapshotRow.__table__), keyword_dicts)
        counts[0] += len(serps)
        counts[1] += len(keyword_dicts)
        serps.clear()
        keyword_dicts.clear()

    for keyword_rows, serp_rows in rows:
        keyword_dicts.extend(dict(zip(KEYWORD_COLUMNS, row, strict=True)) for row in keyword_rows)
        serps.extend(dict(zip(SERP_COLUMNS, row, strict=True)) for row in serp_rows)
        if len(serps) >= BATCH:
            flush()
    flush()
    return counts[0], counts[1]


def report_of_day(k: int, n: int) -> KeywordReport:
    """Keyword ``k``'s report on generator day ``n`` as the service answers it (the same top 10 the
    fill writes)."""
    results = [SerpResult(position=p, domain=d, dr=dr) for p, d, dr in top10_of_day(k, n)]
    user = KeywordUser(domain=SITE, dr=45, gap=5.0, tier="advanced")
    return KeywordReport(keyword=keyword_name(k), results=results, median_dr=50.0, min_dr=20.0, user=user)


def tracked_of_day(keywords: int, n: int) -> TrackedKeywords:
    """Your site's tracked keywords on generator day ``n`` as the service lists them (the positions the
    fill writes under the site's slug)."""
    listed = []
    for k in range(keywords):
        mine = next((p for p, d, _dr in top10_of_day(k, n) if d == SITE), None)
        snapshot = KeywordSnapshot(
            median_dr=50.0,
            min_dr=20.0,
            user_dr=45,
            gap=5.0,
            tier="advanced",
            search_volume=search_volume(k),
            user_position=mine,
        )
        listed.append(TrackedKeyword(id=f"t{k}", keyword=keyword_name(k), snapshot=snapshot))
    return TrackedKeywords(website=TrackedWebsite(slug=SITE_SLUG), keywords=listed)


def record_day(url: str, keywords: int, day: date, n: int) -> float:
    """The day recorded as the daily job records it (``record_read``): your site's tracked keywords in
    one write, then every watched keyword's report (one upsert of its row and its top 10 each); the
    seconds it took."""
    from store import HistoryStore

    started = time.perf_counter()
    with HistoryStore.open(url) as store:  # the store's writes make the day's month themselves
        store.snapshots.record_read(
            ACCOUNT, "tracked_keywords", SITE_SLUG, tracked_of_day(keywords, n), day, "job"
        )
        for k in range(keywords):
            asked = (keyword_name(k), SITE)
            store.snapshots.record_read(ACCOUNT, "keyword_report", asked, report_of_day(k, n), day, "job")
    return time.perf_counter() - started
