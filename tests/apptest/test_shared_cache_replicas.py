"""The shared Redis cache level against a real redis-server on 127.0.0.1 and the session sandbox.

Another replica is played by emptying this process's own cache (``data.clear_caches()``): what it then
reads comes from Redis or from the service, and the sandbox counts what the service was asked. Another
process's write is played by a real second Python process announcing it.
"""

from __future__ import annotations

import json
import logging
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from pydantic import SecretStr

from bench.deployment import RedisServer
from bench.harness import free_port
from client.inputs import slug_for
from components.core.cache import announcements, data, redis_cache, shared_cache
from components.core.cache.connection import Connection
from components.core.nav import pages
from sandbox import DEMO_KEY, FREE_KEY, SandboxServer
from sandbox.accounts import ACCOUNTS
from tests.apptest.app_pages import button, open_page
from tests.polling import until

SITE = ACCOUNTS[DEMO_KEY].sites[0]
SLUG = slug_for(SITE)
KEYWORDS_PATH = f"/api/v1/sites/{SLUG}/keywords"
TRACKED = pages.TRACKED_KEYWORDS.file
OVERVIEW = pages.OVERVIEW.file
NEW_KEYWORD = "shared cache probe keyword"
ROOT = Path(__file__).resolve().parents[2]


def _use_redis(monkeypatch: pytest.MonkeyPatch, url: str, retry_after_s: float = 30.0) -> None:
    monkeypatch.setenv(shared_cache.ENV_VAR, url)
    monkeypatch.setattr(shared_cache, "RETRY_AFTER_S", retry_after_s)
    shared_cache.reset()


@pytest.fixture
def redis_on(
    live_env: SandboxServer, redis_server: RedisServer, monkeypatch: pytest.MonkeyPatch
) -> Iterator[RedisServer]:
    """The app in Live mode against the sandbox, with the shared level on a fresh Redis."""
    _use_redis(monkeypatch, redis_server.url, retry_after_s=0.5)
    yield redis_server
    shared_cache.reset()


@pytest.fixture
def conn(live_env: SandboxServer) -> Connection:
    return Connection("live", live_env.base_url, SecretStr(DEMO_KEY), "test", 5.0)


def _gets(server: SandboxServer, path: str) -> int:
    return sum(1 for m, p, _, _ in server.state.request_log if m == "GET" and p == path)


def test_another_replica_reads_from_redis_and_spends_no_call(
    redis_on: RedisServer, live_env: SandboxServer
) -> None:
    first = open_page(OVERVIEW, domain="stripe.com")
    assert not first.exception
    spent = live_env.state.total_requests()
    assert spent >= 1

    data.clear_caches()  # another replica: nothing of its own cached
    second = open_page(OVERVIEW, domain="stripe.com")
    assert not second.exception
    assert live_env.state.total_requests() == spent
    assert [m.value for m in second.metric] == [m.value for m in first.metric]


def test_values_are_json_text_and_nothing_stored_holds_the_key(
    redis_on: RedisServer, conn: Connection
) -> None:
    data.lookup(conn, "stripe.com")
    data.trust_map(conn, "stripe.com")
    data.tracked_keywords(conn, SLUG)
    with pytest.raises(Exception):  # noqa: B017 - a 404 is cached as a definitive error
        data.site(conn, slug_for(ACCOUNTS[FREE_KEY].sites[0]))
    raw = redis_on.client()
    keys = raw.keys("*")
    assert len(keys) == 4 and all(k.startswith(b"adash:v1:") for k in keys)
    for key in keys:
        value = raw.get(key)
        assert value is not None and not value.startswith(b"\x80")  # no pickle protocol header
        assert isinstance(json.loads(value), dict)
        assert DEMO_KEY.encode() not in key and DEMO_KEY.encode() not in value
        assert 0 < raw.ttl(key) <= data.CACHE_TTL_S
    raw.close()


def test_a_cached_definitive_error_is_shared_too(
    redis_on: RedisServer, conn: Connection, live_env: SandboxServer
) -> None:
    other = slug_for(ACCOUNTS[FREE_KEY].sites[0])
    with pytest.raises(Exception) as first:
        data.site(conn, other)
    spent = live_env.state.total_requests()
    data.clear_caches()
    with pytest.raises(type(first.value)) as second:
        data.site(conn, other)
    assert str(second.value) == str(first.value) and live_env.state.total_requests() == spent


def test_a_write_drops_the_shared_list_so_another_replica_sees_the_new_one(
    redis_on: RedisServer, live_env: SandboxServer
) -> None:
    at = open_page(TRACKED, domain=SITE)
    assert NEW_KEYWORD not in list(at.dataframe[0].value["keyword"])
    at.text_input(key="track").input(NEW_KEYWORD)
    button(at, "Track keyword").click().run()
    assert not at.exception

    data.clear_caches()  # replica B: only what Redis holds
    reads = _gets(live_env, KEYWORDS_PATH)
    other = open_page(TRACKED, domain=SITE)
    assert NEW_KEYWORD in list(other.dataframe[0].value["keyword"])
    assert _gets(live_env, KEYWORDS_PATH) == reads  # replica A's re-read is what B gets


def test_forgetting_after_a_write_costs_one_call_and_never_serves_the_stale_list(
    redis_on: RedisServer, conn: Connection, live_env: SandboxServer
) -> None:
    before = data.tracked_keywords(conn, SLUG)
    data.client_for(conn).add_tracked_keyword(SLUG, NEW_KEYWORD)  # the write itself, as writes.py sends it
    data.forget(conn, "tracked_keywords", SLUG)  # what writes.py does after a successful write
    data.clear_caches()
    reads = _gets(live_env, KEYWORDS_PATH)
    after = data.tracked_keywords(conn, SLUG)
    assert _gets(live_env, KEYWORDS_PATH) == reads + 1
    assert NEW_KEYWORD in [k.keyword for k in after.keywords]
    assert NEW_KEYWORD not in [k.keyword for k in before.keywords]


ANNOUNCE = """
import sys
from components.core.cache.redis_cache import SharedCache
cache = SharedCache(sys.argv[1])
cache.delete(sys.argv[2], sys.argv[3], "tracked_keywords", (sys.argv[4],))
cache.close()
"""


def test_a_write_in_another_process_drops_this_process_copy(
    redis_on: RedisServer, conn: Connection, live_env: SandboxServer
) -> None:
    data.tracked_keywords(conn, SLUG)
    assert data.is_cached(conn, "tracked_keywords", SLUG)
    data.client_for(conn).add_tracked_keyword(SLUG, NEW_KEYWORD)
    command = [sys.executable, "-c", ANNOUNCE, redis_on.url, conn.base_url, conn.fingerprint, SLUG]
    subprocess.run(command, check=True, timeout=60, cwd=ROOT)
    assert until(lambda: not data.is_cached(conn, "tracked_keywords", SLUG))
    assert NEW_KEYWORD in [k.keyword for k in data.tracked_keywords(conn, SLUG).keywords]


def _warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [
        r.getMessage()
        for r in caplog.records
        if r.levelno >= logging.WARNING and "shared cache" in r.getMessage()
    ]


def test_redis_stopped_mid_run_loses_no_read_warns_once_and_is_used_again_when_back(
    redis_on: RedisServer, conn: Connection, live_env: SandboxServer, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger=redis_cache.__name__)
    data.lookup(conn, "stripe.com")
    redis_on.stop()
    for domain in ("hubspot.com", "example.com", "stripe.com"):
        data.clear_caches()
        assert data.lookup(conn, domain).domain == domain
        time.sleep(0.3)  # past the retry interval now and then: retries fail again, quietly
    assert len(_warnings(caplog)) == 1
    assert DEMO_KEY not in caplog.text

    redis_on.start()  # back, empty (nothing persisted); used again after the retry interval
    time.sleep(0.6)
    data.clear_caches()
    data.lookup(conn, "hubspot.com")
    raw = redis_on.client()
    assert len(raw.keys("*")) == 1
    raw.close()
    assert "reachable again" in caplog.text


def test_a_page_with_redis_unreachable_shows_its_data_and_no_error(
    live_env: SandboxServer, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger=redis_cache.__name__)
    _use_redis(monkeypatch, f"redis://127.0.0.1:{free_port()}/0")
    try:
        at = open_page(OVERVIEW, domain="stripe.com")
        assert not at.exception and not at.error
        assert len(at.metric) >= 1
        assert len(_warnings(caplog)) == 1
    finally:
        shared_cache.reset()


def test_the_outage_line_never_logs_a_password_in_any_url_form(
    live_env: SandboxServer,
    redis_server: RedisServer,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A real Redis that wants a password, reached with wrong ones (user part and query, as redis-py
    reads both): it refuses, the page still shows its data, and the log line hides every password."""
    raw = redis_server.client()
    raw.config_set("requirepass", "the-right-one")
    raw.close()
    caplog.set_level(logging.WARNING, logger=redis_cache.__name__)
    url = f"redis://app:Upass-3391@127.0.0.1:{redis_server.port}/0?password=Qpass-8812&db=0"
    _use_redis(monkeypatch, url)
    try:
        at = open_page(OVERVIEW, domain="stripe.com")
        assert not at.exception and not at.error
        assert len(at.metric) >= 1
        logged = _warnings(caplog)
        assert len(logged) == 1 and f"127.0.0.1:{redis_server.port}" in logged[0], logged
        assert "Upass" not in caplog.text and "Qpass" not in caplog.text, caplog.text
    finally:
        shared_cache.reset()


@dataclass
class SilentServer:
    """A port that accepts connections and never answers: a Redis too slow to wait for."""

    port: int
    accepted: list[socket.socket]


@pytest.fixture
def silent_server() -> Iterator[SilentServer]:
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    server = SilentServer(int(listener.getsockname()[1]), [])
    stop = threading.Event()

    def accept() -> None:
        listener.settimeout(0.1)
        while not stop.is_set():
            try:
                server.accepted.append(listener.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield server
    stop.set()
    thread.join(timeout=2)
    for held in server.accepted:
        held.close()
    listener.close()


def test_a_slow_redis_costs_a_read_at_most_a_quarter_second_then_is_left_alone(
    live_env: SandboxServer, conn: Connection, silent_server: SilentServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = f"redis://127.0.0.1:{silent_server.port}/0"
    alone = redis_cache.SharedCache(url)
    started = time.perf_counter()
    assert alone.get(conn.base_url, conn.fingerprint, "lookup", ("stripe.com",)) is None
    waited = time.perf_counter() - started
    alone.close()
    assert waited < redis_cache.SOCKET_TIMEOUT_S + 0.35  # one bounded wait (slack for a loaded machine)

    _use_redis(monkeypatch, url)
    try:
        assert data.lookup(conn, "stripe.com").domain == "stripe.com"  # the service answers instead
        tried = len(silent_server.accepted)
        assert data.lookup(conn, "hubspot.com").domain == "hubspot.com"
        assert len(silent_server.accepted) == tried  # Redis is left alone until the retry interval
    finally:
        shared_cache.reset()


def test_another_replica_counts_what_redis_holds_as_costing_nothing(
    redis_on: RedisServer, conn: Connection, live_env: SandboxServer
) -> None:
    data.keyword_report(conn, "crm", "stripe.com")
    data.clear_caches()  # another replica: a bulk plan or a "this will use a unit" note asks first
    assert data.is_cached(conn, "keyword_report", "crm", "stripe.com")
    assert not data.is_cached(conn, "keyword_report", "crm", "hubspot.com")
    data.forget(conn, "keyword_report", "crm", "stripe.com")
    assert not data.is_cached(conn, "keyword_report", "crm", "stripe.com")


def test_a_process_does_not_act_on_its_own_announcement(redis_on: RedisServer, conn: Connection) -> None:
    """A write forgets this process's copy at once and then announces it; the page re-reads meanwhile,
    so when the announcement comes back to this process's listener it must not drop the re-read."""
    key = (conn.base_url, conn.fingerprint, "tracked_keywords", (SLUG,))
    shared = shared_cache.current(data._forget_here)  # its listener, as the data layer starts it
    assert shared is not None and shared.listening.wait(30)
    data.tracked_keywords(conn, SLUG)  # the re-read, already made when the announcement arrives
    other_key = (conn.base_url, conn.fingerprint, "lookup", ("stripe.com",))  # another page's copy
    data.lookup(conn, "stripe.com")
    shared.delete(*key)  # the announcement this process sends
    # Then another process's: heard after this process's own (one channel keeps its order), so once
    # its copy has gone, the own announcement has been heard too.
    raw = redis_on.client()
    raw.publish(announcements.ENTRY_CHANNEL, announcements.entry_note("another-process", other_key))
    raw.close()
    assert until(lambda: not data._ledger().holds(other_key))
    assert data._ledger().holds(key)
