"""``HistoryStore``: one history database, opened (and migrated) once, shared by threads.

It is a composition of one repository per area, each an attribute with a plain name, all over one
SQLAlchemy engine: ``watchlist`` (``store.watchlist``), ``snapshots`` (the writes, ``store.recording``),
``queries`` (the reads, ``store.queries``), ``market`` (the market's sums at the database,
``store.market``), ``latest`` (each keyword's latest rows of a site, ``store.latest``), ``audit`` (the
append-only audit log, ``store.audit``),
``alerts`` (``store.alerts.state``), ``groups`` (keyword tags and brand terms, ``store.groups``),
``notes`` (``store.notes``), and the reports' ``report_comments``, ``report_charts``, ``report_links``,
``feeds`` and ``report_schedules`` (``store.reports``), ``bulk`` (every table's rows at once, for moving
a history to another database: ``store.bulk``), ``retention`` (thinning old top 10s,
``store.retention``), ``partitions`` (the months the top-10 and keyword rows have a partition for on
PostgreSQL, ``store.partitions``), ``market_days`` (the market's sums from its daily roll-ups,
``store.rollups``), ``keyword_months`` (each keyword's rows tallied by month: the History page's
keyword summary and each keyword's best ever, ``store.rollups.keyword_months``), ``dr_days`` (each top
10's DRs of a day summed up: the DR spread of a period, ``store.rollups.dr_days``) and
``latest_values`` (each keyword's latest search volume and impressions, kept: the market's weights,
``store.rollups.latest_values``). Callers name the area:
``store.watchlist.watch(...)``, ``store.queries.domain_history(...)``. A repository that needs another
is given it when it is made (the report links write to the audit log; the snapshots and the bulk writes
the partitions; the roll-ups the market's sums); none reaches another through the store.
``open`` applies the migrations, so the app, the job and ``python -m store upgrade`` all find the
newest schema. Every failure to reach or use the database, at open and later, is a
``StoreUnavailable`` whose reason is plain words without password: at open here, later at the one
boundary every repository stands on (``store.engine.Connected``: each read and write opens its
connection there).
"""

from __future__ import annotations

from typing import Self

from sqlalchemy import Engine

from store.alerts.state import Alerts
from store.audit import AuditLog
from store.bulk import BulkRows
from store.config import display_url, parse_url
from store.engine import DATABASE_ERRORS, StoreUnavailable, make_engine, unavailable, write_engine
from store.groups import KeywordGroups
from store.latest import LatestRows
from store.market import MarketSums
from store.migrations import SchemaUnknown, upgrade
from store.notes import ChartNotes
from store.partitions import MonthlyPartitions
from store.queries import Queries
from store.recording import Snapshots
from store.reports.charts import ReportCharts
from store.reports.comments import ReportComments
from store.reports.feed_records import Feeds
from store.reports.links import ReportLinks
from store.reports.schedules import ReportSchedules
from store.retention import Retention
from store.rollups.days import MarketDays
from store.rollups.dr_days import DrDays
from store.rollups.keyword_months import KeywordMonths
from store.rollups.latest_values import LatestValues
from store.watchlist import Watchlist

SUPPORTED_BACKENDS = ("sqlite", "postgresql")


class HistoryStore:
    """The history of every account in one database, by area; each method takes the account it serves."""

    watchlist: Watchlist
    snapshots: Snapshots
    queries: Queries
    audit: AuditLog
    alerts: Alerts
    groups: KeywordGroups
    notes: ChartNotes
    report_comments: ReportComments
    report_charts: ReportCharts
    report_links: ReportLinks
    feeds: Feeds
    market: MarketSums
    latest: LatestRows
    report_schedules: ReportSchedules
    retention: Retention
    bulk: BulkRows
    partitions: MonthlyPartitions
    market_days: MarketDays
    keyword_months: KeywordMonths
    dr_days: DrDays
    latest_values: LatestValues

    def __init__(self, engine: Engine, url: str) -> None:
        self._engine = engine
        self.url = url
        on = (engine, write_engine(engine), url)
        self.partitions = MonthlyPartitions(*on)
        self.watchlist = Watchlist(*on)
        self.snapshots = Snapshots(*on, partitions=self.partitions)
        self.keyword_months = KeywordMonths(*on)
        self.queries = Queries(*on)
        self.market = MarketSums(*on)
        self.latest = LatestRows(*on)
        self.audit = AuditLog(*on)
        self.alerts = Alerts(*on)
        self.groups = KeywordGroups(*on)
        self.notes = ChartNotes(*on)
        self.report_comments = ReportComments(*on)
        self.report_charts = ReportCharts(*on)
        self.report_links = ReportLinks(*on, audit=self.audit)
        self.feeds = Feeds(*on)
        self.report_schedules = ReportSchedules(*on)
        self.retention = Retention(*on)
        self.bulk = BulkRows(*on, partitions=self.partitions)
        self.market_days = MarketDays(*on, sums=self.market)
        self.dr_days = DrDays(*on, sums=self.market)
        self.latest_values = LatestValues(*on)

    @classmethod
    def open(cls, url: str) -> Self:
        """Connect and migrate to the newest schema; StoreUnavailable when either cannot be done."""
        parsed = parse_url(url)
        if parsed is not None and parsed.get_backend_name() not in SUPPORTED_BACKENDS:
            raise StoreUnavailable(
                f"the history database at {display_url(url)} is neither SQLite nor PostgreSQL "
                "(use sqlite:///path/to/file.sqlite3 or postgresql+psycopg://user:password@host/database)"
            )
        engine = make_engine(url)
        try:
            upgrade(engine)
        except SchemaUnknown as exc:
            engine.dispose()
            raise StoreUnavailable(
                f"the history database at {display_url(url)} has a schema this version of the dashboard "
                "does not know (made by a newer version?): update the dashboard"
            ) from exc
        except DATABASE_ERRORS as exc:
            engine.dispose()
            raise unavailable(exc, url) from exc
        return cls(engine, url)

    @property
    def url_for_display(self) -> str:
        return display_url(self.url)

    @property
    def engine(self) -> Engine:
        return self._engine

    def close(self) -> None:
        self._engine.dispose()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"HistoryStore({self.url_for_display!r})"
