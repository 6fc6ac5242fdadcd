"""The Market page's memo of its figures: a warm rerun takes the figures it computed from the very frame it
read before (the store's answers are shared while current), instead of computing them again from a
year of rows. What the figures are lives in ``analysis.market``."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

import pandas as pd

from components.common.bounded_cache import BoundedCache

T = TypeVar("T")


class FiguresMemo(Generic[T]):
    """The last few computations from a frame, by the frame's identity and what else they depend on.

    The history's reads are shared answers, the same object for as long as they are current (see
    ``components.core.history.source.QueryCache``): an entry holds its frame, so the identity cannot be
    reused by another frame while the entry lives.
    """

    def __init__(self, size: int = 4) -> None:
        #: (the frame's identity, key) → (the frame, what was computed from it).
        self._entries: BoundedCache[tuple[int, Hashable], tuple[pd.DataFrame, T]] = BoundedCache(size)

    @property
    def size(self) -> int:
        return self._entries.max_entries

    def get(self, frame: pd.DataFrame, key: Hashable, compute: Callable[[], T]) -> T:
        entry_key = (id(frame), key)
        hit = self._entries.get(entry_key, lambda entry: entry[0] is frame)
        if hit is not None:
            return hit[1]
        value = compute()
        self._entries.put(entry_key, (frame, value))
        return value
