"""The shipped Redis config (deploy/redis/authority-dashboard.conf) keeps the shared cache to the app: a
real redis-server started with it refuses every command without the password, and the env file every
app process reads gives the app the password in its Redis URL.

Why it matters: every replica trusts what it finds in the shared cache, and without a password any
process or container on the host that reaches the port could write records or publish notes there.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import redis

from bench.deployment import REDIS_CONFIG, ROOT, redis_server
from components.core.cache import redis_cache

ENV_EXAMPLE = ROOT / "deploy" / "systemd" / "authority-dashboard.env.example"


def test_the_shipped_redis_config_refuses_anyone_without_the_password(tmp_path: Path) -> None:
    assert re.search(r"^requirepass \S+", REDIS_CONFIG.read_text(), re.MULTILINE)
    with redis_server(tmp_path, shipped=True) as server:
        password = urlsplit(server.url).password
        assert password
        stranger = redis.Redis(host="127.0.0.1", port=server.port, socket_timeout=2)
        with pytest.raises(redis.AuthenticationError):
            stranger.set("adash:v1:planted", "{}")
        with pytest.raises(redis.AuthenticationError):
            stranger.publish("adash:v1:invalidate", "[]")
        stranger.close()
        wrong = redis.Redis(host="127.0.0.1", port=server.port, password="guessed", socket_timeout=2)
        with pytest.raises(redis.AuthenticationError):
            wrong.ping()
        wrong.close()

        # The app, given the URL with the password, stores and reads its records.
        shared = redis_cache.SharedCache(server.url)
        try:
            assert shared.available()
            assert not shared.holds("https://verifieddr.com", "fp", "lookup", ("stripe.com",))
            assert shared.available()  # the command worked: no outage was noted
        finally:
            shared.close()
        assert server.client().ping()


def test_the_env_file_gives_the_app_a_redis_url_with_the_password() -> None:
    line = next(
        line for line in ENV_EXAMPLE.read_text().splitlines() if line.startswith("DASHBOARD_REDIS_URL=")
    )
    url = urlsplit(line.split("=", 1)[1])
    assert url.scheme == "redis" and url.hostname == "127.0.0.1" and url.password
    # The same placeholder as the shipped config's requirepass, so both are replaced together.
    placeholder = re.search(r"^requirepass (\S+)", REDIS_CONFIG.read_text(), re.MULTILINE)
    assert placeholder and url.password == placeholder.group(1)
