"""The Redis level of the shared cache: one ``SharedCache`` per Redis URL and process.

Loaded only when a Redis URL is configured (``components.core.cache.shared_cache.current``), so a server
without one never imports the Redis client. What it stores and why is told in
``components.core.cache.shared_cache``; the records' form is in
``components.core.cache.cache_records``; what the
processes tell each other is in ``components.core.cache.announcements``.

Every command is bounded by a short socket timeout and every failure is swallowed: a read that Redis
cannot answer goes on to the service, a warning is logged once per outage (every password of the URL
hidden by ``client.safe_urls``) and Redis is left alone for ``retry_after_s``.
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from client.safe_urls import display_url
from components.core.cache import announcements
from components.core.cache.cache_records import (
    ANSWER_TYPES,
    MAX_RECORD_BYTES,
    Fill,
    Record,
    decode,
    encode,
    entry_key,
    fill_key,
)

log = logging.getLogger(__name__)
T = TypeVar("T")

#: Every Redis command gives up after this long; a slow Redis must not slow a page down.
SOCKET_TIMEOUT_S = 0.25
#: After a failure, Redis is left alone this long before it is tried again.
RETRY_AFTER_S = 30.0
#: How long a claim to fill an entry lasts: longer than the client's timeout (20 s) by default.
FILL_LEASE_S = 30.0
#: How long a process waits for another's fill before it asks the service itself.
FILL_WAIT_S = 10.0
FILL_POLL_S = 0.05

#: Stores the entry only while the claim is still this fill's (a write drops it), and ends the claim.
_PUT_IF_CLAIMED = """
if redis.call('get', KEYS[2]) ~= ARGV[1] then return 0 end
redis.call('set', KEYS[1], ARGV[2], 'PX', ARGV[3])
redis.call('del', KEYS[2])
return 1
"""
#: Ends a claim without an entry (the service's answer was not one to keep), if it is still this fill's.
_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0
"""


def _reason(exc: ValueError) -> str:
    """Why a record was refused, in a few words for the log (never the record's own text)."""
    if type(exc) is ValueError and exc.args and isinstance(exc.args[0], str) and len(exc.args[0]) < 80:
        return exc.args[0]
    return "not the shape of the service's answer" if hasattr(exc, "errors") else type(exc).__name__


Forget = announcements.Forget
HistoryChanged = announcements.HistoryChanged


class SharedCache:
    """Get, put and delete shared answers; every failure is swallowed, logged once, and waited out."""

    def __init__(
        self,
        url: str,
        *,
        ttl_s: float = 15 * 60,
        socket_timeout_s: float = SOCKET_TIMEOUT_S,
        retry_after_s: float = RETRY_AFTER_S,
    ) -> None:
        self.url = url
        self.ttl_s = ttl_s
        self.retry_after_s = retry_after_s
        options: dict[str, Any] = {
            "socket_connect_timeout": socket_timeout_s,
            "retry": Retry(NoBackoff(), 0),
        }
        self._redis = redis.Redis.from_url(url, socket_timeout=socket_timeout_s, **options)
        # The listener's own connection (a subscribed connection can do nothing else); it waits for
        # announcements with its own timeout, the socket timeout bounds each read once one has come.
        self._listen_redis = redis.Redis.from_url(url, socket_timeout=socket_timeout_s, **options)
        self._put_if_claimed = self._redis.register_script(_PUT_IF_CLAIMED)
        self._release = self._redis.register_script(_RELEASE)
        self._lock = threading.Lock()
        self._down_until = 0.0
        self._in_outage = False
        #: Names this process's announcements, so its listener does not drop what it has just re-read.
        self.origin = secrets.token_hex(8)
        self._listener = announcements.Listener(
            self._listen_redis,
            self.origin,
            available=self.available,
            failed=self._failed,
            idle_s=min(1.0, retry_after_s),
        )

    # -- health --
    def available(self) -> bool:
        with self._lock:
            return time.monotonic() >= self._down_until

    def _failed(self, exc: Exception, doing: str) -> None:
        with self._lock:
            first = not self._in_outage
            self._in_outage = True
            self._down_until = time.monotonic() + self.retry_after_s
        if first:  # once per outage: retries that fail again stay quiet until one succeeds
            log.warning(
                "The shared cache at %s could not %s (%s); pages go on with this process's own cache "
                "and it is tried again every %.0f s.",
                display_url(self.url),
                doing,
                type(exc).__name__,
                self.retry_after_s,
            )

    def _worked(self) -> None:
        if self._in_outage:
            with self._lock:
                ended, self._in_outage = self._in_outage, False
            if ended:
                log.info("The shared cache at %s is reachable again.", display_url(self.url))

    def _bounded(self, doing: str, command: Callable[[], T], default: T) -> T:
        """``command()`` against Redis; on a failure ``default``, logged once per outage and left alone."""
        try:
            result = command()
        except redis.RedisError as exc:
            self._failed(exc, doing)
            return default
        self._worked()
        return result

    def _key(self, base_url: str, fingerprint: str, operation: str, args: tuple[Any, ...]) -> str | None:
        """The entry's key, or None when this read is not shared, cannot be keyed, or Redis is left alone."""
        if operation not in ANSWER_TYPES or not self.available():
            return None
        try:
            return entry_key(base_url, fingerprint, operation, args)
        except TypeError:
            return None

    # -- entries --
    def get(self, base_url: str, fingerprint: str, operation: str, args: tuple[Any, ...]) -> Record | None:
        key = self._key(base_url, fingerprint, operation, args)
        if key is None:
            return None
        return self._bounded("be read", lambda: self._read(key, operation, base_url), None)

    def claim(
        self,
        base_url: str,
        fingerprint: str,
        operation: str,
        args: tuple[Any, ...],
        *,
        wait_s: float = FILL_WAIT_S,
    ) -> Fill:
        """The shared record, or the claim to ask the service for it; while another process holds the
        claim, wait for its answer (up to ``wait_s``) rather than spend a second call on it."""
        key = self._key(base_url, fingerprint, operation, args)
        if key is None:
            return Fill()
        claimed = lambda: self._found_or_claimed(key, operation, base_url, wait_s)  # noqa: E731
        return self._bounded("be read", claimed, Fill())

    def _found_or_claimed(self, key: str, operation: str, base_url: str, wait_s: float) -> Fill:
        token = secrets.token_hex(8)
        deadline = time.monotonic() + wait_s
        while True:
            found = self._read(key, operation, base_url)
            if found is not None:
                return Fill(found=found)
            if self._redis.set(fill_key(key), token, nx=True, px=int(FILL_LEASE_S * 1000)):
                # The other process may have stored its answer and ended its claim between the read
                # above and this claim: read once more, so its answer is used, not asked for again.
                found = self._read(key, operation, base_url)
                if found is None:
                    return Fill(token=token)
                self._release(keys=[fill_key(key)], args=[token])
                return Fill(found=found)
            if time.monotonic() >= deadline:  # the other fill is stuck: ask the service here
                return Fill()
            time.sleep(FILL_POLL_S)

    def _read(self, key: str, operation: str, base_url: str) -> Record | None:
        """The record under ``key``, or None: none there, or one that is not a record this app wrote
        (over the size limit, not its shape, not a string at all), which is deleted so the service is
        asked and its answer stored in its place. At most ``MAX_RECORD_BYTES`` + 1 bytes are fetched."""
        pipe = self._redis.pipeline(transaction=True)  # the length and the text of one same value
        pipe.strlen(key)
        pipe.getrange(key, 0, MAX_RECORD_BYTES)
        size, text = pipe.execute(raise_on_error=False)
        if size == 0:
            return None
        try:
            if isinstance(size, redis.ResponseError) or isinstance(text, redis.ResponseError):
                raise ValueError("not a string")  # another type of key under this name
            if not isinstance(size, int) or size > MAX_RECORD_BYTES:
                raise ValueError("over the size limit")
            return decode(operation, text, base_url)
        except (ValueError, KeyError, TypeError) as exc:  # pydantic's ValidationError is a ValueError
            log.warning(
                "A shared cache entry for %s was not one this app wrote (%s); it was dropped and the "
                "service is asked instead.",
                operation,
                exc.__class__.__name__ if not isinstance(exc, ValueError) else _reason(exc),
            )
            self._redis.delete(key)
            return None

    def put(
        self,
        base_url: str,
        fingerprint: str,
        operation: str,
        args: tuple[Any, ...],
        record: Record,
        *,
        token: str | None = None,
    ) -> bool:
        """Store a record (with ``token``: only while that claim holds, then end it). False only when a
        write took the claim meanwhile: the record may predate the write and was not stored."""
        key = self._key(base_url, fingerprint, operation, args)
        if key is None:
            return True
        try:
            text = encode(operation, record)
        except (TypeError, ValueError, AttributeError):  # not shareable (over the size limit, ...)
            if token is not None:  # nothing will be stored: others waiting for it ask at once
                self.release(base_url, fingerprint, operation, args, token)
            return True
        return self._bounded("be written", lambda: self._store(key, text, token), True)

    def _store(self, key: str, text: str, token: str | None) -> bool:
        ttl_ms = int(self.ttl_s * 1000)
        if token is None:
            self._redis.set(key, text, px=ttl_ms)
            return True
        return bool(self._put_if_claimed(keys=[key, fill_key(key)], args=[token, text, ttl_ms]))

    def release(
        self, base_url: str, fingerprint: str, operation: str, args: tuple[Any, ...], token: str
    ) -> None:
        """End a claim that stores nothing (the service failed for now): the next process asks at once."""
        try:
            self._release(keys=[fill_key(entry_key(base_url, fingerprint, operation, args))], args=[token])
        except (TypeError, redis.RedisError):
            return

    def holds(self, base_url: str, fingerprint: str, operation: str, args: tuple[Any, ...]) -> bool:
        """Whether Redis holds this read now (so asking it would spend nothing)."""
        key = self._key(base_url, fingerprint, operation, args)
        return key is not None and self._bounded("be read", lambda: bool(self._redis.exists(key)), False)

    def delete(self, base_url: str, fingerprint: str, operation: str, args: tuple[Any, ...]) -> None:
        """Drop a changed entry and tell the other processes to drop their own copies."""
        key = self._key(base_url, fingerprint, operation, args)
        if key is None:
            return
        try:
            note = announcements.entry_note(self.origin, (base_url, fingerprint, operation, args))
        except TypeError:
            return
        self._bounded("drop a changed entry", lambda: self._drop(key, note), None)

    def _drop(self, key: str, note: str) -> None:
        pipe = self._redis.pipeline(transaction=False)
        pipe.delete(key, fill_key(key))  # a fill under way must not store its older answer
        pipe.publish(announcements.ENTRY_CHANNEL, note)
        pipe.execute()

    # -- announcements to and from other processes (components.core.cache.announcements) --
    def listen(
        self,
        forget: announcements.Forget | None = None,
        history_changed: announcements.HistoryChanged | None = None,
    ) -> None:
        """Pass what other processes announce to these callbacks (a background thread, started once)."""
        self._listener.hear(forget, history_changed)

    @property
    def listening(self) -> threading.Event:
        """Set while this process hears the others' announcements (its subscription confirmed)."""
        return self._listener.listening

    def announce_history(self, account: str) -> None:
        """Tell the other processes that this account's history changed (they read it afresh)."""
        if self.available():
            note = announcements.history_note(self.origin, account)
            publish = self._redis.publish
            self._bounded("announce a change", lambda: publish(announcements.HISTORY_CHANNEL, note), 0)

    def close(self) -> None:
        self._listener.close()
        self._redis.close()
        self._listen_redis.close()
