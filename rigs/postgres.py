"""A throw-away PostgreSQL server for the store tests and the benchmarks: initdb + pg_ctl in a temporary
folder on a free loopback port, stopped and removed at the end.

Debian's server binaries refuse to run as root, so under root they run as the ``postgres`` user (the
folder is handed to that user). Missing binaries are a failure that says what to install, not a skip:
PostgreSQL support that is never tested is not support.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import psycopg

INSTALL_HINT = (
    "PostgreSQL server binaries (initdb, pg_ctl) were not found on PATH nor under /usr/lib/postgresql/*/bin: "
    "install Debian's `postgresql` package (apt-get install -y postgresql); .ci/run installs it when missing"
)


def server_bin_dir() -> Path | None:
    found = shutil.which("pg_ctl")
    if found and shutil.which("initdb"):
        return Path(os.path.realpath(found)).parent
    candidates = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=lambda p: int(Path(p).parts[-3].split(".")[0])
    )
    return Path(candidates[-1]).parent if candidates else None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass(frozen=True)
class PostgresServer:
    port: int

    def url(self, database: str = "postgres") -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{database}"

    def create_database(self, name: str, template: str | None = None) -> str:
        """A new database, empty or a copy of ``template`` (a database nobody is connected to); its URL."""
        copy = f' TEMPLATE "{template}"' if template else ""
        with psycopg.connect(
            f"host=127.0.0.1 port={self.port} user=postgres dbname=postgres", autocommit=True
        ) as c:
            c.execute(f'CREATE DATABASE "{name}"{copy}')  # the names are the tests' own, never user input
        return self.url(name)


@contextlib.contextmanager
def running_postgres() -> Iterator[PostgresServer]:
    bin_dir = server_bin_dir()
    if bin_dir is None:
        raise RuntimeError(INSTALL_HINT)
    as_root = os.geteuid() == 0
    prefix = ["runuser", "-u", "postgres", "--"] if as_root else []
    folder = Path(tempfile.mkdtemp(prefix="history-pg-"))
    if as_root:
        shutil.chown(folder, "postgres", "postgres")
    port = _free_port()
    data, log = folder / "data", folder / "server.log"

    def run(*args: str) -> None:
        done = subprocess.run([*prefix, *args], capture_output=True, text=True, timeout=60)
        if done.returncode != 0:
            tail = (done.stderr or done.stdout)[-1500:]
            raise RuntimeError(f"{Path(args[0]).name} failed: {tail}")

    try:
        run(
            str(bin_dir / "initdb"),
            "-D",
            str(data),
            "-A",
            "trust",
            "-U",
            "postgres",
            "-E",
            "UTF8",
            "--locale=C",
            "--no-sync",
        )
        options = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off"
        run(
            str(bin_dir / "pg_ctl"), "-D", str(data), "-o", options, "-l", str(log), "-w", "-t", "30", "start"
        )
        server = PostgresServer(port)
        deadline = time.monotonic() + 20
        while True:
            try:
                with psycopg.connect(f"host=127.0.0.1 port={port} user=postgres dbname=postgres"):
                    break
            except psycopg.OperationalError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        yield server
    finally:
        with contextlib.suppress(Exception):
            _stop(data)
        shutil.rmtree(folder, ignore_errors=True)


def _stop(data: Path) -> None:
    """Immediate shutdown (SIGQUIT to the postmaster; the data is thrown away), waiting until it is gone."""
    pid_file = data / "postmaster.pid"
    if not pid_file.exists():
        return
    pid = int(pid_file.read_text().split()[0])
    os.kill(pid, signal.SIGQUIT)
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.05)
    os.kill(pid, signal.SIGKILL)
