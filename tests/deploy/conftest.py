"""Fixtures of the deployment tests: two app processes (replicas) in Live mode against the session sandbox,
sharing one history database, one Redis cache and one cookie secret, nginx in front of them as
``deploy/`` configures it, and one headless Chromium. Everything listens on free 127.0.0.1 ports and
writes under the test's own temporary folders, so two workers can run these tests side by side.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from sandbox import SandboxServer
from tests.deploy.front import NGINX, Front, nginx_front
from tests.deploy.replicas import Replica, started_replicas
from tests.redis_server import RedisServer


@pytest.fixture(scope="module")
def history_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    """One history database for every replica (an SQLite file here; PostgreSQL in a deployment)."""
    return f"sqlite:///{tmp_path_factory.mktemp('history') / 'history.sqlite3'}"


@pytest.fixture(scope="module")
def shared_redis(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    """One redis-server for the module's replicas (a test may stop it: an outage)."""
    server = RedisServer(tmp_path_factory.mktemp("redis")).start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def replicas(
    sandbox: SandboxServer,
    history_url: str,
    shared_redis: RedisServer,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[list[Replica]]:
    folder = tmp_path_factory.mktemp("replicas")
    env = {"DASHBOARD_REDIS_URL": shared_redis.url}
    with started_replicas(sandbox, history_url, folder, env=env) as started:
        yield started


@pytest.fixture(scope="module")
def front(replicas: list[Replica], tmp_path_factory: pytest.TempPathFactory) -> Iterator[Front]:
    """nginx in front of the replicas, as deploy/nginx/authority-dashboard.conf configures it."""
    if not os.path.exists(NGINX):
        pytest.fail(f"The deployment tests need Debian's nginx at {NGINX}: apt-get install -y nginx-light")
    ports = [int(replica.upstream.rsplit(":", 1)[1]) for replica in replicas]
    with nginx_front(tmp_path_factory.mktemp("nginx"), ports) as running:
        yield running
