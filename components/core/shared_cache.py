"""The shared cache level: API answers kept in Redis, so several app processes spend one call per request.

Turned on by ``DASHBOARD_REDIS_URL`` (or ``url`` under ``[connections.cache]`` in the secrets files; the
environment wins); without either nothing here runs and the in-process cache works alone. The data layer
(``components.core.data``) asks this level after its own cache and before the client, and stores what the
client answered.

- **Keys and values** are built in ``components.core.cache_records`` (pure). Keys name the service
  root (hashed), the key's fingerprint (never the key), the operation and a digest of its normalised
  arguments: ``adash:v1:<root>:<fingerprint>:<operation>:<digest>``.
- **Values are JSON text**, never pickles: a shared cache must not be able to run code in the app. An
  answer is stored as the service writes it (camelCase) and parsed back into its model; a definitive
  error (404, 402, ...) as a record naming its class, rebuilt only from the client's own error classes.
- **Same lifetime** as the in-process entries (15 minutes).
- **One fill at a time**: a process that misses claims the entry (a key set only if absent, with a 30 s
  lease) before it asks the service; another process missing the same entry meanwhile waits for the
  answer (up to 10 s) instead of asking too, so replicas opening the same domain at once spend one call.
- **A write** deletes the entries it changed, and their claims, and announces it on a channel; every
  process listening drops its own in-process copy, so a list changed through one replica is never shown
  stale by another. A fill that began before the write finds its claim gone and stores nothing: the
  answer it holds may predate the write, and the data layer asks once more. A change of an account's
  history (its watchlist, its alerts) is announced too (``components.core.announcements``).
- **Unreachable or slow Redis** (every command is bounded by a 0.25 s socket timeout): the read goes on
  to the client, a warning is logged once per outage, and Redis is tried again after 30 s.
"""

from __future__ import annotations

import logging
import os
import secrets
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from client.settings import SECRETS_FILES
from components.core import announcements
from components.core.cache_records import (
    ANSWER_TYPES,
    Record,
    decode,
    encode,
    entry_key,
    fill_key,
)
from store.config import connection_url

log = logging.getLogger(__name__)

ENV_VAR = "DASHBOARD_REDIS_URL"
#: Where a write announces the entries it changed (kept under this name for the tests and tools).
INVALIDATION_CHANNEL = announcements.ENTRY_CHANNEL
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

# --- configuration -------------------------------------------------------------------------------


@cache
def _url_from_secrets(files: tuple[Path, ...]) -> str | None:
    """``[connections.cache] url`` of the last secrets file that has one (read once per process)."""
    return connection_url("cache", files)


def configured_url(
    environ: Mapping[str, str] = os.environ, secrets_files: tuple[Path, ...] = SECRETS_FILES
) -> str | None:
    """The Redis URL in force, or None when the shared level is off."""
    return (environ.get(ENV_VAR) or "").strip() or _url_from_secrets(secrets_files)


def display_url(url: str) -> str:
    """The URL with any password replaced, the only form that may be logged."""
    scheme, sep, rest = url.partition("://")
    if "@" not in rest:
        return url
    credentials, _, host = rest.rpartition("@")
    user = credentials.split(":", 1)[0]
    return f"{scheme}{sep}{user + ':' if user else ''}***@{host}"


# --- the Redis level -----------------------------------------------------------------------------

Forget = announcements.Forget
HistoryChanged = announcements.HistoryChanged


@dataclass(frozen=True)
class Fill:
    """What a miss found in Redis: another process's record, or this process's claim to ask the service
    (``token``), or neither (Redis unreachable, the wait ran out, or a read that is not shared)."""

    found: Record | None = None
    token: str | None = None


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

    # -- entries --
    def get(self, base_url: str, fingerprint: str, operation: str, args: tuple[Any, ...]) -> Record | None:
        if operation not in ANSWER_TYPES or not self.available():
            return None
        try:
            found = self._read(entry_key(base_url, fingerprint, operation, args), operation)
        except TypeError:
            return None
        except redis.RedisError as exc:
            self._failed(exc, "be read")
            return None
        self._worked()
        return found

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
        if operation not in ANSWER_TYPES or not self.available():
            return Fill()
        try:
            key = entry_key(base_url, fingerprint, operation, args)
        except TypeError:
            return Fill()
        token = secrets.token_hex(8)
        deadline = time.monotonic() + wait_s
        try:
            while True:
                found = self._read(key, operation)
                if found is not None:
                    fill = Fill(found=found)
                    break
                if self._redis.set(fill_key(key), token, nx=True, px=int(FILL_LEASE_S * 1000)):
                    fill = Fill(token=token)
                    break
                if time.monotonic() >= deadline:  # the other fill is stuck: ask the service here
                    fill = Fill()
                    break
                time.sleep(FILL_POLL_S)
        except redis.RedisError as exc:
            self._failed(exc, "be read")
            return Fill()
        self._worked()
        return fill

    def _read(self, key: str, operation: str) -> Record | None:
        text = self._redis.get(key)
        if text is None:
            return None
        try:
            return decode(operation, text)
        except (ValueError, KeyError, TypeError):  # not a record this version wrote: ask the service
            log.warning("A shared cache entry for %s could not be read back; it is asked again.", operation)
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
        if operation not in ANSWER_TYPES or not self.available():
            return True
        try:
            key = entry_key(base_url, fingerprint, operation, args)
            text = encode(operation, record)
        except (TypeError, ValueError, AttributeError):
            return True
        ttl_ms = int(self.ttl_s * 1000)
        try:
            if token is None:
                self._redis.set(key, text, px=ttl_ms)
                stored = True
            else:
                stored = bool(self._put_if_claimed(keys=[key, fill_key(key)], args=[token, text, ttl_ms]))
        except redis.RedisError as exc:
            self._failed(exc, "be written")
            return True
        self._worked()
        return stored

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
        if operation not in ANSWER_TYPES or not self.available():
            return False
        try:
            found = bool(self._redis.exists(entry_key(base_url, fingerprint, operation, args)))
        except TypeError:
            return False
        except redis.RedisError as exc:
            self._failed(exc, "be read")
            return False
        self._worked()
        return found

    def delete(self, base_url: str, fingerprint: str, operation: str, args: tuple[Any, ...]) -> None:
        """Drop a changed entry and tell the other processes to drop their own copies."""
        if operation not in ANSWER_TYPES or not self.available():
            return
        try:
            key = entry_key(base_url, fingerprint, operation, args)
            note = announcements.entry_note(self.origin, (base_url, fingerprint, operation, args))
        except TypeError:
            return
        try:
            pipe = self._redis.pipeline(transaction=False)
            pipe.delete(key, fill_key(key))  # a fill under way must not store its older answer
            pipe.publish(announcements.ENTRY_CHANNEL, note)
            pipe.execute()
        except redis.RedisError as exc:
            self._failed(exc, "drop a changed entry")
            return
        self._worked()

    # -- announcements to and from other processes (components.core.announcements) --
    def listen(
        self,
        forget: announcements.Forget | None = None,
        history_changed: announcements.HistoryChanged | None = None,
    ) -> None:
        """Pass what other processes announce to these callbacks (a background thread, started once)."""
        self._listener.hear(forget, history_changed)

    def announce_history(self, account: str) -> None:
        """Tell the other processes that this account's history changed (they read it afresh)."""
        if not self.available():
            return
        try:
            self._redis.publish(
                announcements.HISTORY_CHANNEL, announcements.history_note(self.origin, account)
            )
        except redis.RedisError as exc:
            self._failed(exc, "announce a change")
            return
        self._worked()

    def close(self) -> None:
        self._listener.close()
        self._redis.close()
        self._listen_redis.close()


_instances: dict[str, SharedCache] = {}
_instances_lock = threading.Lock()


def current(
    forget: Forget | None = None, history_changed: HistoryChanged | None = None
) -> SharedCache | None:
    """This process's shared cache for the configured URL (None when off), passing what other processes
    announce to ``forget`` and ``history_changed``."""
    url = configured_url()
    if not url:
        return None
    with _instances_lock:
        shared = _instances.get(url)
        if shared is None:
            shared = _instances[url] = SharedCache(url, retry_after_s=RETRY_AFTER_S)
    if forget is not None or history_changed is not None:
        shared.listen(forget, history_changed)
    return shared


def reset() -> None:
    """Close every shared cache of this process (tests switch URLs this way)."""
    with _instances_lock:
        found = list(_instances.values())
        _instances.clear()
    for shared in found:
        shared.close()
