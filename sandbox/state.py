"""What changes while a sandbox runs: quota use, rate-limit buckets, the SERP cache, tracked
keywords, submitted sites, exchange proposals, AI-visibility questions, GSC audits, injected faults
and the record of requests.

One instance per sandbox; the server's event loop and the test thread that drives it both touch it,
so every method takes the lock. Limits (quota size, rate) are passed in by the caller, which holds the
config, so one state type serves any configuration.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date, datetime

from client.models import TrackedKeyword
from sandbox.accounts import Account, fingerprint
from sandbox.faults import Fault, parse_fault, parse_operation
from sandbox.growth_state import GrowthState
from sandbox.tracked import Target, TrackedStore

#: (method, raw path, query string) of a request, the key of ``request_counts``.
RequestKey = tuple[str, str, str]
#: (method, raw path, query string, key fingerprint or None), one per request in order.
LogEntry = tuple[str, str, str, str | None]


@dataclass
class _Bucket:
    tokens: float
    updated: float


class SandboxState:
    """Thread-safe mutable state of one sandbox instance."""

    def __init__(self) -> None:
        self._lock = threading.RLock()
        self.request_counts: Counter[RequestKey] = Counter()
        self.request_log: list[LogEntry] = []
        self._quota_used: Counter[str] = Counter()
        self._buckets: dict[str, _Bucket] = {}
        self._faults: list[Fault] = []
        self._serp_cache: set[str] = set()
        self._tracked = TrackedStore()
        self._growth = GrowthState()

    # --- requests -------------------------------------------------------------------------

    def record_request(self, method: str, path: str, query: str, key: str | None) -> None:
        """Count one request under /api/v1, before anything can reject it."""
        with self._lock:
            self.request_counts[(method, path, query)] += 1
            self.request_log.append((method, path, query, fingerprint(key)))

    def total_requests(self) -> int:
        with self._lock:
            return len(self.request_log)

    def count(self, method: str, path: str, query: str = "") -> int:
        """How many times exactly this request was received."""
        with self._lock:
            return self.request_counts[(method, path, query)]

    def stats(self) -> dict:
        """A consistent snapshot of the counts, for the HTTP control endpoint."""
        with self._lock:
            rows = [
                {"method": m, "path": p, "query": q, "count": n}
                for (m, p, q), n in sorted(self.request_counts.items())
            ]
            return {"total": len(self.request_log), "requests": rows}

    # --- rate limit -----------------------------------------------------------------------

    def take_token(self, key: str, rate: float | None, now: float | None = None) -> float | None:
        """Spend one token of the key's bucket; None when allowed, else seconds until a token is free.

        Token bucket: capacity max(1, rate), refilled at ``rate`` per second, so a client may burst
        up to one second's worth and then settles at the rate.
        """
        if rate is None:
            return None
        now = time.monotonic() if now is None else now
        capacity = max(1.0, rate)
        with self._lock:
            bucket = self._buckets.setdefault(key, _Bucket(tokens=capacity, updated=now))
            bucket.tokens = min(capacity, bucket.tokens + (now - bucket.updated) * rate)
            bucket.updated = now
            if bucket.tokens >= 1:
                bucket.tokens -= 1
                return None
            return (1 - bucket.tokens) / rate

    # --- quota ----------------------------------------------------------------------------

    def quota_remaining(self, key: str, limit: int) -> int:
        with self._lock:
            return max(0, limit - self._quota_used[key])

    def spend_quota(self, key: str, limit: int) -> bool:
        """Spend one unit; False (and nothing spent) when the quota is used up."""
        with self._lock:
            if self._quota_used[key] >= limit:
                return False
            self._quota_used[key] += 1
            return True

    # --- SERP cache -----------------------------------------------------------------------

    def serp_fetch(self, keyword: str) -> bool:
        """Note that this keyword's SERP is now cached; True when it already was (``cached``)."""
        folded = keyword.casefold()
        with self._lock:
            cached = folded in self._serp_cache
            self._serp_cache.add(folded)
            return cached

    # --- faults ---------------------------------------------------------------------------

    def add_fault(
        self,
        operation: str,
        fault: int | str,
        *,
        key: str | None = None,
        times: int | None = None,
        retry_after: float | None = None,
    ) -> Fault:
        """Make matching requests fail: ``times`` None until cleared, else the next ``times`` ones.

        ``key`` limits the fault to one API key. Faults are checked in the order they were added.
        """
        if times is not None and (isinstance(times, bool) or not isinstance(times, int) or times < 1):
            raise ValueError("times must be a positive integer (or None for until cleared).")
        if key is not None and not isinstance(key, str):
            raise ValueError("key must be an API key string (or None for every key).")
        if retry_after is not None and (isinstance(retry_after, bool) or retry_after < 0):
            raise ValueError("retry_after must be a non-negative number of seconds.")
        entry = Fault(
            operation=parse_operation(operation),
            fault=parse_fault(fault),
            key_fingerprint=fingerprint(key),
            remaining=times,
            retry_after=retry_after,
        )
        with self._lock:
            self._faults.append(entry)
        return entry

    def clear_faults(self) -> None:
        with self._lock:
            self._faults.clear()

    def faults(self) -> list[Fault]:
        with self._lock:
            return [f for f in self._faults if f.remaining is None or f.remaining > 0]

    def take_fault(self, operation: str, key: str) -> Fault | None:
        """The first fault matching this request, consuming one of its ``times``."""
        fp = fingerprint(key)
        with self._lock:
            for entry in self._faults:
                if entry.matches(operation, fp):
                    if entry.remaining is not None:
                        entry.remaining -= 1
                    return entry
            return None

    # --- tracked keywords -----------------------------------------------------------------

    def tracked(self, site: str, day: date | None = None) -> list[TrackedKeyword]:
        """The site's tracked keywords as the list shows them on ``day`` (default: the sandbox's day)."""
        with self._lock:
            return [target.as_model(site, day) for target in self._tracked.targets(site)]

    def checks_used(self, key: str) -> int:
        with self._lock:
            return self._tracked.checks_used[key]

    def add_tracked(self, account: Account, site: str, keyword: str, now: datetime) -> Target:
        with self._lock:
            target = self._tracked.add(account, site, keyword, now)
        # An add pays a live SERP fetch on a cache miss; afterwards the keyword's report is cached.
        self.serp_fetch(keyword)
        return target

    def refresh_tracked(self, account: Account, site: str, target_id: str, now: datetime) -> Target:
        with self._lock:
            target = self._tracked.refresh(account, site, target_id, now)
        self.serp_fetch(target.keyword)
        return target

    def remove_tracked(self, site: str, target_id: str) -> str:
        with self._lock:
            return self._tracked.remove(site, target_id)

    # --- discovery, exchanges and site management ----------------------------------------

    @contextmanager
    def growth(self) -> Iterator[GrowthState]:
        """The growth stores, held under the lock for one consistent read or write."""
        with self._lock:
            yield self._growth

    # --- reset ----------------------------------------------------------------------------

    def reset(self) -> None:
        """Back to a fresh start: no faults, counts, quota use or cached SERPs; seed keywords again."""
        with self._lock:
            self._faults.clear()
            self.request_counts.clear()
            self.request_log.clear()
            self._quota_used.clear()
            self._buckets.clear()
            self._serp_cache.clear()
            self._tracked.seed()
            self._growth.reset()
