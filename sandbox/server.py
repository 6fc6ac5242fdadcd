"""Run a sandbox on a real loopback socket, in a background thread.

Tests and the app's demo mode need a peer that speaks real HTTP (the client's transport, timeouts
and headers all take part), yet starts in well under a second and leaves nothing behind. The socket
is bound here, before uvicorn starts, so port 0 gives a free port whose number is known at once and
several sandboxes can run side by side in one process.
"""

from __future__ import annotations

import socket
import threading
import time
from typing import Self

import uvicorn
from starlette.applications import Starlette

from sandbox.app import create_app
from sandbox.config import SandboxConfig
from sandbox.state import SandboxState

__all__ = ["SandboxConfig", "SandboxServer"]

#: How long start() waits for uvicorn to accept connections before giving up.
START_TIMEOUT_S = 10.0
#: After this long, stop() stops waiting for in-flight answers (e.g. an injected 60 s "timeout").
GRACEFUL_STOP_S = 1


class SandboxServer:
    """A sandbox on ``host:port`` (port 0: any free port), run by uvicorn in a daemon thread."""

    def __init__(self, config: SandboxConfig | None = None, host: str = "127.0.0.1", port: int = 0) -> None:
        self.config = config or SandboxConfig()
        self.host = host
        self.state = SandboxState()
        self._requested_port = port
        self._socket: socket.socket | None = None
        self._port: int | None = None
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None
        self._app: Starlette | None = None

    @property
    def port(self) -> int:
        if self._port is None:
            raise RuntimeError("The sandbox is not started.")
        return self._port

    @property
    def base_url(self) -> str:
        """The service root (``VERIFIEDDR_API_BASE``), without ``/api/v1``."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    def _bind(self) -> socket.socket:
        family = socket.AF_INET6 if ":" in self.host else socket.AF_INET
        # IPPROTO_TCP explicitly: asyncio only sets TCP_NODELAY on accepted sockets whose proto says
        # TCP, and without it every answer (headers and body are two writes) waits ~40 ms for an ACK.
        sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind((self.host, self._requested_port))
            sock.listen(128)
        except OSError:
            sock.close()
            raise
        return sock

    def start(self) -> Self:
        """Start serving; returns once connections are accepted."""
        if self._thread is not None:
            raise RuntimeError("The sandbox is already started.")
        self._socket = self._bind()
        self._port = self._socket.getsockname()[1]
        self._app = create_app(self.config, self.state)
        uv_config = uvicorn.Config(
            self._app,
            log_level="warning",
            access_log=False,
            lifespan="off",
            timeout_graceful_shutdown=GRACEFUL_STOP_S,
        )
        self._server = uvicorn.Server(uv_config)
        self._thread = threading.Thread(
            target=self._server.run,
            kwargs={"sockets": [self._socket]},
            name=f"sandbox-{self.port}",
            daemon=True,
        )
        self._thread.start()
        deadline = time.monotonic() + START_TIMEOUT_S
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("The sandbox server did not start.")
            time.sleep(0.005)
        return self

    def stop(self) -> None:
        """Stop serving and wait for the thread; safe to call twice."""
        server, thread = self._server, self._thread
        if self._app is not None:
            self._app.state.closing.set()
        if server is not None and thread is not None:
            server.should_exit = True
            thread.join(timeout=GRACEFUL_STOP_S + 2)
            if thread.is_alive():
                server.force_exit = True
                thread.join(timeout=5)
        if self._socket is not None:
            self._socket.close()
            self._socket = None
        self._server = None
        self._thread = None

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def __repr__(self) -> str:
        where = self.base_url if self._thread is not None else "stopped"
        return f"SandboxServer({where})"
