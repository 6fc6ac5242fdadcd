"""The shared cache level: API answers kept in Redis, so several app processes spend one call per request.

Turned on by ``DASHBOARD_REDIS_URL`` (or ``url`` under ``[connections.cache]`` in the secrets files; the
environment wins); without either nothing here runs and the in-process cache works alone. The data layer
(``components.core.cache.data``) asks this level after its own cache and before the client, and stores
what the
client answered. Here: the setting and this process's one ``SharedCache`` per URL; the Redis level
itself is ``components.core.cache.redis_cache``, imported only when a URL is set (a server without Redis
never loads the Redis client, about 5 MiB).

- **Keys and values** are built in ``components.core.cache.cache_records`` (pure). Keys name the service
  root (hashed), the key's fingerprint (never the key), the operation and a digest of its normalised
  arguments: ``adash:v1:<root>:<fingerprint>:<operation>:<digest>``.
- **Values are JSON text**, never pickles: a shared cache must not be able to run code in the app. An
  answer is stored as the service writes it (camelCase) and parsed back into its model; a definitive
  error (404, 402, ...) as a record naming its class, rebuilt only from the client's own error classes.
- **Records are checked like the service's answers**: the client's own models (errors included), an
  upgrade link only on the service's own site, at most 1 MiB. Anything else is deleted and read from
  the service: whatever can write to Redis cannot crash a page, put its own link on it or fill memory.
- **Same lifetime** as the in-process entries (15 minutes).
- **One fill at a time**: a process that misses claims the entry (a key set only if absent, with a 30 s
  lease) before it asks the service; another process missing the same entry meanwhile waits for the
  answer (up to 10 s) instead of asking too, so replicas opening the same domain at once spend one call.
- **A write** deletes the entries it changed, and their claims, and announces it on a channel; every
  process listening drops its own in-process copy, so a list changed through one replica is never shown
  stale by another. A fill that began before the write finds its claim gone and stores nothing: the
  answer it holds may predate the write, and the data layer asks once more. A change of an account's
  history (its watchlist, its alerts) is announced too (``components.core.cache.announcements``). No note
  can stop the listener (one it cannot read drops every copy), and a listener that dies is restarted.
- **Unreachable or slow Redis** (every command is bounded by a 0.25 s socket timeout): the read goes on
  to the client, a warning is logged once per outage, and Redis is tried again after 30 s.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from client.settings import SECRETS_FILES
from components.core.cache import announcements
from store.config import connection_url

if TYPE_CHECKING:
    from components.core.cache.redis_cache import SharedCache

ENV_VAR = "DASHBOARD_REDIS_URL"
#: After a failure, Redis is left alone this long before it is tried again (tests shorten it).
RETRY_AFTER_S = 30.0


@cache
def _url_from_secrets(files: tuple[Path, ...]) -> str | None:
    """``[connections.cache] url`` of the last secrets file that has one (read once per process)."""
    return connection_url("cache", files)


def configured_url(
    environ: Mapping[str, str] = os.environ, secrets_files: tuple[Path, ...] = SECRETS_FILES
) -> str | None:
    """The Redis URL in force, or None when the shared level is off."""
    return (environ.get(ENV_VAR) or "").strip() or _url_from_secrets(secrets_files)


_instances: dict[str, SharedCache] = {}
_instances_lock = threading.Lock()


def current(
    forget: announcements.Forget | None = None, history_changed: announcements.HistoryChanged | None = None
) -> SharedCache | None:
    """This process's shared cache for the configured URL (None when off: the Redis client is then never
    imported), passing what other processes announce to ``forget`` and ``history_changed``."""
    url = configured_url()
    if not url:
        return None
    with _instances_lock:
        shared = _instances.get(url)
        if shared is None:
            from components.core.cache.redis_cache import SharedCache

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
