"""Engines for the history database and the plain-words reason when it cannot be used.

SQLite gets WAL (readers never wait for the writer; a connection refused the switch to WAL tries
again), a busy timeout (a writer waits for another instead of failing) and foreign keys. Its writes
start with ``BEGIN IMMEDIATE`` (``write_engine``): a deferred transaction that reads and then writes
can fail at once with "database is locked" when another process wrote in between, whatever the busy
timeout; an immediate one waits its turn. PostgreSQL is reached through psycopg 3 with a short
connect timeout, so an unreachable server is reported in seconds rather than hanging a page.
"""

from __future__ import annotations

import gc
import re
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Connection, Engine, Executable, create_engine, event
from sqlalchemy.exc import ArgumentError, DBAPIError, NoSuchModuleError, SQLAlchemyError

from client.safe_urls import scrub
from store.config import display_url, parse_url, sqlite_file

#: Seconds an SQLite writer waits for another writer before giving up.
SQLITE_BUSY_TIMEOUT_S = 30
POSTGRES_CONNECT_TIMEOUT_S = 5
#: The execution option that makes an SQLite transaction start with BEGIN IMMEDIATE.
WRITE_OPTION = "history_write"


class StoreUnavailable(Exception):
    """The history database cannot be used; ``reason`` says why in plain words, never with a password."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def _switch_to_wal(cursor: sqlite3.Cursor) -> None:
    """WAL, waiting its turn. Two connections switching a new file to WAL at the same moment would each
    wait for the other, so SQLite refuses one at once ("database is locked"), its busy timeout unused:
    the app and the daily job starting on a new database. The refused one tries again, as long as the
    busy timeout would have let it wait."""
    deadline = time.monotonic() + SQLITE_BUSY_TIMEOUT_S
    pause_s = 0.005
    while True:
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() + pause_s > deadline:
                raise
        time.sleep(pause_s)
        pause_s = min(pause_s * 2, 0.2)


def _sqlite_engine(url: str) -> Engine:
    engine = create_engine(url, connect_args={"timeout": SQLITE_BUSY_TIMEOUT_S, "check_same_thread": False})

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # The driver's own transaction handling is switched off: SQLAlchemy's "begin" below decides.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_S * 1000}")
        _switch_to_wal(cursor)
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Any) -> None:
        immediate = connection.get_execution_options().get(WRITE_OPTION, False)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")

    return engine


def make_engine(url: str) -> Engine:
    """An engine for ``url``; raises StoreUnavailable when the URL names no usable database."""
    parsed = parse_url(url)
    if parsed is None:
        raise StoreUnavailable(f"the history database URL {display_url(url)} could not be read")
    try:
        if parsed.get_backend_name() == "sqlite":
            path = sqlite_file(url)
            if path is not None:
                try:
                    path.parent.mkdir(parents=True, exist_ok=True)
                except OSError as exc:
                    raise StoreUnavailable(
                        f"could not create the folder {path.parent} for the history database: "
                        f"{exc.strerror or exc}"
                    ) from exc
            return _sqlite_engine(url)
        if parsed.get_backend_name() == "postgresql":
            return create_engine(
                url, pool_pre_ping=True, connect_args={"connect_timeout": POSTGRES_CONNECT_TIMEOUT_S}
            )
        return create_engine(url, pool_pre_ping=True)
    except (ArgumentError, NoSuchModuleError) as exc:
        raise StoreUnavailable(
            f"the history database URL {display_url(url)} names a database the dashboard cannot use "
            "(use sqlite:///path/to/file.sqlite3 or postgresql+psycopg://user:password@host/database)"
        ) from exc


def write_engine(engine: Engine) -> Engine:
    """The same engine (same pool) whose transactions are write transactions (SQLite: BEGIN IMMEDIATE)."""
    return engine.execution_options(**{WRITE_OPTION: True})


#: Driver messages and what they mean to someone setting the URL up.
_REASONS: tuple[tuple[str, str], ...] = (
    (r"connection refused", "connection refused"),
    (r"password authentication failed|authentication failed", "the user name or password was refused"),
    (r'database "[^"]*" does not exist', "that database does not exist on the server"),
    (r"role \"[^\"]*\" does not exist", "that user does not exist on the server"),
    (
        r"could not translate host name|name or service not known|nodename nor servname",
        "the host name could not be found",
    ),
    (r"timeout expired|timed out", "the server did not answer in time"),
    (r"no route to host|network is unreachable", "the network cannot reach the server"),
    (
        r"unable to open database file",
        "the database file cannot be opened (check the folder and its permissions)",
    ),
    (r"file is not a database|file is encrypted", "that file is not an SQLite database"),
    (r"readonly database|read-only", "the database is read-only"),
    (r"database is locked", "the database stayed locked by another program"),
    (
        r"no partition of relation",
        "the day's month has no partition in the database (the dashboard makes one before it writes; "
        "a script writing rows directly must make it first)",
    ),
    (r"permission denied", "permission denied"),
)


def plain_reason(exc: BaseException, url: str) -> str:
    """What went wrong with a database error, in words, with no password and no driver jargon."""
    text = str(getattr(exc, "orig", None) or exc)
    for pattern, words in _REASONS:
        if re.search(pattern, text, flags=re.IGNORECASE):
            return words
    parsed = parse_url(url)
    if parsed is not None and parsed.password:
        text = text.replace(str(parsed.password), "***")
    text = scrub(text, url)  # a password in the query, or one SQLAlchemy read differently
    first_line = text.strip().splitlines()[0] if text.strip() else type(exc).__name__
    return first_line[:200]


def unavailable(exc: BaseException, url: str, doing: str = "connect to") -> StoreUnavailable:
    """A StoreUnavailable for ``exc`` met while trying to ``doing`` the database at ``url``."""
    if isinstance(exc, StoreUnavailable):
        return exc
    return StoreUnavailable(
        f"could not {doing} the history database at {display_url(url)}: {plain_reason(exc, url)}"
    )


#: Errors that mean "the database cannot be used right now" rather than a bug.
DATABASE_ERRORS: tuple[type[BaseException], ...] = (DBAPIError, SQLAlchemyError, OSError)


@contextmanager
def plain_words(url: str, doing: str) -> Iterator[None]:
    """Database errors raised inside become StoreUnavailable ("could not <doing> the history database at
    <url without password>: <reason>")."""
    try:
        yield
    except StoreUnavailable:
        raise
    except DATABASE_ERRORS as exc:
        raise unavailable(exc, url, doing) from exc


_PAUSES = {"depth": 0, "was_enabled": False}
_PAUSES_LOCK = threading.Lock()


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cycle collector paused while a read turns a million rows and more into tuples and frames
    (a year of 5,000 keywords' daily DRs is 1.8 million rows): none of those objects is garbage, yet
    each young generation filled by them set off a pass over all of them, most of the read's time in
    Python. Nested and concurrent pauses count; the last to end resumes the collector if it ran before
    the first began. Memory is still freed as ever (by reference counts)."""
    with _PAUSES_LOCK:
        if _PAUSES["depth"] == 0:
            _PAUSES["was_enabled"] = gc.isenabled()
            gc.disable()
        _PAUSES["depth"] += 1
    try:
        yield
    finally:
        with _PAUSES_LOCK:
            _PAUSES["depth"] -= 1
            if _PAUSES["depth"] == 0 and _PAUSES["was_enabled"]:
                gc.enable()


#: PostgreSQL's memory for each sort or hash of one large read (its default, 4 MB, sends a year of a
#: thousand keywords' rows to disk).
LARGE_READ_WORK_MEM = "256MB"


def tune_large_read(conn: Connection) -> None:
    """On PostgreSQL, settings for this one read of many rows (gone with its transaction): its sorts and
    group-bys fit in memory instead of spilling to disk, and no JIT compiling, which costs such a read
    more than it saves. Nothing on SQLite."""
    if conn.dialect.name == "postgresql":
        conn.exec_driver_sql(f"SET LOCAL work_mem = '{LARGE_READ_WORK_MEM}'")
        conn.exec_driver_sql("SET LOCAL jit = off")


def driver_rows(conn: Connection, query: Executable) -> list[Any]:
    """The rows of a read of millions as the driver gives them: plain tuples, not SQLAlchemy's ``Row``
    objects, which cost about a microsecond each (1.8 million rows of a report's DR series: some 2 s of
    3.8). The query is still run by SQLAlchemy (its parameters bound as for any read); only the result's
    conversions are skipped, so a value comes as the driver reads it (SQLite: a day as its ISO text)."""
    result = conn.execute(query)
    try:
        with collector_paused():  # millions of new tuples, none of them garbage
            return list(result.cursor.fetchall())
    finally:
        result.close()


class Connected:
    """What every repository of ``HistoryStore`` stands on: the engine, and the one boundary where a
    database error becomes ``StoreUnavailable``. Every read opens ``_reading()``, every write
    ``_writing()`` (a transaction; SQLite: BEGIN IMMEDIATE); nothing else touches a connection, so no
    method can let a driver's error, with its jargon or a password, reach a page or a job.

    ``engine`` reads, ``writer`` (the same pool, ``write_engine``) writes, and ``url`` names the database
    in the plain-words reason (its password hidden)."""

    def __init__(self, engine: Engine, writer: Engine, url: str) -> None:
        self._engine = engine
        self._writer = writer
        self._url = url

    @contextmanager
    def _reading(self) -> Iterator[Connection]:
        with plain_words(self._url, "read"), self._engine.connect() as conn:
            yield conn

    @contextmanager
    def _writing(self) -> Iterator[Connection]:
        with plain_words(self._url, "write to"), self._writer.begin() as conn:
            yield conn
