"""A real Redis server on 127.0.0.1 for tests: Debian's ``redis-server`` on a free port, nothing persisted.

Tests of the shared cache level (and of several replicas sharing it) start one through the
``redis_server`` fixture (tests/conftest.py), stop it to play an outage, and start it again on the same
port to play its return.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from pathlib import Path

import redis

REDIS_SERVER = shutil.which("redis-server") or "/usr/sbin/redis-server"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class RedisServer:
    """One redis-server process; ``url`` stays the same across ``stop()`` and ``start()``."""

    def __init__(self, workdir: Path, port: int | None = None) -> None:
        self.port = port or free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.workdir = workdir
        self._process: subprocess.Popen[bytes] | None = None

    @property
    def running(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def start(self, timeout_s: float = 10.0) -> RedisServer:
        if self.running:
            return self
        self.workdir.mkdir(parents=True, exist_ok=True)
        command = [REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1", "--save", ""]
        command += ["--appendonly", "no", "--dir", str(self.workdir), "--daemonize", "no"]
        log = (self.workdir / "redis.log").open("ab")
        self._process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        log.close()
        deadline = time.monotonic() + timeout_s
        probe = redis.Redis(host="127.0.0.1", port=self.port, socket_timeout=0.5, socket_connect_timeout=0.5)
        try:
            while True:
                try:
                    if probe.ping():
                        return self
                except redis.RedisError:
                    if self._process.poll() is not None or time.monotonic() > deadline:
                        raise RuntimeError(f"redis-server did not start on port {self.port}") from None
                    time.sleep(0.02)
        finally:
            probe.close()

    def stop(self) -> None:
        if self._process is None:
            return
        self._process.terminate()
        try:
            self._process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait(timeout=5)
        self._process = None

    def client(self) -> redis.Redis:
        """A plain client for a test to look at what is stored (raw bytes, no decoding)."""
        return redis.Redis(host="127.0.0.1", port=self.port, socket_timeout=2)
