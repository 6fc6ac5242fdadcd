"""What one app process tells the others through Redis, and the thread that hears it.

Several replicas each keep their own copies (cached answers, the History page's recent reads, the
watchlist the read hook trusts). Two kinds of change are announced on Redis channels so that no
replica shows its copy after another changed the original:

- **an entry a write changed** (a tracked keyword added through replica A): every process drops its
  own cached answer;
- **an account's history changed** (a watchlist edit, an acknowledged alert, changed rules): every
  process reads that account's history afresh instead of keeping its copy for up to a minute.

Each note names the process that sent it, so a process does not act on its own. When the subscription
was lost, notes may have been missed meanwhile: on its return every copy is dropped (``None``).
The Redis client is imported only by the listener's thread: a server without Redis never loads it.
"""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from components.core.cache_records import KEY_PREFIX, canonical

if TYPE_CHECKING:
    import redis  # imported where a listener runs: only with a Redis URL

#: Where a write announces the entries it changed, for the other processes' in-process caches.
ENTRY_CHANNEL = KEY_PREFIX + ":invalidate"
#: Where a change of an account's history is announced.
HISTORY_CHANNEL = KEY_PREFIX + ":history"

Entry = tuple[str, str, str, tuple[Any, ...]]
#: Called with (base_url, fingerprint, operation, args) for an entry another process changed, or with
#: None when announcements may have been missed (the in-process answers should all be dropped).
Forget = Callable[[Entry | None], None]
#: Called with the account whose history another process changed, or None for every account.
HistoryChanged = Callable[[str | None], None]


def entry_note(origin: str, entry: Entry) -> str:
    """The note for a changed entry; TypeError for arguments that have no stable form."""
    base_url, fingerprint, operation, args = entry
    return json.dumps([origin, base_url, fingerprint, operation, canonical(args)])


def history_note(origin: str, account: str) -> str:
    return json.dumps([origin, account])


def read_entry_note(data: bytes | str) -> tuple[str | None, Entry | None]:
    """Who announced, and the entry named; (None, None) (forget everything) when it cannot be read."""
    try:
        origin, base_url, fingerprint, operation, args = json.loads(data)
        return str(origin), (str(base_url), str(fingerprint), str(operation), tuple(args))
    except (ValueError, TypeError):
        return None, None


def read_history_note(data: bytes | str) -> tuple[str | None, str | None]:
    """Who announced, and the account named; (None, None) (every account) when it cannot be read."""
    try:
        origin, account = json.loads(data)
        return str(origin), str(account)
    except (ValueError, TypeError):
        return None, None


class Listener:
    """One background thread subscribed to both channels, passing each note from another process on.

    ``available`` and ``failed`` are the shared cache's own health: while Redis is left alone the
    thread waits, and a lost subscription is reported there like any other failure.
    """

    def __init__(
        self,
        connection: redis.Redis,
        origin: str,
        *,
        available: Callable[[], bool],
        failed: Callable[[Exception, str], None],
        idle_s: float,
    ) -> None:
        self._connection = connection
        self._origin = origin
        self._available = available
        self._failed = failed
        self._idle_s = idle_s
        self._forget: Forget | None = None
        self._history_changed: HistoryChanged | None = None
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()

    def hear(self, forget: Forget | None = None, history_changed: HistoryChanged | None = None) -> None:
        """Pass notes on to these callbacks (each set once is kept), starting the thread once."""
        with self._lock:
            self._forget = self._forget or forget
            self._history_changed = self._history_changed or history_changed
            if self._thread is not None:
                return
            self._thread = threading.Thread(target=self._run, name="shared-cache-listener", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        import redis

        missed = False  # after a lost subscription, announcements may have been missed meanwhile
        while not self._stop.is_set():
            if not self._available():
                self._stop.wait(self._idle_s)
                continue
            pubsub = self._connection.pubsub(ignore_subscribe_messages=True)
            try:
                pubsub.subscribe(ENTRY_CHANNEL, HISTORY_CHANNEL)
                if missed:
                    self._pass_on(ENTRY_CHANNEL, None)
                    self._pass_on(HISTORY_CHANNEL, None)
                    missed = False
                while not self._stop.is_set():
                    message = pubsub.get_message(timeout=0.5)
                    if message and message.get("type") == "message":
                        self._heard(message["channel"], message["data"])
            except (redis.RedisError, OSError, ValueError) as exc:  # ValueError: closed while reading
                if self._stop.is_set():
                    break
                missed = True
                self._failed(exc, "be listened to")
            finally:
                with contextlib.suppress(Exception):
                    pubsub.close()

    def _heard(self, channel: bytes | str, data: bytes | str) -> None:
        name = channel.decode() if isinstance(channel, bytes) else channel
        origin, subject = read_entry_note(data) if name == ENTRY_CHANNEL else read_history_note(data)
        if origin != self._origin:  # this process dropped its own copy already
            self._pass_on(name, subject)

    def _pass_on(self, channel: str, subject: Any) -> None:
        callback = self._forget if channel == ENTRY_CHANNEL else self._history_changed
        if callback is not None:
            callback(subject)

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)
