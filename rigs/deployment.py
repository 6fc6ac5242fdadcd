"""A deployment as ``deploy/`` runs it, on loopback, for the deployment tests and the load benchmark:
Debian's redis-server, two or more app processes sharing one history database, one cookie secret and
that Redis cache, and nginx in front of them with the shipped site config.

**Redis.** ``RedisServer`` runs ``redis-server`` on a free 127.0.0.1 port with nothing persisted; a test
stops it to play an outage and starts it again on the same port to play its return. A deployment's
(``shipped=True``) runs ``deploy/redis/authority-dashboard.conf`` with a fresh password put in.

**Replicas.** ``started_replicas`` runs ``streamlit run app.py`` in Live mode against one sandbox, as
deploy/systemd runs them from one env file: the shared settings are given to each process, never set in
the caller's environment.

**nginx.** ``nginx_front`` serves ``deploy/nginx/authority-dashboard.conf`` as it ships, with the run's
ports and folders put in and wrapped in a small main config of its own (pid, logs and temporary files in
the run's folder). Only three lines change (the upstream servers, ``listen`` and the access log path);
rendering fails loudly when one of them is not found, so nothing ever checks a config other than the one
that ships. The access log says which app process served each request and under which route cookie:
that is how the tests see sessions stick.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import shutil
import subprocess
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import redis

from rigs.processes import ROOT, AppProcess, app_process, free_port, serving, stop_process
from sandbox import DEMO_KEY

SITE_CONFIG = ROOT / "deploy" / "nginx" / "authority-dashboard.conf"
#: Debian's nginx (``nginx`` or ``nginx-light``); ``.ci/run`` installs it when it is missing.
NGINX = "/usr/sbin/nginx"
REDIS_SERVER = shutil.which("redis-server") or "/usr/sbin/redis-server"
REDIS_CONFIG = ROOT / "deploy" / "redis" / "authority-dashboard.conf"
REQUIREPASS = re.compile(r"^requirepass \S+$", re.MULTILINE)
UPSTREAM_SERVERS = re.compile(r"^(\s*)server 127\.0\.0\.1:\d+( [^;]*)?;\n", re.MULTILINE)
LISTEN = re.compile(r"^(\s*)listen 80;$", re.MULTILINE)
ACCESS_LOG = re.compile(r"^(\s*)access_log /var/log/nginx/(\S+) adash_upstream;$", re.MULTILINE)
LOG_LINE = re.compile(
    r'"(?P<method>\S+) (?P<path>\S+) [^"]*" (?P<status>\d+) upstream=(?P<upstream>.+?) route=(?P<route>\S+)'
)


class RedisServer:
    """One redis-server process; ``url`` stays the same across ``stop()`` and ``start()``.

    With ``password``, it runs the shipped ``deploy/redis/authority-dashboard.conf`` with that password
    put in (its one ``requirepass`` line; rendering fails loudly when it is not found), and ``url`` and
    ``client()`` carry the password, as the env file gives it to the app."""

    def __init__(self, workdir: Path, port: int | None = None, *, password: str | None = None) -> None:
        self.port = port or free_port()
        self.password = password
        credentials = f":{password}@" if password else ""
        self.url = f"redis://{credentials}127.0.0.1:{self.port}/0"
        self.workdir = workdir
        self._process: subprocess.Popen[bytes] | None = None

    @property
    def running(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def start(self, timeout_s: float = 10.0) -> RedisServer:
        if self.running:
            return self
        self.workdir.mkdir(parents=True, exist_ok=True)
        command = [REDIS_SERVER]
        if self.password:
            command.append(str(render_redis_config(self.workdir, self.password)))
        # Given after the config file, these win over its lines: this run's port and folder.
        command += ["--port", str(self.port), "--bind", "127.0.0.1", "--save", ""]
        command += ["--appendonly", "no", "--dir", str(self.workdir), "--daemonize", "no"]
        log = (self.workdir / "redis.log").open("ab")
        self._process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        log.close()
        deadline = time.monotonic() + timeout_s
        probe = self.client(timeout_s=0.5)
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
        stop_process(self._process, timeout=5)
        self._process = None

    def client(self, timeout_s: float = 2) -> redis.Redis:
        """A plain client to look at what is stored (raw bytes, no decoding)."""
        return redis.Redis(
            host="127.0.0.1",
            port=self.port,
            password=self.password,
            socket_timeout=timeout_s,
            socket_connect_timeout=timeout_s,
        )


def render_redis_config(folder: Path, password: str) -> Path:
    """``deploy/redis/authority-dashboard.conf`` as it ships, with ``password`` as its requirepass."""
    shipped = REDIS_CONFIG.read_text()
    rendered, found = REQUIREPASS.subn(f"requirepass {password}", shipped)
    if found != 1:
        raise RuntimeError(f"{REDIS_CONFIG.name} has no single requirepass line to put the password in")
    path = folder / "redis.conf"
    path.write_text(rendered)
    path.chmod(0o600)
    return path


@contextlib.contextmanager
def redis_server(workdir: Path, *, shipped: bool = False) -> Iterator[RedisServer]:
    """A started ``RedisServer`` for the block, stopped when it ends; ``shipped``: with the shipped
    config and a fresh random password, as a deployment runs it."""
    server = RedisServer(workdir, password=secrets.token_hex(16) if shipped else None).start()
    try:
        yield server
    finally:
        server.stop()


@dataclass(frozen=True)
class Replica:
    """One app process: its address, its ``127.0.0.1:PORT`` as nginx names it, and its log."""

    url: str
    log: Path
    app: AppProcess

    @property
    def upstream(self) -> str:
        return self.url.removeprefix("http://")

    @property
    def port(self) -> int:
        return int(self.upstream.rsplit(":", 1)[1])

    def stop(self) -> None:
        """End the process (as a crash or a restart would); the block's end then has nothing to do."""
        self.app.proc.terminate()
        self.app.proc.wait(timeout=20)


@contextlib.contextmanager
def started_replicas(
    api_base: str,
    history_url: str,
    folder: Path,
    count: int = 2,
    env: Mapping[str, str] | None = None,
    extra: list[str] | None = None,
) -> Iterator[list[Replica]]:
    """``count`` app processes against the sandbox at ``api_base``, sharing the history database, one
    Streamlit cookie secret and ``env`` (e.g. a Redis URL); ``extra`` are more ``streamlit run`` options."""
    # As deploy/systemd's env file sets it (Streamlit refuses this one on the command line).
    shared = {"STREAMLIT_SERVER_COOKIE_SECRET": secrets.token_urlsafe(24), **(env or {})}
    with contextlib.ExitStack() as stack:
        replicas = []
        for index in range(count):
            log = folder / f"replica-{index}.log"
            app = stack.enter_context(
                app_process(
                    api_base=api_base,
                    api_key=DEMO_KEY,
                    database_url=history_url,
                    log_path=log,
                    env=shared,
                    extra=extra,
                )
            )
            replicas.append(Replica(app.url, log, app))
        yield replicas


def render_site(app_ports: Sequence[int], listen_port: int, log_folder: Path) -> str:
    """The deployed site config with these app ports upstream, this loopback port, this log folder."""
    text = SITE_CONFIG.read_text()
    servers = list(UPSTREAM_SERVERS.finditer(text))
    if len(servers) < 2:
        raise AssertionError("the nginx config lists fewer than two app processes upstream")
    indent, options = servers[0].group(1), servers[0].group(2) or ""
    lines = "".join(f"{indent}server 127.0.0.1:{port}{options};\n" for port in app_ports)
    text = text[: servers[0].start()] + lines + text[servers[-1].end() :]
    text, listens = LISTEN.subn(rf"\g<1>listen 127.0.0.1:{listen_port};", text)
    text, logs = ACCESS_LOG.subn(rf"\g<1>access_log {log_folder}/\g<2> adash_upstream;", text)
    if (listens, logs) != (1, 1):
        raise AssertionError(f"the nginx config changed shape: {listens} listen, {logs} access_log lines")
    return text


def render_main(prefix: Path, site: Path) -> str:
    """A main config around ``site``: everything nginx writes goes under ``prefix``."""
    temp = "\n".join(
        f"    {kind}_temp_path {prefix / 'temp' / kind};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    # As root, nginx would run its workers as "nobody", who cannot read the run's folders.
    user = "user root root;\n" if os.geteuid() == 0 else ""
    return (
        f"{user}worker_processes 1;\npid {prefix / 'nginx.pid'};\nerror_log {prefix / 'error.log'} warn;\n"
        "daemon off;\nevents { worker_connections 512; }\n"
        f"http {{\n{temp}\n    include {site};\n}}\n"
    )


@dataclass(frozen=True)
class RenderedConfig:
    prefix: Path
    main: Path
    access_log: Path


def render(folder: Path, app_ports: Sequence[int], listen_port: int) -> RenderedConfig:
    """Write the site and main configs under ``folder`` (nginx's prefix)."""
    (folder / "temp").mkdir(parents=True, exist_ok=True)
    logs = folder / "logs"
    logs.mkdir(exist_ok=True)
    site = folder / "authority-dashboard.conf"
    site.write_text(render_site(app_ports, listen_port, logs))
    main = folder / "nginx.conf"
    main.write_text(render_main(folder, site))
    log_name = ACCESS_LOG.search(SITE_CONFIG.read_text())
    assert log_name is not None
    return RenderedConfig(folder, main, logs / log_name.group(2))


def nginx_command(config: RenderedConfig, *extra: str) -> list[str]:
    return [NGINX, "-e", "stderr", "-p", str(config.prefix), "-c", str(config.main), *extra]


@dataclass(frozen=True)
class Route:
    """One request nginx passed on: which app process served it, under which route cookie.

    ``upstream`` lists every process nginx tried, in order ("127.0.0.1:8501, 127.0.0.1:8502" when the
    first refused); ``served_by`` is the one that answered."""

    method: str
    path: str
    status: int
    upstream: str
    route: str

    @property
    def served_by(self) -> str:
        return self.upstream.split(", ")[-1]


@dataclass(frozen=True)
class Front:
    url: str
    config: RenderedConfig

    def routes(self) -> list[Route]:
        """Every request logged so far (a WebSocket is logged when it closes)."""
        if not self.config.access_log.exists():
            return []
        found = (LOG_LINE.search(line) for line in self.config.access_log.read_text().splitlines())
        return [
            Route(m["method"], m["path"], int(m["status"]), m["upstream"], m["route"]) for m in found if m
        ]


@contextlib.contextmanager
def nginx_front(folder: Path, app_ports: Sequence[int]) -> Iterator[Front]:
    """nginx on a free loopback port in front of ``app_ports``, stopped when the block ends."""
    port = free_port()
    config = render(folder, app_ports, port)
    proc = subprocess.Popen(nginx_command(config), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    with serving(proc, f"{url}/_stcore/health", within_s=15, name="nginx"):
        yield Front(url, config)
