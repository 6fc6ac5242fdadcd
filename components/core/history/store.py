"""The app's side of the history store: one shared store per database, what the page reads through,
demo history for the sandbox, and free history from the reads pages make anyway.

- ``history_store()`` opens the database once per process (one ``st.cache_resource``). When it cannot
  be opened the app keeps working: ``history_problem()`` says why in plain words (never a password),
  and the store is asked again after ``RETRY_AFTER_S``, so a database that comes back is used again.
- ``page_source(conn)`` is what the History page reads rows through: the store's rows for this
  account, its recent answers kept in the database's query cache.
- Free history from the reads pages make anyway (``record_read``) lives in ``history_reads``.
- ``ensure_demo_history`` seeds an empty store with ``DEMO_DAYS`` of demo history in Sandbox mode
  only, once per process and account, and evaluates the alert rules on its last ``DEMO_ALERT_DAYS``.
- ``cached_read`` / ``account_changed``: other parts of the app (the sidebar's open-alert count) keep
  small reads of an account in the same per-database cache as the History page, dropped together.
- With the shared cache on, a change made here (a watch, an acknowledged alert) is announced, and one
  announced by another replica drops this process's copies of that account at once.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import TYPE_CHECKING, Any, TypeVar

import streamlit as st

from components.core.cache import shared_cache
from components.core.cache.connection import Connection
from components.core.history.source import CachedSource, HistorySource, QueryCache, StoreSource
from services.alerts.evaluate import evaluate_alerts

if TYPE_CHECKING:
    from store import HistoryStore
    from store.watchlist import WatchKind

logger = logging.getLogger(__name__)
T = TypeVar("T")

#: After a failed open, how long the app works without history before it tries the database again.
RETRY_AFTER_S = 30.0
#: How long the read hook trusts its copy of an account's watched subjects (a watch from this app
#: drops it at once, so does one announced by another replica; one from the job is seen within this time).
WATCHED_TTL_S = 30.0
UNAVAILABLE = "History is unavailable"
#: How long the History page reuses what it read (rows written by the job or another replica show
#: within this time; rows written by this process at once).
QUERY_TTL_S = 60.0
#: How many days of the demo history the alert rules run over when it is seeded: a month shows several
#: rules (a week shows one or two).
DEMO_ALERT_DAYS = 30


@dataclass
class Door:
    """The store of one database URL: opened on first use, its problem remembered when it cannot be."""

    url: str
    store: HistoryStore | None = None
    problem: str | None = None
    failed_at: float | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)
    watched: dict[str, tuple[float, frozenset[tuple[str, str, str]]]] = field(default_factory=dict)
    seeded: set[str] = field(default_factory=set)
    #: account → whether its history is demo data (asked once per process).
    demo: dict[str, bool] = field(default_factory=dict)
    owned: set[str] = field(default_factory=set)
    #: The page's recent reads (see ``QueryCache``): dropped by every write from this process.
    queries: QueryCache = field(default_factory=lambda: QueryCache(ttl_s=QUERY_TTL_S))

    def open(self) -> HistoryStore | None:
        if self.store is not None:
            return self.store
        with self.lock:
            if self.store is not None:
                return self.store
            if self.failed_at is not None and time.monotonic() - self.failed_at < RETRY_AFTER_S:
                return None
            from store import HistoryStore, StoreUnavailable

            try:
                self.store = HistoryStore.open(self.url)
                self.problem, self.failed_at = None, None
            except StoreUnavailable as exc:
                self.problem, self.failed_at = exc.reason, time.monotonic()
            except Exception as exc:  # any other failure: the app goes on without history
                self.problem = f"the history database could not be opened ({type(exc).__name__})"
                self.failed_at = time.monotonic()
            return self.store

    def failed(self, exc: Exception) -> None:
        """A read or write failed on an open store: say why on the page (the store stays open)."""
        self.problem = getattr(exc, "reason", None) or f"the history database failed ({type(exc).__name__})"

    def changed(self, account: str | None) -> None:
        """Forget what this process keeps of ``account``'s history (of every account when None)."""
        if account is None:
            self.watched.clear()
        else:
            self.watched.pop(account, None)
        self.queries.changed(account)

    def watched_subjects(self, account: str) -> frozenset[tuple[str, str, str]]:
        cached = self.watched.get(account)
        if cached is not None and cached[0] > time.monotonic():
            return cached[1]
        assert self.store is not None
        subjects = self.store.watchlist.watched_subjects(account)
        self.watched[account] = (time.monotonic() + WATCHED_TTL_S, subjects)
        return subjects


@st.cache_resource(show_spinner=False)
def _door(url: str) -> Door:
    return Door(url)


def current_door() -> Door:
    from store import database_url

    shared_cache.current(history_changed=changed_elsewhere)  # other replicas' changes reach this one
    return _door(database_url())


def changed_elsewhere(account: str | None) -> None:
    """Another process changed this account's history (None: maybe any): read it afresh here."""
    current_door().changed(account)


def _tell_others(account: str) -> None:
    shared = shared_cache.current()
    if shared is not None:
        shared.announce_history(account)


def history_store() -> HistoryStore | None:
    """The shared store for the configured database, or None when it cannot be used just now."""
    return current_door().open()


def history_problem() -> str | None:
    """Why history is unavailable (or why its last read or write failed), in plain words; None if fine."""
    return current_door().problem


def store_failed(exc: Exception) -> None:
    """A read of the page failed: remember why (the page says it) and read afresh next time."""
    door = current_door()
    door.failed(exc)
    door.queries.changed()


def cached_read(account: str, name: str, read: Callable[[], T]) -> T:
    """``read()``, kept up to ``QUERY_TTL_S`` under ``(account, name)`` in the database's query cache
    (dropped by every write of the account from this process, and by ``account_changed``)."""
    return current_door().queries.get((account, name), read)


def account_changed(account: str) -> None:
    """The account's history changed here (an alert acknowledged, rules run): read it afresh, here and
    in every other process sharing the cache."""
    current_door().queries.changed(account)
    _tell_others(account)


def database_for_display() -> str:
    """The configured database as it may be shown: its password hidden."""
    from store import database_url, display_url

    return display_url(database_url())


def history_day(conn: Connection) -> date:
    """The day a read stands for: the sandbox's own day in Sandbox mode, else today in UTC."""
    if conn.mode == "sandbox":
        try:
            from sandbox.clock import today
        except ImportError:
            pass
        else:
            return today()
    return datetime.now(UTC).date()


# --- what the page reads through ---------------------------------------------------------------------


def page_source(conn: Connection) -> HistorySource | None:
    """Where this account's history rows come from; None when history is unavailable."""
    door = current_door()
    store = door.open()
    if store is None or not conn.has_key:
        return None
    return CachedSource(StoreSource(store, conn.fingerprint), door.queries)


# --- the watchlist from the app --------------------------------------------------------------------


def watched(conn: Connection) -> frozenset[tuple[str, str, str]]:
    """This account's watched (kind, subject, site) triples; empty when history is unavailable."""
    door = current_door()
    if door.open() is None or not conn.has_key:
        return frozenset()
    try:
        return door.watched_subjects(conn.fingerprint)
    except Exception as exc:  # a failing store never breaks a page
        door.failed(exc)
        return frozenset()


def set_watched(
    conn: Connection, kind: WatchKind, subject: str, watch: bool, site: str | None = None
) -> bool:
    """Watch or stop watching a subject (a keyword: for ``site``) for this account; True when that
    changed anything."""
    door = current_door()
    store = door.open()
    if store is None or not conn.has_key:
        return False
    account = conn.fingerprint
    if watch:
        changed = store.watchlist.watch(account, kind, subject, site=site)
    else:
        changed = store.watchlist.unwatch(account, kind, subject, site)
    door.changed(account)
    _tell_others(account)
    return changed


def change_history(conn: Connection, change: Callable[[HistoryStore, str], bool]) -> bool:
    """``change(store, account)`` (a keyword's tags, a site's brand terms, a note) for this account, then
    every page and replica reads afresh; its result (True: something changed), False without a store."""
    door = current_door()
    store = door.open()
    if store is None or not conn.has_key:
        return False
    changed = change(store, conn.fingerprint)
    door.changed(conn.fingerprint)
    _tell_others(conn.fingerprint)
    return changed


def record_now(conn: Connection, operation: str, asked: Any, value: Any) -> bool:
    """Record an answer under what it was asked with (right after Watch), on the calling thread; True
    when the day now holds it."""
    door = current_door()
    store = door.open()
    if store is None or not conn.has_key:
        return False
    from store.rows import Unusable

    try:
        store.snapshots.record_read(conn.fingerprint, operation, asked, value, history_day(conn), "browsing")
    except Unusable:  # an answer that says nothing true enough to keep: the day stays without it
        return False
    door.queries.changed(conn.fingerprint)
    _tell_others(conn.fingerprint)
    return True


def remember_own_sites(conn: Connection, domains: list[str]) -> None:
    """Put the account's own sites on its watchlist (once per process and account)."""
    door = current_door()
    store = door.open()
    if store is None or not conn.has_key or conn.fingerprint in door.owned:
        return
    try:
        for domain in domains:
            store.watchlist.watch(conn.fingerprint, "domain", domain, origin="own")
    except Exception as exc:  # tried again on the next page run
        door.failed(exc)
        return
    door.owned.add(conn.fingerprint)
    door.changed(conn.fingerprint)


# --- demo history ----------------------------------------------------------------------------------

_seed_lock = threading.Lock()


def ensure_demo_history(conn: Connection) -> bool:
    """In Sandbox mode, seed an empty store with the demo account's history; True when the account's
    history is demo data. Never seeds in Live mode."""
    if conn.mode != "sandbox" or conn.api_key is None:
        return False
    door = current_door()
    store = door.open()
    if store is None:
        return False
    account = conn.fingerprint
    try:
        if account not in door.seeded:
            with st.spinner("Preparing the demo history (once)…"):
                seed_if_empty(door, store, account, conn.api_key.get_secret_value(), history_day(conn))
        if account not in door.demo:
            door.demo[account] = store.snapshots.has_demo_rows(account)
    except Exception as exc:  # the page says history is unavailable; the rest of the app goes on
        door.failed(exc)
        return False
    return door.demo[account]


def seed_if_empty(door: Door, store: HistoryStore, account: str, key: str, today: date) -> None:
    with _seed_lock:
        if account in door.seeded:
            return
        if not store.snapshots.has_rows(account):
            seed_demo_history(store, account, key, today)
            _evaluate_demo_alerts(store, account)
        door.seeded.add(account)
        door.changed(account)


def _evaluate_demo_alerts(store: HistoryStore, account: str) -> None:
    """The demo's alerts (nothing is sent anywhere). A failure is logged and leaves the history as it
    is: the demo's charts never depend on its alerts."""
    try:
        evaluate_alerts(store, account, days=DEMO_ALERT_DAYS)
    except Exception as exc:
        logger.warning("demo alerts not evaluated: %s", getattr(exc, "reason", None) or type(exc).__name__)


def seed_demo_history(store: HistoryStore, account: str, key: str, today: date) -> None:
    """``DEMO_DAYS`` of the demo key's history ending ``today`` (``sandbox.demo_history.demo_rows``),
    all marked as demo."""
    from sandbox.demo_history import demo_rows

    demo = demo_rows(key, today)
    for kind, subject, origin, site in demo.watches:
        store.watchlist.watch(account, kind, subject, origin=origin, site=site)
    store.snapshots.seed(
        account,
        demo.lookups,
        demo.trust_maps,
        demo.trackeds,
        source="demo",
        keyword_reports=demo.keyword_reports,
    )
