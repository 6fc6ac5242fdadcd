"""The pacer remembers the rate it learned for a service and key, so the next bulk read of the same key
starts there instead of at the gentle first rate (on a fake clock: no sleeping, no server)."""

from __future__ import annotations

import pytest

from client import ApiClient
from client.bulk import CUT_FACTOR, INITIAL_RATE, PROBE_GROWTH, Pacer
from client.rate_memory import KEEP_LEARNED_S, RateMemory


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def _ramp(pacer: Pacer, clock: FakeClock, seconds: int) -> None:
    for _ in range(seconds):
        clock.now += 1.0
        pacer.succeeded()


def test_a_key_seen_for_the_first_time_starts_gently() -> None:
    clock = FakeClock()
    assert Pacer.for_limit("svc key-a", memory=RateMemory(clock=clock), clock=clock).rate == INITIAL_RATE


def test_the_next_read_of_the_same_key_starts_at_the_rate_the_last_one_learned() -> None:
    clock = FakeClock()
    memory = RateMemory(clock=clock)
    first = Pacer.for_limit("svc key-a", memory=memory, clock=clock)
    _ramp(first, clock, 2)  # 12 → 16.8 → 23.5 requests/s, no 429 yet
    first.rate_limited(clock.now, 1.0)  # the limit is met: cut, then a slow climb
    learned = first.rate
    assert learned == pytest.approx(INITIAL_RATE * PROBE_GROWTH**2 * CUT_FACTOR)

    second = Pacer.for_limit("svc key-a", memory=memory, clock=clock)
    assert second.rate == pytest.approx(learned)
    # It climbs as slowly as after any 429: it does not probe past what was learned.
    _ramp(second, clock, 1)
    assert learned < second.rate < learned * PROBE_GROWTH - 1


def _answered(pacer: Pacer, clock: FakeClock, per_s: int, seconds: int) -> None:
    """Answers coming back at ``per_s`` a second for ``seconds``, none of them a 429."""
    for _ in range(per_s * seconds):
        pacer.reserve()
        clock.now += 1.0 / per_s
        pacer.succeeded()


def test_without_a_429_the_next_read_starts_at_the_pace_answers_came_back_at_and_keeps_probing() -> None:
    clock = FakeClock()
    memory = RateMemory(clock=clock)
    first = Pacer.for_limit("svc key-a", memory=memory, clock=clock)
    _answered(first, clock, 16, 3)  # probed up to 33 requests/s, but answers came back at 16 a second
    assert first.rate == pytest.approx(INITIAL_RATE * PROBE_GROWTH**3)
    second = Pacer.for_limit("svc key-a", memory=memory, clock=clock)
    assert second.rate == pytest.approx(16, rel=0.05)  # not the probed rate the burst allowance absorbed
    _answered(second, clock, 16, 1)
    assert second.rate == pytest.approx(16 * PROBE_GROWTH, rel=0.05)  # still probing

    slow = Pacer.for_limit("svc key-b", memory=memory, clock=clock)
    _answered(slow, clock, 4, 3)  # a slow service: the next read still starts no lower than the first
    assert Pacer.for_limit("svc key-b", memory=memory, clock=clock).rate == INITIAL_RATE


def test_another_key_or_service_and_an_old_rate_start_gently() -> None:
    clock = FakeClock()
    memory = RateMemory(clock=clock)
    first = Pacer.for_limit("svc key-a", memory=memory, clock=clock)
    _ramp(first, clock, 3)
    assert Pacer.for_limit("svc key-b", memory=memory, clock=clock).rate == INITIAL_RATE
    assert Pacer.for_limit("other key-a", memory=memory, clock=clock).rate == INITIAL_RATE
    clock.now += KEEP_LEARNED_S + 1  # a plan may have changed since: the gentle start again
    assert Pacer.for_limit("svc key-a", memory=memory, clock=clock).rate == INITIAL_RATE


def test_a_pacer_without_a_limit_name_keeps_nothing() -> None:
    clock = FakeClock()
    memory = RateMemory(clock=clock)
    _ramp(Pacer.for_limit(None, clock=clock), clock, 3)
    assert memory.recall("svc key-a") is None


def test_a_clients_limit_name_is_its_service_and_key_fingerprint_never_the_key() -> None:
    with (
        ApiClient("https://api.example.test/", "vdr_secret_one") as one,
        ApiClient("https://api.example.test", "vdr_secret_one") as same,
        ApiClient("https://api.example.test", "vdr_secret_two") as other,
    ):
        assert one.limit_name == same.limit_name != other.limit_name
        assert "secret" not in one.limit_name and one.limit_name.startswith("https://api.example.test ")


def test_the_climb_after_a_429_is_not_kept_only_the_rate_the_cut_left() -> None:
    clock = FakeClock()
    memory = RateMemory(clock=clock)
    first = Pacer.for_limit("svc key-a", memory=memory, clock=clock)
    _ramp(first, clock, 2)
    first.rate_limited(clock.now, 1.0)
    after_cut = first.rate
    _ramp(first, clock, 10)  # the slow climb that will meet the next 429
    assert first.rate > after_cut + 3
    assert Pacer.for_limit("svc key-a", memory=memory, clock=clock).rate == pytest.approx(after_cut)
