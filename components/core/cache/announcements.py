"""What one app process tells the others through Redis, and the thread that hears it.

Several replicas each keep their own copies (cached answers, the History page's recent reads, the
watchlist the read hook trusts). Two kinds of change are announced on Redis channels so that no
replica shows its copy after another changed the original:

- **an entry a write changed** (a tracked keyword added through replica A): every process drops its
  own cached answer;
- **an account's history changed** (a watchlist edit, an acknowledged alert, changed rules): every
  process reads that account's history afresh instead of keeping its copy for up to a minute.

Each note names the process that sent it, so a process does not act on its own. Notes sent while a
process is not subscribed are lost (Redis keeps none): before its first subscription (copies made in
the moment after start-up) and while a lost one is restored. So once a subscription is confirmed,
every copy is dropped (``None``).
The Redis client is imported only by the listener's thread: a server without Redis never loads it.
"""

from __future__ import annotations

import contextlib
import json
import logging
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from components.core.cache.cache_records import KEY_PREFIX, canonical

if TYPE_CHECKING:
    import redis  # imported where a listener runs: only with a Redis URL

log = logging.getLogger(__name__)

#: Where a write announces the entries it changed, for the other processes' in-process caches.
ENTRY_CHANNEL = KEY_PREFIX + ":invalidate"
#: Where a change of an account's history is announced.
HISTORY_CHANNEL = KEY_PREFIX + ":history"

Entry = tuple[str, str, str, tuple[Any, ...]]
#: The arguments a note may name: plain JSON values (hashable, as the data layer's keys are).
_PLAIN = (str, int, float, bool, type(None))
#: A listener stopped by an unexpected error starts again after this long, doubled each time it
#: stops again soon after, up to ``RESTART_MAX_S``.
RESTART_MIN_S = 0.5
RESTART_MAX_S = 30.0
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


def _strings(found: Any, count: int) -> list[str] | None:
    """``found`` when it is a JSON list of ``count`` items whose first ``count - 1`` are strings."""
    if not isinstance(found, list) or len(found) != count:
        return None
    return found if all(isinstance(item, str) for item in found[: count - 1]) else None


def read_entry_note(data: bytes | str) -> tuple[str | None, Entry | None]:
    """Who announced, and the entry named; (None, None) (forget everything) when it cannot be read.

    Only what ``entry_note`` writes is read: strings, and arguments that are plain values (what every
    write forgets); a note of any other shape is one this app did not send."""
    try:
        found = _strings(json.loads(data), 5)
    except (ValueError, TypeError, RecursionError):  # RecursionError: deeply nested lists
        return None, None
    if found is None or not isinstance(found[4], list) or not all(isinstance(a, _PLAIN) for a in found[4]):
        return None, None
    origin, base_url, fingerprint, operation, args = found
    return origin, (base_url, fingerprint, operation, tuple(args))


def read_history_note(data: bytes | str) -> tuple[str | None, str | None]:
    """Who announced, and the account named; (None, None) (every account) when it cannot be read."""
    try:
        found = _strings(json.loads(data), 2)
    except (ValueError, TypeError, RecursionError):
        return None, None
    if found is None or not isinstance(found[1], str):
        return None, None
    return found[0], found[1]


class Listener:
    """One background thread subscribed to both channels, passing each note from another process on.

    ``available`` and ``failed`` are the shared cache's own health: while Redis is left alone the
    thread waits, and a lost subscription is reported there like any other failure.

    Nothing a note holds may stop it: a note that cannot be read, or that a callback fails on, drops
    every copy (as a missed one would) and the thread goes on. Should it stop all the same (an error
    nobody foresaw), it is started again after a pause (``RESTART_MIN_S``, doubled up to
    ``RESTART_MAX_S``), and said once in the log; a dead thread is also started again by ``hear``.
    Without it, this process would keep showing what other replicas changed.
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
        self._said_stopped = False
        self._said_unusable = False
        #: Set once Redis has confirmed the subscription (every note from then on is heard).
        self.listening = threading.Event()

    def hear(self, forget: Forget | None = None, history_changed: HistoryChanged | None = None) -> None:
        """Pass notes on to these callbacks (each set once is kept), starting the thread once (again,
        should it have died)."""
        with self._lock:
            self._forget = self._forget or forget
            self._history_changed = self._history_changed or history_changed
            if self._stop.is_set() or (self._thread is not None and self._thread.is_alive()):
                return
            self._thread = threading.Thread(target=self._supervise, name="shared-cache-listener", daemon=True)
            thread = self._thread
        thread.start()

    @property
    def alive(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def _supervise(self) -> None:
        """Run the listener; when it stops on an unexpected error, start it again after a pause."""
        pause = RESTART_MIN_S
        while not self._stop.is_set():
            started = time.monotonic()
            try:
                self._run()
                return
            except Exception as exc:  # whatever it was, the listener must go on
                if time.monotonic() - started > RESTART_MAX_S:
                    pause = RESTART_MIN_S  # it had been running well: this is a new trouble
                if not self._said_stopped:
                    self._said_stopped = True
                    log.warning(
                        "The shared cache's listener (which hears other app processes' changes) stopped "
                        "on an unexpected error (%s); it is started again in %.1f s, and again after "
                        "any later stop without a further message.",
                        type(exc).__name__,
                        pause,
                    )
                self._stop.wait(pause)
                pause = min(pause * 2, RESTART_MAX_S)

    def _run(self) -> None:
        import redis

        while not self._stop.is_set():
            if not self._available():
                self._stop.wait(self._idle_s)
                continue
            pubsub = self._connection.pubsub()
            try:
                pubsub.subscribe(ENTRY_CHANNEL, HISTORY_CHANNEL)
                while not self._stop.is_set():
                    message = pubsub.get_message(timeout=0.5)
                    if not isinstance(message, dict):
                        continue
                    if message.get("type") == "message":
                        self._heard(message.get("channel"), message.get("data"))
                    elif message.get("type") == "subscribe" and message.get("data") == 2:
                        self._subscribed()
            except (redis.RedisError, OSError, ValueError) as exc:  # ValueError: closed while reading
                if self._stop.is_set():
                    break
                self.listening.clear()
                self._failed(exc, "be listened to")
            finally:
                with contextlib.suppress(Exception):
                    pubsub.close()

    def _subscribed(self) -> None:
        """Redis confirmed both channels: from now on every note is heard. Any sent before (since this
        process started, or while the subscription was lost) was missed, so every copy is dropped."""
        self._drop_every_copy()
        self.listening.set()

    def _heard(self, channel: Any, data: Any) -> None:
        """Pass one note on; one that cannot be read or used drops every copy, and never stops the thread."""
        try:
            name = channel.decode() if isinstance(channel, bytes) else str(channel)
            if not isinstance(data, bytes | str):
                raise TypeError("a note that is not text")
            origin, subject = read_entry_note(data) if name == ENTRY_CHANNEL else read_history_note(data)
            if origin != self._origin:  # this process dropped its own copy already
                self._pass_on(name, subject)
        except Exception as exc:  # a note must never stop the listener
            if not self._said_unusable:
                self._said_unusable = True
                log.warning(
                    "A note from another app process could not be used (%s); this process drops every "
                    "cached copy instead, to be safe. Later ones are handled the same way, quietly.",
                    type(exc).__name__,
                )
            with contextlib.suppress(Exception):
                self._drop_every_copy()

    def _drop_every_copy(self) -> None:
        """What a missed or unreadable note calls for: every cached answer and every history read."""
        self._pass_on(ENTRY_CHANNEL, None)
        self._pass_on(HISTORY_CHANNEL, None)

    def _pass_on(self, channel: str, subject: Any) -> None:
        callback = self._forget if channel == ENTRY_CHANNEL else self._history_changed
        if callback is not None:
            callback(subject)

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)
