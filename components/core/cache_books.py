"""What the data layer keeps beside its cached answers: the latest quota seen per key, and when each
entry was filled (plain thread-safe classes; ``components.core.data`` holds one of each per process).

``st.cache_data`` cannot be asked whether it holds an entry, nor what quota the service last reported,
so the data layer writes both down here as it goes.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from typing import Any

from client.models import QuotaInfo


class QuotaBoard:
    """The latest quota headers per (service, key fingerprint), for the sidebar."""

    def __init__(self, max_entries: int) -> None:
        self._max_entries = max_entries
        self._lock = threading.Lock()
        self._seen: OrderedDict[tuple[str, str], QuotaInfo] = OrderedDict()

    def record(self, base_url: str, fingerprint: str, quota: QuotaInfo | None) -> None:
        if quota is None:
            return
        with self._lock:
            self._seen[(base_url, fingerprint)] = quota
            self._seen.move_to_end((base_url, fingerprint))
            while len(self._seen) > self._max_entries:
                self._seen.popitem(last=False)

    def get(self, base_url: str, fingerprint: str) -> QuotaInfo | None:
        with self._lock:
            return self._seen.get((base_url, fingerprint))


class CacheLedger:
    """When each cache entry was filled, so a page can say beforehand what a run will spend.

    ``st.cache_data`` cannot be asked whether it holds an entry; this ledger mirrors its keys with
    their expiry. It may say "not cached" for an entry evicted early, never "cached" for a missing
    one older than the ttl.
    """

    def __init__(self, ttl_s: float, max_entries: int) -> None:
        self._ttl_s = ttl_s
        self._max_entries = max_entries
        self._lock = threading.Lock()
        self._filled: OrderedDict[tuple[Any, ...], float] = OrderedDict()

    def record(self, key: tuple[Any, ...]) -> None:
        with self._lock:
            self._filled[key] = time.monotonic() + self._ttl_s
            self._filled.move_to_end(key)
            while len(self._filled) > self._max_entries:
                self._filled.popitem(last=False)

    def forget(self, key: tuple[Any, ...]) -> None:
        with self._lock:
            self._filled.pop(key, None)

    def holds(self, key: tuple[Any, ...]) -> bool:
        with self._lock:
            expiry = self._filled.get(key)
            return expiry is not None and expiry > time.monotonic()
