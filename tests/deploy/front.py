"""nginx in front of the app processes, as ``deploy/nginx/authority-dashboard.conf`` configures it, run by a
test: the deployed file with the test's ports and folders put in, wrapped in a small main config of its
own (pid, logs and temporary files in the test's folder), served on a free loopback port.

The deployed file is used as it is except for three lines (the upstream servers, ``listen`` and the access
log path); rendering fails loudly when one of them is not found, so a test never checks a config other
than the one that ships. The access log says which app process served each request and under which route
cookie: that is how the tests see sessions stick.
"""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from bench.harness import free_port, stop_process, wait_until_ready

ROOT = Path(__file__).resolve().parents[2]
SITE_CONFIG = ROOT / "deploy" / "nginx" / "authority-dashboard.conf"
#: Debian's nginx (``nginx`` or ``nginx-light``); ``.ci/run`` installs it when it is missing.
NGINX = "/usr/sbin/nginx"
UPSTREAM_SERVERS = re.compile(r"^(\s*)server 127\.0\.0\.1:\d+( [^;]*)?;\n", re.MULTILINE)
LISTEN = re.compile(r"^(\s*)listen 80;$", re.MULTILINE)
ACCESS_LOG = re.compile(r"^(\s*)access_log /var/log/nginx/(\S+) adash_upstream;$", re.MULTILINE)
LOG_LINE = re.compile(
    r'"(?P<method>\S+) (?P<path>\S+) [^"]*" (?P<status>\d+) upstream=(?P<upstream>.+?) route=(?P<route>\S+)'
)


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
    # As root, nginx would run its workers as "nobody", who cannot read the test's folders.
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
    try:
        wait_until_ready(proc, f"{url}/_stcore/health", within_s=15, name="nginx")
        yield Front(url, config)
    finally:
        stop_process(proc)
