"""The bulk runner against real sandboxes: every domain back once, the rate limit and Retry-After kept."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator

import pytest

from client import ApiClient
from client.bulk import CUT_FACTOR, BulkRunner, Pacer, run_bulk
from client.errors import ApiError, PaymentRequiredError, RateLimitedError
from client.models import DomainRating
from sandbox import DEMO_KEY, SandboxConfig, SandboxServer
from sandbox.data import dr_for
from tests.polling import until

RATE_LIMIT = 20.0


@pytest.fixture(scope="module")
def limited() -> Iterator[SandboxServer]:
    """A sandbox that allows 20 requests per second per key (bursts of 20), like a small plan."""
    with SandboxServer(
        SandboxConfig(rate_limit=RATE_LIMIT, quota=100_000), host="127.0.0.1", port=0
    ) as server:
        yield server


@pytest.fixture
def fresh_limited(limited: SandboxServer) -> Iterator[SandboxServer]:
    limited.state.reset()
    time.sleep(1.0)  # let the key's token bucket refill after the previous test
    yield limited
    limited.state.reset()


def _client(server: SandboxServer) -> ApiClient:
    # No retries in the client: the runner's pacer must see every 429 itself.
    return ApiClient(server.base_url, DEMO_KEY, max_retries=0, timeout=5.0)


def _domains(n: int, tag: str) -> list[str]:
    return [f"{tag}-site{i}.com" for i in range(n)]


def _dr_requests(server: SandboxServer) -> int:
    return sum(1 for method, path, _, _ in server.state.request_log if method == "GET" and "/dr/" in path)


def test_every_domain_comes_back_once_at_the_rate_limit(fresh_limited: SandboxServer) -> None:
    domains = _domains(60, "paced")
    started = time.monotonic()
    with _client(fresh_limited) as client:
        runner: BulkRunner[DomainRating] = BulkRunner(client.dr)
        results = list(runner.run(domains))
    elapsed = time.monotonic() - started
    assert sorted(r.item for r in results) == sorted(domains)  # none lost, none twice
    assert all(r.ok for r in results), [r.error for r in results if not r.ok]
    assert {r.item: r.value.dr for r in results if r.value} == {d: dr_for(d) for d in domains}
    # One unit per domain, none for the 429s; and pacing keeps the 429s to a handful.
    assert fresh_limited.state.quota_remaining(DEMO_KEY, 100_000) == 100_000 - len(domains)
    assert _dr_requests(fresh_limited) - len(domains) == runner.pacer.rate_limited_count <= 5
    # 20 in the first burst, then 20 per second: the floor is 2 s; pacing must not crawl.
    assert (len(domains) - RATE_LIMIT) / RATE_LIMIT - 0.3 < elapsed < 8


def _recording(fetch: Callable[[str], DomainRating]) -> tuple[Callable[[str], DomainRating], list, list]:
    starts: list[float] = []
    limited_at: list[tuple[float, float]] = []
    lock = threading.Lock()

    def wrapped(domain: str) -> DomainRating:
        with lock:
            starts.append(time.monotonic())
        try:
            return fetch(domain)
        except RateLimitedError as err:
            with lock:
                limited_at.append((time.monotonic(), err.retry_after or 0.0))
            raise

    return wrapped, starts, limited_at


def test_retry_after_holds_back_every_worker(sandbox: SandboxServer) -> None:
    sandbox.state.add_fault("dr", 429, times=1, retry_after=1)
    domains = _domains(12, "retry")
    with _client(sandbox) as client:
        fetch, starts, limited_at = _recording(client.dr)
        results = BulkRunner(fetch, workers=4).run_all(domains)
    assert [r.item for r in results] == domains and all(r.ok for r in results)
    assert len(limited_at) == 1
    answered, retry_after = limited_at[0]
    assert retry_after >= 1
    # No request (of any worker) started during the pause the 429 asked for.
    assert not [s for s in starts if answered < s < answered + retry_after - 0.01]
    assert max(starts) >= answered + retry_after - 0.01  # the retried domain was asked again after it


def test_one_failure_does_not_stop_the_others(sandbox: SandboxServer) -> None:
    sandbox.state.add_fault("dr", 500, times=1)
    domains = _domains(10, "onefail")
    with _client(sandbox) as client:
        results = run_bulk(domains, client.dr, workers=3)
    failed = [r for r in results if not r.ok]
    assert len(failed) == 1 and failed[0].error is not None and failed[0].error.status == 500
    assert [r.item for r in results] == domains


def test_a_spent_quota_ends_the_run_and_marks_the_rest_not_checked() -> None:
    quota = 5
    with SandboxServer(SandboxConfig(quota=quota), host="127.0.0.1", port=0) as server:
        domains = _domains(30, "quota")
        with _client(server) as client:
            runner: BulkRunner[DomainRating] = BulkRunner(client.dr, workers=2)
            results = runner.run_all(domains)
        asked = server.state.total_requests()
    assert sum(r.ok for r in results) == quota
    assert isinstance(runner.ended_by, PaymentRequiredError)
    skipped = [r for r in results if r.skipped]
    assert skipped and all(isinstance(r.error, PaymentRequiredError) and r.attempts == 0 for r in skipped)
    assert asked < len(domains)  # it stopped asking once asking was pointless


def test_closing_the_iterator_stops_the_workers(sandbox: SandboxServer) -> None:
    domains = _domains(40, "stop")
    with _client(sandbox) as client:
        runner: BulkRunner[DomainRating] = BulkRunner(client.dr, workers=2, pacer=Pacer(5, adaptive=False))
        already = set(threading.enumerate())
        iterator = runner.run(domains)
        first = next(iterator)
        iterator.close()
        workers = [t for t in threading.enumerate() if t not in already and t.name.startswith("bulk")]
        # Each worker ends once its request in flight is answered; after that nothing can ask again.
        assert until(lambda: not any(worker.is_alive() for worker in workers))
    assert first.ok
    assert sandbox.state.total_requests() < len(domains)  # the queued domains were never asked


# --- the pacer on a fake clock ------------------------------------------------------------------


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_pacer_spaces_requests_at_its_rate() -> None:
    clock = FakeClock()
    pacer = Pacer(10, adaptive=False, clock=clock)
    slots = [pacer.reserve() for _ in range(5)]
    assert slots == pytest.approx([100.0, 100.1, 100.2, 100.3, 100.4])


def test_pacer_pauses_everyone_and_cuts_the_rate_once_per_burst() -> None:
    clock = FakeClock()
    pacer = Pacer(20, clock=clock)
    sent = [pacer.reserve() for _ in range(4)]
    clock.now += 0.2
    resume = pacer.rate_limited(sent[0], 2.0)
    assert resume == pytest.approx(102.2)
    assert pacer.reserve() >= resume  # nobody starts inside the pause
    pacer.rate_limited(sent[1], 2.0)  # same burst: sent before the first 429 came back
    assert pacer.rate == pytest.approx(20 * CUT_FACTOR)


def test_pacer_ramps_up_while_answers_are_clean() -> None:
    clock = FakeClock()
    pacer = Pacer(10, clock=clock, max_rate=50)
    for _ in range(10):
        clock.now += 1.0
        pacer.succeeded()
    assert pacer.rate == 50  # capped
    pacer.rate_limited(clock.now, 1.0)
    after_cut = pacer.rate
    clock.now += 3.0
    pacer.succeeded()
    assert after_cut < pacer.rate < after_cut + 2  # then it climbs slowly


def test_a_retry_after_too_long_to_wait_ends_the_run(sandbox: SandboxServer) -> None:
    sandbox.state.add_fault("dr", 429, retry_after=3600)
    domains = _domains(6, "longwait")
    with _client(sandbox) as client:
        runner: BulkRunner[DomainRating] = BulkRunner(client.dr, workers=2)
        results = runner.run_all(domains)  # waiting out the hour would outlast the test's timeout
    assert sandbox.state.total_requests() < len(domains)  # the first refusals ended it: no more asked
    assert isinstance(runner.ended_by, RateLimitedError)
    assert all(isinstance(r.error, ApiError) for r in results)


def test_an_unexpected_failure_is_one_items_error_not_a_crash() -> None:
    def fetch(item: str) -> str:
        if item == "b":
            raise ValueError("boom")
        return item.upper()

    results = BulkRunner(fetch, workers=2, pacer=Pacer(100, adaptive=False)).run_all(["a", "b", "c"])
    assert [r.value for r in results] == ["A", None, "C"]
    assert results[1].error is not None and "ValueError" in results[1].error.message
