"""Many reads at once, paced to the service's per-key rate limit.

The bulk DR checker asks for hundreds of domains. Sending them as fast as threads allow would run
into 429s (the limit is per key, and its size is not published), and letting each worker sleep
through its own 429 would keep the others sending into the same closed window. So all workers share
one ``Pacer``: it spaces request starts at its current rate, stops everyone until a Retry-After has
passed, and learns the rate as it goes (a quick ramp-up until the first 429, then a cut and a slow
climb). A failure of one item never stops the others; only errors that make every further request
pointless (a rejected key, a spent quota, a Retry-After longer than anyone should wait) end the run,
and the items not yet asked come back marked as skipped. A run that mixes operations (the daily
snapshot) names each item's ``group``: a refusal then ends only its group (a plan without keyword
research stops the keyword reports, not the lookups); a long Retry-After, which is per key, ends all.

The limit is the key's, and the pacer's first seconds are spent finding it: a refresh of 50 keywords
spent a quarter of its time there. So what a pacer learns is kept for the process (``RateMemory``, by
service and key fingerprint, for an hour): ``Pacer.for_limit`` starts the next bulk read of the same key
at the rate the last one's latest 429 left it (or, without a 429, the pace its answers came back at)
instead of at ``INITIAL_RATE``. It never goes past what was learned: a learned rate climbs only as slowly as
after any 429, so a key meets no more 429s than before, and a limit that fell (another plan) is met
by the same cut on the first 429. The service publishes no limit (no rate-limit headers, "numeric rate
limits: not shown"), so there is nothing better to start from.

For the pacer to see each 429, ``fetch`` must not retry 429s itself: use an ``ApiClient`` with
``max_retries=0`` (the runner retries 429s, 503s and dropped connections on its own, boundedly).
No Streamlit here: the app, scripts and benchmarks use it alike.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from typing import Generic, TypeVar

from client.errors import (
    ApiError,
    ApiTimeoutError,
    AuthError,
    CertificateError,
    PaymentRequiredError,
    RateLimitedError,
    TransportError,
    UnavailableError,
)
from client.rate_memory import LEARNED_RATES, RateMemory
from client.transport import DEFAULT_RETRY_AFTER_S, MAX_RETRY_AFTER_S, backoff_s

T = TypeVar("T")

#: Where the pacer starts: gentle enough for small plans; it doubles within about two seconds.
INITIAL_RATE = 12.0
#: The pacer never goes above this (requests per second), whatever it learns.
MAX_RATE = 100.0
MIN_RATE = 0.5
#: Ramp-up before the first 429: the rate grows by this factor per second of clean answers.
PROBE_GROWTH = 1.4
#: After a 429 the rate is cut to this share, then climbs by CLIMB_PER_S requests/s per second.
CUT_FACTOR = 0.75
CLIMB_PER_S = 0.5
#: A Retry-After longer than this is not waited for: the run stops and says when to come back
#: (the same bound as the client's own retries).
MAX_PAUSE_S = MAX_RETRY_AFTER_S
#: Parallel requests; enough to reach ~20 requests/s at 300 ms per answer.
DEFAULT_WORKERS = 8
#: Attempts per item: 429s are retried up to this many times in all, 503s and dropped
#: connections up to TRANSIENT_ATTEMPTS.
DEFAULT_MAX_ATTEMPTS = 6
TRANSIENT_ATTEMPTS = 3


class Pacer:
    """When the next request may start, shared by every worker of one run (thread-safe).

    ``reserve`` hands out start times spaced ``1 / rate`` apart and never inside a pause.
    ``rate_limited`` pauses everyone until the Retry-After has passed and cuts the rate once per
    burst of 429s (the requests already in flight when the first 429 came back do not cut it
    again). ``succeeded`` lets the rate grow back. With ``adaptive=False`` the rate stays fixed.
    ``clock`` is for testing the pacer alone: a ``BulkRunner`` sleeps in real seconds, so the pacer
    it uses keeps the default monotonic clock.
    """

    def __init__(
        self,
        rate: float = INITIAL_RATE,
        *,
        max_rate: float = MAX_RATE,
        min_rate: float = MIN_RATE,
        adaptive: bool = True,
        clock: Callable[[], float] = time.monotonic,
        learned: Callable[[float, bool], None] | None = None,
    ) -> None:
        if not min_rate <= rate <= max_rate:
            raise ValueError("rate must lie between min_rate and max_rate")
        self._lock = threading.Lock()
        self._clock = clock
        self._rate = float(rate)
        self._max_rate = float(max_rate)
        self._min_rate = float(min_rate)
        self._adaptive = adaptive
        self._probing = adaptive
        self._next_start = clock()
        self._paused_until = clock()
        self._last_cut = float("-inf")
        self._last_growth = clock()
        self.rate_limited_count = 0
        self._start_rate = float(rate)
        self._first_start: float | None = None
        self._answers = 0
        #: Told each rate this pacer learns (and whether it is still probing): ``for_limit`` keeps it.
        self._learned = learned

    @classmethod
    def for_limit(
        cls,
        limit: str | None,
        *,
        memory: RateMemory | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> Pacer:
        """A pacer for the key ``limit`` names: it starts at the rate the key's last pacer in this
        process learned (still probing if that one never met a 429), else at ``INITIAL_RATE``, and
        remembers what it learns for the next one. ``limit`` None: a plain pacer, nothing kept."""
        if limit is None:
            return cls(clock=clock)
        kept = memory if memory is not None else LEARNED_RATES
        recalled = kept.recall(limit)
        pacer = cls(
            min(MAX_RATE, max(MIN_RATE, recalled.rate)) if recalled else INITIAL_RATE,
            clock=clock,
            learned=lambda rate, probing: kept.remember(limit, rate, probing),
        )
        pacer._probing = recalled.probing if recalled else True
        return pacer

    def now(self) -> float:
        return self._clock()

    @property
    def rate(self) -> float:
        with self._lock:
            return self._rate

    @property
    def paused_until(self) -> float:
        with self._lock:
            return self._paused_until

    def reserve(self) -> float:
        """Book the next start time (clock seconds) for one request."""
        with self._lock:
            start = max(self._clock(), self._next_start, self._paused_until)
            if self._first_start is None:
                self._first_start = start
            self._next_start = start + 1.0 / self._rate
            return start

    def succeeded(self) -> None:
        """One clean answer: once a second, let the rate grow (fast while probing, then slowly)."""
        if not self._adaptive:
            return
        with self._lock:
            now = self._clock()
            self._answers += 1
            elapsed = now - self._last_growth
            if elapsed < 1.0:
                return
            self._last_growth = now
            if self._probing:
                self._rate = min(self._max_rate, self._rate * PROBE_GROWTH)
            else:
                self._rate = min(self._max_rate, self._rate + CLIMB_PER_S * elapsed)
            if self._learned is not None and self._probing and self._first_start is not None:
                # Before any 429, what is kept is the pace the answers came back at (never below where
                # this pacer started): a probed rate the key's burst allowance absorbed is not yet one
                # it sustains. After a 429, only the rate a cut leaves is kept: the slow climb above it
                # is what meets the next 429, and the next read should not start there.
                achieved = self._answers / max(now - self._first_start, 1e-9)
                self._learned(min(self._rate, max(self._start_rate, achieved)), True)

    def rate_limited(self, started_at: float, retry_after: float | None) -> float:
        """A request started at ``started_at`` got a 429: pause everyone; returns when to resume."""
        wait_s = DEFAULT_RETRY_AFTER_S if retry_after is None else max(0.0, retry_after)
        with self._lock:
            now = self._clock()
            self.rate_limited_count += 1
            self._paused_until = max(self._paused_until, now + wait_s)
            self._next_start = max(self._next_start, self._paused_until)
            if self._adaptive and started_at >= self._last_cut:
                # The first 429 of a burst: the rate was too high. Later ones of the same burst were
                # sent before anyone knew, so they say nothing new about the rate.
                self._rate = max(self._min_rate, self._rate * CUT_FACTOR)
                self._probing = False
                self._last_cut = now
                self._last_growth = self._paused_until
                if self._learned is not None:
                    self._learned(self._rate, False)
            return self._paused_until


@dataclass(frozen=True)
class ItemResult(Generic[T]):
    """What became of one item: a value, or the error it ended with (``skipped``: never asked)."""

    item: str
    value: T | None = None
    error: ApiError | None = None
    attempts: int = 0
    skipped: bool = False

    @property
    def ok(self) -> bool:
        return self.error is None and not self.skipped


#: Errors after which no further request can succeed, so the run stops asking (an untrusted certificate
#: is the service's, whatever the item).
RUN_ENDING_ERRORS: tuple[type[ApiError], ...] = (AuthError, PaymentRequiredError, CertificateError)


class BulkRunner(Generic[T]):
    """Runs ``fetch`` over many items with bounded concurrency and one shared pacer.

    ``run`` yields each item's result as it completes, in the caller's thread, so a UI can show
    progress; closing the iterator early stops the workers (answers already in flight still land
    wherever ``fetch`` puts them). ``run_all`` returns the results in input order.
    """

    def __init__(
        self,
        fetch: Callable[[str], T],
        *,
        workers: int = DEFAULT_WORKERS,
        pacer: Pacer | None = None,
        max_attempts: int = DEFAULT_MAX_ATTEMPTS,
        max_pause: float = MAX_PAUSE_S,
        group: Callable[[str], str] | None = None,
    ) -> None:
        if workers < 1:
            raise ValueError("workers must be at least 1")
        if max_attempts < 1:
            raise ValueError("max_attempts must be at least 1")
        self._fetch = fetch
        self.workers = workers
        self.pacer = pacer or Pacer()
        self.max_attempts = max_attempts
        self.max_pause = max_pause
        self._stop = threading.Event()
        self._end_lock = threading.Lock()
        self.ended_by: ApiError | None = None
        self._group = group
        #: group → the refusal that ended it (only with ``group``).
        self.ended_groups: dict[str, ApiError] = {}

    # --- one item ---------------------------------------------------------------------------

    def _end_run(self, err: ApiError, item: str) -> None:
        """Stop asking: ``item``'s group after a refusal when the run has groups, else everyone."""
        with self._end_lock:
            if self._group is not None and not isinstance(err, RateLimitedError):
                self.ended_groups.setdefault(self._group(item), err)
                return
            if self.ended_by is None:
                self.ended_by = err
        self._stop.set()

    def _ended(self, item: str) -> ApiError | None:
        """The refusal that ended ``item``'s group, if one did."""
        if self._group is None:
            return None
        with self._end_lock:
            return self.ended_groups.get(self._group(item))

    def _skipped(self, item: str, attempts: int = 0, error: ApiError | None = None) -> ItemResult[T]:
        return ItemResult(item, error=error or self.ended_by, attempts=attempts, skipped=True)

    def _wait_for_slot(self) -> float | None:
        """Wait for this worker's turn; returns its start time, or None when the run was stopped.

        A pause that began while the worker slept (another worker's 429) moves its turn back.
        """
        while True:
            slot = self.pacer.reserve()
            delay = slot - self.pacer.now()
            if self._stop.wait(delay) if delay > 0 else self._stop.is_set():
                return None
            if self.pacer.paused_until <= self.pacer.now():
                return slot

    def _transient_wait(self, err: ApiError, attempt: int) -> float | None:
        """Seconds before asking again after a 503 or a dropped connection, or None: give up."""
        if isinstance(err, ApiTimeoutError) or attempt >= TRANSIENT_ATTEMPTS:
            return None  # a timeout already waited the whole timeout
        if isinstance(err, UnavailableError) and err.retry_after is not None:
            return err.retry_after if err.retry_after <= self.max_pause else None
        return backoff_s(attempt)

    def _one(self, item: str) -> ItemResult[T]:
        attempts = transient = 0
        while True:
            ended = self._ended(item)
            if ended is not None:
                return self._skipped(item, attempts, ended)
            started = None if self._stop.is_set() else self._wait_for_slot()
            if started is None:
                return self._skipped(item, attempts)
            attempts += 1
            try:
                value = self._fetch(item)
            except RateLimitedError as err:
                wait_s = DEFAULT_RETRY_AFTER_S if err.retry_after is None else err.retry_after
                if wait_s > self.max_pause:
                    self._end_run(err, item)
                    return ItemResult(item, error=err, attempts=attempts)
                self.pacer.rate_limited(started, wait_s)
                if attempts >= self.max_attempts:
                    return ItemResult(item, error=err, attempts=attempts)
            except RUN_ENDING_ERRORS as err:
                self._end_run(err, item)
                return ItemResult(item, error=err, attempts=attempts)
            except (UnavailableError, TransportError) as err:
                delay = self._transient_wait(err, transient)
                transient += 1
                if delay is None or attempts >= self.max_attempts:
                    return ItemResult(item, error=err, attempts=attempts)
                if self._stop.wait(delay):
                    return ItemResult(item, error=err, attempts=attempts)
            except ApiError as err:
                return ItemResult(item, error=err, attempts=attempts)
            except Exception as exc:
                # A bug in one item's handling must not sink the run (or reach the user as a
                # traceback): it becomes that item's error, named but not detailed.
                problem = ApiError(f"The check failed unexpectedly ({type(exc).__name__}).")
                return ItemResult(item, error=problem, attempts=attempts)
            else:
                self.pacer.succeeded()
                return ItemResult(item, value=value, attempts=attempts)

    # --- many items -------------------------------------------------------------------------

    def run(self, items: Iterable[str]) -> Iterator[ItemResult[T]]:
        """Yield every item's result as it completes (each item exactly once)."""
        executor = ThreadPoolExecutor(max_workers=self.workers, thread_name_prefix="bulk")
        pending: set[Future[ItemResult[T]]] = set()
        try:
            pending = {executor.submit(self._one, item) for item in items}
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    yield future.result()
        finally:
            # Reached early only when the consumer stopped (a closed generator, an exception in
            # the UI): workers still sleeping give up, queued items are dropped.
            self._stop.set()
            executor.shutdown(wait=False, cancel_futures=True)

    def run_all(self, items: Sequence[str]) -> list[ItemResult[T]]:
        """Every item's result, in input order."""
        by_item = {result.item: result for result in self.run(items)}
        return [by_item[item] for item in items]


def run_bulk(
    items: Sequence[str],
    fetch: Callable[[str], T],
    *,
    workers: int = DEFAULT_WORKERS,
    rate: float = INITIAL_RATE,
    adaptive: bool = True,
) -> list[ItemResult[T]]:
    """``fetch`` over ``items`` (distinct), paced and bounded; results in input order."""
    pacer = Pacer(rate, adaptive=adaptive, max_rate=max(MAX_RATE, rate))
    return BulkRunner(fetch, workers=workers, pacer=pacer).run_all(items)
