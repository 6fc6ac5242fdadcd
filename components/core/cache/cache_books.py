"""What the data layer keeps beside its cached answers: the latest quota seen per key, and when each
entry was filled (thread-safe bounded books on ``components.common.bounded_cache``;
``components.core.cache.data`` holds one of each per process).

``st.cache_data`` cannot be asked whether it holds an entry, nor what quota the service last reported,
so the data layer writes both down here as it goes.
"""

from __future__ import annotations

import time
from typing import Any

from client.models import QuotaInfo
from components.common.bounded_cache import BoundedCache


class QuotaBoard:
    """The latest quota headers per (service, key fingerprint), for the sidebar."""

    def __init__(self, max_entries: int) -> None:
        self._seen: BoundedCache[tuple[str, str], QuotaInfo] = BoundedCache(max_entries)

    def record(self, base_url: str, fingerprint: str, quota: QuotaInfo | None) -> None:
        if quota is None:
            return
        self._seen.put((base_url, fingerprint), quota)

    def get(self, base_url: str, fingerprint: str) -> QuotaInfo | None:
        """The latest quota seen (reading it does not keep it longer: only a newer one does)."""
        return self._seen.peek((base_url, fingerprint))


class CacheLedger:
    """When each cache entry was filled, so a page can say beforehand what a run will spend.

    ``st.cache_data`` cannot be asked whether it holds an entry; this ledger mirrors its keys with
    their expiry. It may say "not cached" for an entry evicted early, never "cached" for a missing
    one older than the ttl.
    """

    def __init__(self, ttl_s: float, max_entries: int) -> None:
        self._ttl_s = ttl_s
        #: key → when its entry expires (``time.monotonic()`` seconds).
        self._filled: BoundedCache[tuple[Any, ...], float] = BoundedCache(max_entries)

    def record(self, key: tuple[Any, ...]) -> None:
        self._filled.put(key, time.monotonic() + self._ttl_s)

    def forget(self, key: tuple[Any, ...]) -> None:
        self._filled.pop(key)

    def holds(self, key: tuple[Any, ...]) -> bool:
        """Whether the entry is cached and not expired (asking does not keep it longer)."""
        expiry = self._filled.peek(key)
        return expiry is not None and expiry > time.monotonic()
