"""The one bounded cache of the process-wide books and memos: at most so many entries, the least
recently used forgotten first, safe to share between the threads of every session.

The quota seen and the entries filled (``components.core.cache.cache_books``), the History page's recent
reads (``components.core.history.source.QueryCache``) and the Market page's figures
(``components.market.frames.FiguresMemo``) each keep their entries here; what an entry means (an
expiry, a generation, the frame it was computed from) stays with them. The keeping and forgetting is
``cachetools.LRUCache``, which is not thread-safe by itself: every step here holds ``lock``, and a
caller holds it too (it is reentrant) to make several steps one. A report's printed PDFs
(``components.reports.built``) are kept here too, bounded by their bytes rather than their count
(``size_of``), each made once however many ask at the same moment (``once``).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from concurrent.futures import Future
from typing import Generic, TypeVar

from cachetools import Cache, LRUCache

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class BoundedCache(Generic[K, V]):
    """Up to ``max_entries`` values by key; storing one more forgets the least recently used.

    Storing a value or getting it with ``get`` counts as a use; ``peek`` does not. With
    ``max_entries`` below 1 nothing is kept. A value of None reads as absent: keep none. With
    ``size_of`` (bytes, say), ``max_entries`` bounds the sum of the kept values' sizes instead of their
    count, and a value larger than that alone is not kept.
    """

    def __init__(self, max_entries: int, size_of: Callable[[V], int] | None = None) -> None:
        self._max_entries = max_entries
        #: Held by every step; reentrant, so a caller can hold it across several.
        self.lock = threading.RLock()
        self._size_of = size_of
        self._entries: LRUCache[K, V] = LRUCache(max(max_entries, 0), getsizeof=size_of)
        #: key → the one ``once`` making its value just now; guarded by ``lock``.
        self._making: dict[K, Future[V]] = {}

    @property
    def max_entries(self) -> int:
        return self._max_entries

    def __len__(self) -> int:
        with self.lock:
            return len(self._entries)

    def peek(self, key: K) -> V | None:
        """The value under ``key`` (None when absent), without counting as a use."""
        with self.lock:
            if key not in self._entries:
                return None
            # The plain mapping's lookup: LRUCache's own would move the entry to the recent end.
            return Cache.__getitem__(self._entries, key)

    def get(self, key: K, usable: Callable[[V], bool] | None = None) -> V | None:
        """The value under ``key``, which now counts as the most recently used; None when absent, or
        when ``usable`` says the value can no longer serve (it is then left where it is)."""
        with self.lock:
            value = self.peek(key)
            if value is None or (usable is not None and not usable(value)):
                return None
            return self._entries[key]

    def put(self, key: K, value: V) -> None:
        """Keep ``value`` under ``key`` as the most recently used, forgetting the least recently used
        entries beyond ``max_entries``."""
        with self.lock:
            if self._size_of is not None and self._size_of(value) > self._entries.maxsize:
                self._entries.pop(key, None)  # too large to keep: the older value would be stale
            elif self._entries.maxsize >= 1:
                self._entries[key] = value

    def once(self, key: K, make: Callable[[], V]) -> V:
        """The value under ``key``, else ``make()``'s, kept: while one caller makes it, every other
        caller asking for the same key waits for that value (or that error) instead of making it again."""
        with self.lock:
            kept = self.get(key)
            if kept is not None:
                return kept
            making = self._making.get(key)
            mine = making is None
            if making is None:
                making = self._making[key] = Future()
        if not mine:
            return making.result()
        try:
            value = make()
        except BaseException as exc:
            with self.lock:
                del self._making[key]
            making.set_exception(exc)
            raise
        with self.lock:
            self.put(key, value)
            del self._making[key]
        making.set_result(value)
        return value

    def pop(self, key: K) -> None:
        """Forget the entry under ``key`` (nothing when there is none)."""
        with self.lock:
            self._entries.pop(key, None)

    def pop_where(self, matches: Callable[[K], bool]) -> None:
        """Forget every entry whose key ``matches``."""
        with self.lock:
            for key in [key for key in self._entries if matches(key)]:
                del self._entries[key]
