"""Free history from browsing: a read the service just answered is kept when its subject is watched.

``record_read`` is called by the data layer after a fresh read of a lookup, Trust Map, tracked keyword
list or keyword report. The write runs on one background thread, so a page never waits on the
database, and it never fails a read: a store error is remembered and shown on the History page. An
answer is kept under what it was asked with (the domain, the slug, the keyword and the site it was
asked for), never under what it says it is about; a keyword report asked for no site is not kept.
"""

from __future__ import annotations

import threading
from concurrent.futures import Future, ThreadPoolExecutor, wait
from datetime import date
from typing import Any

from components.core.cache.connection import Connection
from components.core.history.store import Door, current_door, history_day, seed_if_empty

#: The reads that leave history behind (named as the client's methods).
RECORDED = frozenset({"lookup", "trust_map", "tracked_keywords", "keyword_report"})

_writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="history-writer")
_pending: set[Future[None]] = set()
_pending_lock = threading.Lock()


def record_read(conn: Connection, operation: str, args: tuple[Any, ...], value: Any) -> None:
    """After a fresh read: record it in the background when its subject is watched (own sites' tracked
    keyword lists always). Never raises and never waits on the database."""
    if operation not in RECORDED or value is None or conn.api_key is None:
        return
    try:
        door = current_door()
        demo_key = conn.api_key.get_secret_value() if conn.mode == "sandbox" else None
        day = history_day(conn)
        job = _writer.submit(_record, door, conn.fingerprint, demo_key, operation, args, value, day)
        with _pending_lock:
            _pending.add(job)
        job.add_done_callback(_forget)
    except Exception:  # noqa: S110 - history must never fail a read
        pass


def _forget(job: Future[None]) -> None:
    with _pending_lock:
        _pending.discard(job)


def wait_for_recording(timeout_s: float = 10.0) -> None:
    """Until the reads recorded so far are written (tests and benchmarks look at the store after)."""
    with _pending_lock:
        jobs = list(_pending)
    wait(jobs, timeout=timeout_s)


def _recorded_as(operation: str, args: tuple[Any, ...]) -> tuple[tuple[str, str, str] | None, Any]:
    """The watch a fresh read is about, (kind, subject, site), and what it was asked with, as the store
    records it. The watch is None for a tracked-keyword list (always one of the account's own sites),
    and for a keyword report asked for no domain, which says where no site stands (nothing to keep)."""
    from store import normalise_subject

    if operation == "keyword_report":
        keyword, domain = args
        if domain is None:
            return ("keyword", "", ""), None
        return ("keyword", normalise_subject("keyword", keyword), domain), (keyword, domain)
    if operation == "tracked_keywords":
        return None, args[0]
    return ("domain", args[0], ""), args[0]


def _record(
    door: Door,
    account: str,
    demo_key: str | None,
    operation: str,
    args: tuple[Any, ...],
    value: Any,
    day: date,
) -> None:
    try:
        store = door.open()
        if store is None:
            return
        if demo_key is not None:
            seed_if_empty(door, store, account, demo_key, day)
        watch, asked = _recorded_as(operation, args)
        if watch is not None and watch not in door.watched_subjects(account):
            return
        if store.snapshots.record_read(account, operation, asked, value, day, "browsing") == "recorded":
            door.queries.changed(account)
        door.problem = None
    except Exception as exc:  # remembered, shown on the History page
        if type(exc).__name__ != "Unusable":  # an answer with nothing to keep is not a database problem
            door.failed(exc)
