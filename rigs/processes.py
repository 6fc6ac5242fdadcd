"""The sandbox and the app in processes of their own, and what starting and stopping them takes.

Everything listens on 127.0.0.1 only. Processes are started with free ports and stopped when their
block ends, so a run (a test's or a benchmark's) leaves nothing behind.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DEMO_KEY = "vdr_demo"
#: Where the app keeps its history (the store's setting; see store/config.py).
DATABASE_ENV = "DASHBOARD_DATABASE_URL"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def http_json(url: str, method: str = "GET", body: Any = None, timeout: float = 10) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        url, data=data, method=method, headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=timeout) as response:
        return json.loads(response.read() or b"null")


def rss_mb(pid: int) -> float:
    """Resident memory of a process in MiB, from /proc (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for {pid}")


def wait_until_ready(proc: subprocess.Popen[Any], url: str, *, within_s: float, name: str) -> None:
    """Poll ``url`` until it answers 200 (a server's health or discovery page): RuntimeError when
    ``proc`` exits first (with what it wrote to a piped stderr), the last OSError after ``within_s``."""
    deadline = time.monotonic() + within_s
    while True:
        if proc.poll() is not None:
            said = proc.stderr.read() if proc.stderr else ""
            said = said.decode(errors="replace") if isinstance(said, bytes) else said
            raise RuntimeError(f"{name} exited during start-up{': ' + said.strip() if said else ''}")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def stop_process(proc: subprocess.Popen[Any], timeout: float = 10) -> None:
    """Terminate ``proc`` (if still running), killing it when it does not stop within ``timeout``."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=timeout)


@contextlib.contextmanager
def serving(proc: subprocess.Popen[Any], health_url: str, *, within_s: float, name: str) -> Iterator[None]:
    """While the block runs, ``proc`` serving (its ``health_url`` answered 200 within ``within_s``);
    stopped when the block ends, whether it started or not."""
    try:
        wait_until_ready(proc, health_url, within_s=within_s, name=name)
        yield
    finally:
        stop_process(proc)


@dataclass
class SandboxProcess:
    proc: subprocess.Popen[str]
    base_url: str

    def stats(self) -> dict[str, Any]:
        return http_json(f"{self.base_url}/_sandbox/stats")

    def counts(self) -> dict[tuple[str, str, str], int]:
        return {(r["method"], r["path"], r["query"]): r["count"] for r in self.stats()["requests"]}

    def total(self) -> int:
        return int(self.stats()["total"])

    def reset(self) -> None:
        http_json(f"{self.base_url}/_sandbox/reset", method="POST")


@contextlib.contextmanager
def sandbox_process(
    *, latency_ms: float = 0, rate_limit: float | None = None, quota: int = 100_000
) -> Iterator[SandboxProcess]:
    """``python -m sandbox`` on a free loopback port, stopped when the block ends."""
    args = [sys.executable, "-m", "sandbox", "--host", "127.0.0.1", "--port", str(free_port())]
    args += ["--latency-ms", str(latency_ms), "--quota", str(quota)]
    if rate_limit:
        args += ["--rate-limit", str(rate_limit)]
    proc = subprocess.Popen(args, cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        if "ready at" not in line:
            raise RuntimeError(f"sandbox did not start: {line!r}")
        yield SandboxProcess(proc, line.split("ready at ")[1].split()[0])
    finally:
        stop_process(proc)


@dataclass
class AppProcess:
    proc: subprocess.Popen[bytes]
    url: str

    @property
    def pid(self) -> int:
        return self.proc.pid

    def rss_mb(self) -> float:
        return rss_mb(self.proc.pid)


@contextlib.contextmanager
def app_process(
    script: str = "app.py",
    *,
    api_base: str | None = None,
    api_key: str | None = DEMO_KEY,
    extra: list[str] | None = None,
    log_path: Path | None = None,
    database_url: str | None = None,
    env: Mapping[str, str] | None = None,
) -> Iterator[AppProcess]:
    """``streamlit run`` on a free loopback port; ``api_base`` set → Live mode against that sandbox with
    ``api_key``; not set → Sandbox mode (no key reaches the app: with a key and no base it would ask the
    real service, and a test or benchmark sends traffic only to this machine).

    Its output goes to ``log_path`` when given (a test reads it), else nowhere. Its history database
    is ``database_url``, else the caller's ``DASHBOARD_DATABASE_URL``, else a new SQLite file in a
    temporary folder removed when the app stops: a benchmark never writes into the repository's data/.
    ``env`` adds settings of its own (a Redis URL, a cookie secret) on top of the caller's environment.
    """
    port = free_port()
    process_env = {**os.environ, **(env or {}), "VERIFIEDDR_API_KEY": (api_key or "") if api_base else ""}
    process_env.pop("VERIFIEDDR_API_BASE", None)
    if api_base:
        process_env["VERIFIEDDR_API_BASE"] = api_base
    with contextlib.ExitStack() as history_folder:
        if database_url:
            process_env[DATABASE_ENV] = database_url
        elif not process_env.get(DATABASE_ENV):
            folder = Path(history_folder.enter_context(tempfile.TemporaryDirectory(prefix="bench-history-")))
            process_env[DATABASE_ENV] = f"sqlite:///{folder / 'history.sqlite3'}"
        yield from _served(script, process_env, port, extra, log_path)


def _served(
    script: str, env: dict[str, str], port: int, extra: list[str] | None, log_path: Path | None
) -> Iterator[AppProcess]:
    args = [sys.executable, "-m", "streamlit", "run", script, "--server.headless", "true"]
    args += [
        "--server.address",
        "127.0.0.1",
        "--server.port",
        str(port),
        "--browser.gatherUsageStats",
        "false",
    ]
    args += ["--server.fileWatcherType", "none", *(extra or [])]
    with contextlib.ExitStack() as stack:
        log = stack.enter_context(log_path.open("wb")) if log_path else subprocess.DEVNULL
        proc = subprocess.Popen(args, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    with serving(proc, f"{url}/_stcore/health", within_s=60, name="streamlit"):
        yield AppProcess(proc, url)
