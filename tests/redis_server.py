"""Moved to bench/deployment.py (the load benchmark runs redis-server too); this name stays only until
every test imports ``RedisServer`` from there."""

from bench.deployment import RedisServer

__all__ = ["RedisServer"]
