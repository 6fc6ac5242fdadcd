"""One fill at a time across processes: replicas asked for the same new answer at once spend one call.

Real processes (each a Python process with its own in-process cache, as a replica has) share a real
redis-server on 127.0.0.1 and a sandbox that answers slowly enough for their misses to overlap; the
sandbox counts what the service was asked. The claim's own rules (waiting, giving up, a write taking
the claim) are checked on two ``SharedCache`` objects, which share nothing but Redis, as two processes.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from bench.deployment import RedisServer
from client.models import DomainRating
from client.settings import key_fingerprint
from components.core.cache import shared_cache
from components.core.cache.cache_records import Fill, Record, entry_key, fill_key
from components.core.cache.redis_cache import SharedCache
from sandbox import DEMO_KEY, SandboxConfig, SandboxServer

ROOT = Path(__file__).resolve().parents[2]
BASE = "https://verifieddr.example"
FINGERPRINT = key_fingerprint(DEMO_KEY)
READ = (BASE, FINGERPRINT, "dr", ("stripe.com",))
RECORD = Record(value=DomainRating(domain="stripe.com", dr=91))
REPLICAS = 3

#: A replica: its own process and in-process cache, the shared level on; reads one Trust Map when told.
REPLICA = """
import sys
from pydantic import SecretStr
from components.core.cache import data
from components.core.cache.connection import Connection
conn = Connection("live", sys.argv[1], SecretStr(sys.argv[2]), "test", 20.0)
print("ready", flush=True)
sys.stdin.readline()
print(data.trust_map(conn, "stripe.com").site.domain, flush=True)
"""


@pytest.fixture
def slow_sandbox() -> Iterator[SandboxServer]:
    """A sandbox of this test's own that takes 600 ms per answer, so misses of several replicas overlap."""
    server = SandboxServer(SandboxConfig(latency_ms=600)).start()
    yield server
    server.stop()


@pytest.fixture
def two_processes(redis_server: RedisServer) -> Iterator[tuple[SharedCache, SharedCache]]:
    first, second = SharedCache(redis_server.url), SharedCache(redis_server.url)
    yield first, second
    first.close()
    second.close()


def _trust_map_calls(server: SandboxServer) -> int:
    return sum(1 for m, p, _, _ in server.state.request_log if m == "GET" and p.endswith("/map/stripe.com"))


def test_replicas_opening_the_same_new_page_at_once_spend_one_call(
    redis_server: RedisServer, slow_sandbox: SandboxServer
) -> None:
    env = {**_clean_env(), shared_cache.ENV_VAR: redis_server.url}
    command = [sys.executable, "-c", REPLICA, slow_sandbox.base_url, DEMO_KEY]
    replicas = [
        subprocess.Popen(command, cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        for _ in range(REPLICAS)
    ]
    try:
        for replica in replicas:
            assert replica.stdout is not None and replica.stdout.readline().strip() == "ready"
        for replica in replicas:  # all at once: each misses in its own cache and in Redis
            assert replica.stdin is not None
            replica.stdin.write("go\n")
            replica.stdin.flush()
        shown = [replica.communicate(timeout=60)[0].strip() for replica in replicas]
    finally:
        for replica in replicas:
            replica.kill()
    assert shown == ["stripe.com"] * REPLICAS  # every replica showed the map…
    assert _trust_map_calls(slow_sandbox) == 1  # …and the service was asked once


def _clean_env() -> dict[str, str]:
    """This environment without the app's settings: a replica reads only what the test gives it."""
    return {k: v for k, v in os.environ.items() if not k.startswith(("VERIFIEDDR_", "DASHBOARD_"))}


def test_a_process_that_misses_while_another_fills_waits_for_its_answer(
    two_processes: tuple[SharedCache, SharedCache],
) -> None:
    filler, waiter = two_processes
    claim = filler.claim(*READ)
    assert claim.token is not None and claim.found is None
    waited: list[Fill] = []
    thread = threading.Thread(target=lambda: waited.append(waiter.claim(*READ)))
    thread.start()
    thread.join(timeout=0.3)
    assert thread.is_alive()  # still waiting: it has not gone to the service
    assert filler.put(*READ, RECORD, token=claim.token)
    thread.join(timeout=5)
    assert waited and waited[0].token is None
    assert waited[0].found is not None and waited[0].found.value.dr == 91


class _FillsBetweenReadAndClaim(SharedCache):
    """A process whose first look finds nothing, after which the other process stores its answer and
    ends its claim before this one claims: the moment a busy machine widens between the two commands."""

    def __init__(self, url: str, filler: SharedCache, token: str) -> None:
        super().__init__(url)
        self._then = lambda: filler.put(*READ, RECORD, token=token)

    def _read(self, key: str, operation: str, base_url: str) -> Record | None:
        found = super()._read(key, operation, base_url)
        then, self._then = self._then, None
        if then is not None:
            assert then()  # stored, claim ended, after this process saw nothing
        return found


def test_an_answer_stored_between_a_look_and_a_claim_is_used_not_asked_again(
    redis_server: RedisServer,
) -> None:
    filler = SharedCache(redis_server.url)
    claim = filler.claim(*READ)
    assert claim.token is not None
    late = _FillsBetweenReadAndClaim(redis_server.url, filler, claim.token)
    try:
        fill = late.claim(*READ)
        assert fill.token is None, "it claimed a read whose answer was already stored: a second call"
        assert fill.found is not None and fill.found.value.dr == 91
        assert late.claim(*READ).found is not None  # and it left no claim of its own behind
    finally:
        late.close()
        filler.close()


def test_a_fill_that_failed_for_now_lets_the_next_process_ask_at_once(
    two_processes: tuple[SharedCache, SharedCache],
) -> None:
    filler, other = two_processes
    claim = filler.claim(*READ)
    assert claim.token is not None
    filler.release(*READ, claim.token)  # the service answered 503: nothing to keep
    assert other.claim(*READ, wait_s=0).token is not None


def test_a_stuck_fill_is_waited_for_a_bounded_time_then_the_process_asks_itself(
    two_processes: tuple[SharedCache, SharedCache],
) -> None:
    filler, other = two_processes
    assert filler.claim(*READ).token is not None  # and then never answers
    gave_up = other.claim(*READ, wait_s=0.2)
    assert gave_up.found is None and gave_up.token is None  # neither an answer nor a claim: ask
    assert other.put(*READ, RECORD)  # what it then asked is shared as usual
    assert filler.get(*READ) is not None


def test_a_write_during_a_fill_keeps_the_older_answer_out_of_the_shared_cache(
    two_processes: tuple[SharedCache, SharedCache], redis_server: RedisServer
) -> None:
    filler, writer = two_processes
    claim = filler.claim(*READ)
    assert claim.token is not None
    writer.delete(*READ)  # a write changed this answer while the filler was asking the service
    assert not filler.put(*READ, RECORD, token=claim.token)  # told: its answer may predate the write
    assert writer.get(*READ) is None
    raw = redis_server.client()
    key = entry_key(*READ)
    assert raw.get(key) is None and raw.get(fill_key(key)) is None
