"""The Market page's memo of its figures: a warm rerun takes the figures it computed from the very frame it
read before (the store's answers are shared while current), instead of computing them again from a
year of rows. What the figures are lives in ``analysis.market``."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

import pandas as pd

T = TypeVar("T")


class FiguresMemo(Generic[T]):
    """The last few computations from a frame, by the frame's identity and what else they depend on.

    The history's reads are shared answers, the same object for as long as they are current (see
    ``components.history.source.QueryCache``): an entry holds its frame, so the identity cannot be
    reused by another frame while the entry lives.
    """

    def __init__(self, size: int = 4) -> None:
        self.size = size
        self._lock = threading.Lock()
        self._entries: OrderedDict[tuple[int, Hashable], tuple[pd.DataFrame, T]] = OrderedDict()

    def get(self, frame: pd.DataFrame, key: Hashable, compute: Callable[[], T]) -> T:
        entry_key = (id(frame), key)
        with self._lock:
            hit = self._entries.get(entry_key)
            if hit is not None and hit[0] is frame:
                self._entries.move_to_end(entry_key)
                return hit[1]
        value = compute()
        with self._lock:
            self._entries[entry_key] = (frame, value)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)
        return value
