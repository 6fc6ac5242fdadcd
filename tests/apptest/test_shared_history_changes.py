"""Several replicas sharing one history database and one Redis: a change of an account's history made
through one replica (a watch, an acknowledged alert) is seen by the others at once, not after the minute
each keeps its copy for.

The other replica is a real second Python process with the same database and Redis URLs; this process
plays the replica whose copy must go.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from pydantic import SecretStr

from bench.deployment import RedisServer
from components.core.cache import announcements, redis_cache, shared_cache
from components.core.cache.connection import Connection
from components.core.history import store as history
from sandbox import DEMO_KEY, SandboxServer
from store import HistoryStore
from tests.polling import until

ROOT = Path(__file__).resolve().parents[2]
RIVAL = "rival-replica.com"

#: The other replica: watches a domain for the account through the app's own code, then exits.
OTHER_REPLICA = """
import sys
from pydantic import SecretStr
from components.core.history import store as history
from components.core.cache.connection import Connection
conn = Connection("live", sys.argv[1], SecretStr(sys.argv[2]), "test", 5.0)
assert history.set_watched(conn, "domain", sys.argv[3], True)
"""


@pytest.fixture
def shared(
    own_store: HistoryStore, redis_server: RedisServer, monkeypatch: pytest.MonkeyPatch
) -> Iterator[RedisServer]:
    monkeypatch.setenv(shared_cache.ENV_VAR, redis_server.url)
    shared_cache.reset()
    yield redis_server
    shared_cache.reset()


def test_a_watch_through_another_replica_is_seen_here_at_once(
    shared: RedisServer, live_env: SandboxServer
) -> None:
    conn = Connection("live", live_env.base_url, SecretStr(DEMO_KEY), "test", 5.0)
    assert ("domain", RIVAL, "") not in history.watched(conn)  # this replica now trusts its copy for 30 s
    other = [sys.executable, "-c", OTHER_REPLICA, live_env.base_url, DEMO_KEY, RIVAL]
    subprocess.run(other, check=True, timeout=60, cwd=ROOT, env=dict(os.environ))
    assert until(lambda: ("domain", RIVAL, "") in history.watched(conn))


def test_the_history_pages_copy_of_an_account_is_dropped_when_another_replica_changes_it(
    shared: RedisServer,
) -> None:
    reads = iter(["before", "after"])
    assert history.cached_read("account-a", "open alerts", lambda: next(reads)) == "before"
    assert history.cached_read("account-a", "open alerts", lambda: next(reads)) == "before"  # kept
    other = redis_cache.SharedCache(shared.url)  # another process acknowledging an alert of account-a
    try:
        other.announce_history("account-a")
    finally:
        other.close()
    assert until(lambda: history.cached_read("account-a", "open alerts", lambda: next(reads)) == "after")


def test_copies_made_before_this_process_listened_are_dropped_once_it_listens(
    redis_server: RedisServer,
) -> None:
    """A replica reads before its listener is subscribed (the moment after start-up, or while Redis
    was away): another replica's announcement in that moment reaches nobody, so the copies go."""
    dropped_entries: list[object] = []
    dropped_histories: list[object] = []
    listener = announcements.Listener(
        redis_server.client(),
        "this-process",
        available=lambda: True,
        failed=lambda exc, doing: None,
        idle_s=0.1,
    )
    try:
        listener.hear(dropped_entries.append, dropped_histories.append)
        assert listener.listening.wait(30)
        assert dropped_entries == [None] and dropped_histories == [None]  # every copy, once
    finally:
        listener.close()


def test_a_note_that_cannot_be_read_drops_every_account_and_an_entry_note_round_trips() -> None:
    assert announcements.read_history_note(b"not json") == (None, None)
    assert announcements.read_history_note(b'["p1", "acct"]') == ("p1", "acct")
    entry = ("https://verifieddr.example", "fp", "dr", ("stripe.com",))
    assert announcements.read_entry_note(announcements.entry_note("p1", entry)) == ("p1", entry)
