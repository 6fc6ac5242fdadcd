"""Records and announcements in the shared Redis that the app did not write: a real redis-server on
127.0.0.1, the session sandbox, and pages opened with AppTest.

Anyone who can write to the Redis every replica trusts could plant a record (a 402 with no fields, a
402 whose button leads anywhere, 30 MB of padding) or publish a note the listener cannot read. Each test
plants one and checks that the page shows the service's own answer, that nothing planted stays in the
process's own cache, and that the listener keeps passing other replicas' writes on.
"""

from __future__ import annotations

import json
import logging
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from pydantic import SecretStr

from client import errors
from client.inputs import slug_for
from client.models import DomainRating
from components.core.cache import announcements, cache_records, data, redis_cache, shared_cache
from components.core.cache.connection import Connection
from components.core.nav import pages
from rigs.deployment import RedisServer
from sandbox import DEMO_KEY, SandboxServer
from sandbox.accounts import ACCOUNTS
from tests.apptest.app_pages import open_page
from tests.polling import until

ROOT = Path(__file__).resolve().parents[2]
OVERVIEW = pages.OVERVIEW.file
SITE = ACCOUNTS[DEMO_KEY].sites[0]
SLUG = slug_for(SITE)
EVIL = "evil.example"


@pytest.fixture
def redis_on(
    live_env: SandboxServer, redis_server: RedisServer, monkeypatch: pytest.MonkeyPatch
) -> Iterator[RedisServer]:
    """The app in Live mode against the sandbox, with the shared level on a fresh Redis."""
    monkeypatch.setenv(shared_cache.ENV_VAR, redis_server.url)
    monkeypatch.setattr(shared_cache, "RETRY_AFTER_S", 0.5)
    shared_cache.reset()
    yield redis_server
    shared_cache.reset()


@pytest.fixture
def conn(live_env: SandboxServer) -> Connection:
    return Connection("live", live_env.base_url, SecretStr(DEMO_KEY), "test", 5.0)


@pytest.fixture
def raw(redis_on: RedisServer) -> Iterator[redis.Redis]:
    """A plain client of that Redis, to plant, read and announce what the app would not."""
    client = redis_on.client()
    yield client
    client.close()


def _entries(raw: redis.Redis) -> list[bytes]:
    """The entry keys Redis holds (not the fill claims)."""
    return [key for key in raw.keys(cache_records.KEY_PREFIX + ":*") if b":fill:" not in key]


def _plant(raw: redis.Redis, record_for: Callable[[str, dict[str, Any]], dict[str, Any]]) -> int:
    """Replace every entry with ``record_for(operation, the record it held)``; how many were replaced."""
    keys = _entries(raw)
    for key in keys:
        operation = key.decode().split(":")[4]
        raw.set(key, json.dumps(record_for(operation, json.loads(raw.get(key) or b"{}"))), ex=900)
    return len(keys)


def _everything_shown(node: Any) -> str:
    """Every element of the page as Streamlit sends it to the browser (text, links, buttons, ...)."""
    children = getattr(node, "children", None)
    if isinstance(children, dict):
        return "\n".join(_everything_shown(child) for child in children.values())
    return str(getattr(node, "proto", node))


def _payment_record(operation: str, fields: dict[str, Any]) -> dict[str, Any]:
    error = {"class": "PaymentRequiredError", "fields": fields}
    return {"operation": operation, "error": error, "quota": None}


def _hostile_page_run(
    raw: redis.Redis, live_env: SandboxServer, record_for: Callable[[str, dict[str, Any]], dict[str, Any]]
) -> tuple[list[Any], Any]:
    """The Overview once honestly (its answers go to Redis), then as another replica after every record
    was replaced: the metrics of the honest run and the replica's page."""
    first = open_page(OVERVIEW, domain="stripe.com")
    assert not first.exception and first.metric
    assert _plant(raw, record_for) >= 1
    data.clear_caches()  # another replica: only what Redis holds
    return [m.value for m in first.metric], open_page(OVERVIEW, domain="stripe.com")


def test_a_402_record_without_its_fields_is_dropped_and_the_page_shows_the_services_answer(
    raw: redis.Redis, live_env: SandboxServer
) -> None:
    honest, at = _hostile_page_run(raw, live_env, lambda op, _: _payment_record(op, {}))
    assert not at.exception, at.exception
    assert [m.value for m in at.metric] == honest
    assert not at.warning and not at.error

    # Nothing planted stayed in this process's cache: with Redis emptied, the same page is still the
    # service's answer, from this process's own cache (no call spent).
    raw.flushdb()
    spent = live_env.state.total_requests()
    again = open_page(OVERVIEW, domain="stripe.com")
    assert not again.exception and [m.value for m in again.metric] == honest
    assert live_env.state.total_requests() == spent


def test_a_complete_402_record_with_a_foreign_link_never_shows_that_link(
    raw: redis.Redis, live_env: SandboxServer
) -> None:
    fields = {
        "message": "Your plan expired. Renew now to keep your data.",
        "status": 402,
        "upgrade_url": f"https://{EVIL}/renew",
        "required_plan": "growth",
        "blocked_feature": "renewal",
    }
    honest, at = _hostile_page_run(
        raw, live_env, lambda op, _: _payment_record(op, fields | {"operation": op})
    )
    assert not at.exception, at.exception
    shown = _everything_shown(at._tree)
    assert EVIL not in shown and "plan expired" not in shown
    assert [m.value for m in at.metric] == honest


def test_a_30_mb_record_is_dropped_and_read_from_the_service(
    raw: redis.Redis, conn: Connection, live_env: SandboxServer, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger=redis_cache.__name__)
    honest = data.lookup(conn, "stripe.com")
    padding = "x" * (30 * 1024 * 1024)

    def padded(operation: str, record: dict[str, Any]) -> dict[str, Any]:
        return record | {"value": record["value"] | {"padding": padding}}

    assert _plant(raw, padded) == 1
    data.clear_caches()
    spent = live_env.state.total_requests()
    found = data.lookup(conn, "stripe.com")
    assert "padding" not in (found.model_extra or {})
    assert found == honest
    assert live_env.state.total_requests() == spent + 1  # read from the service instead
    # Redis now holds the service's answer again, and was never taken for unreachable.
    (key,) = _entries(raw)
    assert raw.strlen(key) < 1024 * 1024
    assert not [r for r in caplog.records if "shared cache at" in r.getMessage()]


def test_a_key_of_another_type_is_dropped_and_redis_is_not_taken_for_unreachable(
    raw: redis.Redis, conn: Connection, live_env: SandboxServer, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger=redis_cache.__name__)
    honest = data.lookup(conn, "stripe.com")
    (key,) = _entries(raw)
    raw.delete(key)
    raw.rpush(key, "not", "a", "record")
    data.clear_caches()
    assert data.lookup(conn, "stripe.com") == honest
    assert raw.type(key) == b"string"  # the service's answer took its place
    data.clear_caches()
    spent = live_env.state.total_requests()
    assert data.lookup(conn, "stripe.com") == honest and live_env.state.total_requests() == spent
    assert not [r for r in caplog.records if "shared cache at" in r.getMessage()]


def test_an_answer_too_big_to_share_is_not_stored_and_frees_its_claim_at_once(
    raw: redis.Redis, conn: Connection
) -> None:
    """Other processes waiting for this fill must not wait out the lease for a record never written."""
    shared = shared_cache.current()
    assert shared is not None
    read = (conn.base_url, conn.fingerprint, "dr", ("stripe.com",))
    fill = shared.claim(*read)
    assert fill.token is not None
    padding = "x" * cache_records.MAX_RECORD_BYTES
    big = DomainRating.model_validate({"domain": "stripe.com", "dr": 91, "padding": padding})
    assert shared.put(*read, cache_records.Record(value=big), token=fill.token)
    assert raw.keys(cache_records.KEY_PREFIX + ":*") == []  # neither the record nor the claim


def test_a_real_402_gate_is_still_shared_with_the_services_own_link(
    redis_on: RedisServer, conn: Connection, live_env: SandboxServer
) -> None:
    live_env.state.add_fault("ai_visibility", "402-gate")
    with pytest.raises(errors.PaymentRequiredError) as first:
        data.ai_visibility(conn, SLUG)
    assert (first.value.upgrade_url or "").startswith(live_env.base_url + "/")
    spent = live_env.state.total_requests()
    data.clear_caches()  # another replica
    with pytest.raises(type(first.value)) as second:
        data.ai_visibility(conn, SLUG)
    assert vars(second.value) == vars(first.value)
    assert live_env.state.total_requests() == spent


#: Another replica's write: drops the tracked keywords entry and announces it, then exits.
ANNOUNCE = """
import sys
from components.core.cache.redis_cache import SharedCache
cache = SharedCache(sys.argv[1])
cache.delete(sys.argv[2], sys.argv[3], "tracked_keywords", (sys.argv[4],))
cache.close()
"""

#: Notes no version of the app sends: lists where strings go, nested lists, wrong types, no JSON.
MALFORMED_ENTRY_NOTES: list[bytes] = [
    json.dumps(["someone", "b", "f", "tracked_keywords", [["a", "list"]]]).encode(),
    json.dumps(["someone", ["b"], {"f": 1}, 7, [{"a": 1}]]).encode(),
    json.dumps([1, 2, 3, 4, 5]).encode(),
    json.dumps(["just", "three", "items"]).encode(),
    json.dumps({"not": "a list"}).encode(),
    b"null",
    b"\xff\xfe not utf-8",
    b"[" * 100_000,
    json.dumps(["someone", "b", "f", "op", ["x" * 2_000_000]]).encode(),
]
MALFORMED_HISTORY_NOTES: list[bytes] = [
    json.dumps([["a"], ["b"]]).encode(),
    json.dumps(["someone", {"account": ["x"]}]).encode(),
    b"42",
    b"\x00",
]


def test_after_malformed_announcements_a_write_on_another_replica_is_still_seen_here(
    redis_on: RedisServer, conn: Connection, live_env: SandboxServer
) -> None:
    shared = shared_cache.current(data._forget_here)  # its listener, as the data layer starts it
    assert shared is not None and shared.listening.wait(30)
    data.tracked_keywords(conn, SLUG)  # this replica's copy
    key = (conn.base_url, conn.fingerprint, "tracked_keywords", (SLUG,))
    raw = redis_on.client()
    for note in MALFORMED_ENTRY_NOTES:
        raw.publish(announcements.ENTRY_CHANNEL, note)
    for note in MALFORMED_HISTORY_NOTES:
        raw.publish(announcements.HISTORY_CHANNEL, note)
    raw.close()
    assert until(lambda: not data._ledger().holds(key))  # a note it cannot read drops every copy

    command = [sys.executable, "-c", ANNOUNCE, redis_on.url, conn.base_url, conn.fingerprint, SLUG]

    def a_write_elsewhere_drops_the_copy_here() -> bool:
        data.tracked_keywords(conn, SLUG)  # re-read (a later malformed note may drop it too: then again)
        subprocess.run(command, check=True, timeout=60, cwd=ROOT)
        return until(lambda: not data._ledger().holds(key), within_s=5)

    assert until(a_write_elsewhere_drops_the_copy_here, within_s=60)


class _FailsOnce(redis.Redis):
    """A real Redis connection whose first subscription breaks with an error nobody planned for."""

    broke = 0

    def pubsub(self, **kwargs: Any) -> Any:
        if not self.broke:
            self.broke += 1
            raise RuntimeError("an unexpected failure inside the listener")
        return super().pubsub(**kwargs)


def test_a_listener_that_dies_is_started_again_and_says_so_once(
    redis_server: RedisServer, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger=announcements.__name__)
    heard: list[Any] = []
    connection = _FailsOnce.from_url(redis_server.url, socket_timeout=0.25)
    listener = announcements.Listener(
        connection, "this-process", available=lambda: True, failed=lambda exc, doing: None, idle_s=0.1
    )
    listener.hear(heard.append)
    raw = redis_server.client()
    note = announcements.entry_note("another-process", ("https://x", "f", "tracked_keywords", ("s",)))
    try:
        entry = ("https://x", "f", "tracked_keywords", ("s",))
        assert until(lambda: bool(raw.publish(announcements.ENTRY_CHANNEL, note)) and entry in heard)
        said = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
        assert len(said) == 1 and "started again" in said[0]
    finally:
        listener.close()
        raw.close()
        connection.close()
