"""Fixtures of the deployment tests: two app processes (replicas) in Live mode against the session sandbox,
sharing one PostgreSQL history database, one Redis cache and one cookie secret, nginx in front of them as
``deploy/`` configures it, and one headless Chromium. Everything listens on free 127.0.0.1 ports and
writes under the test's own temporary folders, so two workers can run these tests side by side.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from rigs.deployment import NGINX, Front, RedisServer, Replica, nginx_front, redis_server, started_replicas
from rigs.postgres import running_postgres
from sandbox import SandboxServer


@pytest.fixture(scope="module")
def history_url() -> Iterator[str]:
    """One history database for every replica: PostgreSQL, as a deployment shares it (a real server the
    test starts on 127.0.0.1; SQLite is for a single process)."""
    try:
        with running_postgres() as server:
            yield server.create_database("deployment_history")
    except RuntimeError as exc:
        pytest.fail(str(exc), pytrace=False)


@pytest.fixture(scope="module")
def shared_redis(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    """One redis-server for the module's replicas, run with the shipped config and a password as a
    deployment runs it (a test may stop it: an outage)."""
    with redis_server(tmp_path_factory.mktemp("redis"), shipped=True) as server:
        yield server


@pytest.fixture(scope="module")
def replicas(
    sandbox: SandboxServer,
    history_url: str,
    shared_redis: RedisServer,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[list[Replica]]:
    folder = tmp_path_factory.mktemp("replicas")
    env = {"DASHBOARD_REDIS_URL": shared_redis.url}
    with started_replicas(sandbox.base_url, history_url, folder, env=env) as started:
        yield started


@pytest.fixture(scope="module")
def front(replicas: list[Replica], tmp_path_factory: pytest.TempPathFactory) -> Iterator[Front]:
    """nginx in front of the replicas, as deploy/nginx/authority-dashboard.conf configures it."""
    if not os.path.exists(NGINX):
        pytest.fail(f"The deployment tests need Debian's nginx at {NGINX}: apt-get install -y nginx-light")
    ports = [replica.port for replica in replicas]
    with nginx_front(tmp_path_factory.mktemp("nginx"), ports) as running:
        yield running
