"""What each key's pacer learned about its rate limit, kept for the next bulk read in this process.

The service publishes no limit, so a pacer learns it (``client.bulk``); this keeps where the last pacer of
a service and key stood, so ``Pacer.for_limit`` starts the next one there. A key is named by its
fingerprint, never the key itself. A rate older than ``KEEP_LEARNED_S`` is forgotten: a plan may have
changed, and the pacer's own gentle start is then the safe one.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

#: How long a learned rate is trusted for the next bulk read of the same key (seconds).
KEEP_LEARNED_S = 3600.0


@dataclass(frozen=True)
class LearnedRate:
    """Where a key's last pacer stood: its rate, whether it was still probing (no 429 met), and when."""

    rate: float
    probing: bool
    at: float


class RateMemory:
    """The rate each service and key's pacer learned, for the next bulk read in this process
    (thread-safe). ``limit`` names a service and key, e.g. ``ApiClient.limit_name``; a rate older than
    ``keep_s`` is forgotten (a plan may have changed)."""

    def __init__(self, keep_s: float = KEEP_LEARNED_S, clock: Callable[[], float] = time.monotonic) -> None:
        self._lock = threading.Lock()
        self._rates: dict[str, LearnedRate] = {}
        self.keep_s, self._clock = keep_s, clock

    def recall(self, limit: str) -> LearnedRate | None:
        with self._lock:
            learned = self._rates.get(limit)
            if learned is None or self._clock() - learned.at > self.keep_s:
                return None
            return learned

    def remember(self, limit: str, rate: float, probing: bool) -> None:
        with self._lock:
            self._rates[limit] = LearnedRate(rate, probing, self._clock())

    def forget(self) -> None:
        with self._lock:
            self._rates.clear()


#: The process's memory of learned rates (the app's pages, the jobs and the commands share it).
LEARNED_RATES = RateMemory()
