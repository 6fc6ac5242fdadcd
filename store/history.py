"""``HistoryStore``: one history database, opened (and migrated) once, shared by threads.

It joins the watchlist (``store.watchlist``), the writes (``store.recording``), the reads
(``store.queries``), the append-only audit log (``store.audit``), the alerts (``store.alerts.state``),
the reports' comments, schedules, share links and spreadsheet feeds (``store.reports``) over one
SQLAlchemy engine.
``open`` applies the migrations, so the app, the job and ``python -m store upgrade`` all find the
newest schema. Every failure to reach or use the database, at open and later, is a
``StoreUnavailable`` whose reason is plain words without password: at open here, later at the one
boundary every part stands on (``store.engine.Connected``: each read and write opens its connection
there).
"""

from __future__ import annotations

from typing import Self

from sqlalchemy import Engine

from store.alerts.state import AlertsMixin
from store.audit import AuditMixin
from store.config import display_url, parse_url
from store.engine import DATABASE_ERRORS, StoreUnavailable, make_engine, unavailable, write_engine
from store.groups import GroupsMixin
from store.migrations import SchemaUnknown, upgrade
from store.notes import NotesMixin
from store.queries import QueriesMixin
from store.recording import RecordingMixin
from store.reports.comments import CommentsMixin
from store.reports.feed_records import FeedsMixin
from store.reports.links import LinksMixin
from store.reports.schedules import ReportScheduleMixin
from store.watchlist import WatchlistMixin

SUPPORTED_BACKENDS = ("sqlite", "postgresql")


class HistoryStore(
    WatchlistMixin,
    RecordingMixin,
    QueriesMixin,
    AuditMixin,
    AlertsMixin,
    GroupsMixin,
    NotesMixin,
    CommentsMixin,
    LinksMixin,
    FeedsMixin,
    ReportScheduleMixin,
):
    """The history of every account in one database; each method takes the account it serves."""

    def __init__(self, engine: Engine, url: str) -> None:
        self._engine = engine
        self._writer = write_engine(engine)
        self.url = url

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
