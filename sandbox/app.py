"""The sandbox's ASGI app: the v1 routes, the public pages and the /_sandbox controls.

``create_app`` is separate from the server so tests can also mount the app in-process
(e.g. with ``httpx.ASGITransport``) and the server only has to run it.
"""

from __future__ import annotations

import asyncio
import threading
from urllib.parse import unquote

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.types import ASGIApp, Receive, Scope, Send

from sandbox.accounts import bearer_token
from sandbox.clock import pinned
from sandbox.config import SandboxConfig
from sandbox.control import control_routes
from sandbox.guard import account_of, quota_headers, sandbox_of
from sandbox.pages import page_routes
from sandbox.routes import API_PREFIX, api_routes
from sandbox.state import SandboxState


def _is_api(path: str) -> bool:
    return path == API_PREFIX or path.startswith(API_PREFIX + "/")


class ApiRecorder:
    """Counts every /api/v1 request (before any check can reject it) and adds the configured latency;
    every request (pages too) answers for the configured day, when one is set.

    Pure ASGI rather than ``BaseHTTPMiddleware``, so a long injected delay never ties up a thread
    and streaming stays untouched.
    """

    def __init__(self, app: ASGIApp, state: SandboxState, config: SandboxConfig) -> None:
        self.app = app
        self.state = state
        self.config = config

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and _is_api(scope["path"]):
            raw_path = scope.get("raw_path") or scope["path"].encode()
            headers = dict(scope.get("headers") or [])
            auth = headers.get(b"authorization", b"").decode("latin-1")
            self.state.record_request(
                scope["method"],
                raw_path.decode("latin-1"),
                scope.get("query_string", b"").decode("latin-1"),
                bearer_token(auth),
            )
            if self.config.latency_ms > 0:
                await asyncio.sleep(self.config.latency_ms / 1000)
        with pinned(self.config.today):
            await self.app(scope, receive, send)


async def _http_error(request: Request, exc: Exception) -> Response:
    """Unknown routes and methods answer JSON like every other error (with quota headers for a key)."""
    status = exc.status_code if isinstance(exc, HTTPException) else 500
    if status == 404:
        message = f"No such endpoint: {request.method} {unquote(request.url.path)}."
    elif status == 405:
        message = f"{request.method} is not allowed on {unquote(request.url.path)}."
    else:
        message = "Internal server error."
    response = JSONResponse({"error": message}, status_code=status)
    account = account_of(request)
    if account is not None and _is_api(request.url.path):
        state, config = sandbox_of(request)
        response.headers.update(quota_headers(state, config, account))
    return response


def create_app(config: SandboxConfig | None = None, state: SandboxState | None = None) -> Starlette:
    """A sandbox app; pass ``state`` to share or inspect it (a fresh one is made otherwise)."""
    config = config or SandboxConfig()
    state = state if state is not None else SandboxState()
    app = Starlette(
        routes=[*api_routes(), *page_routes(), *control_routes()],
        exception_handlers={HTTPException: _http_error, Exception: _http_error},
    )
    # "/api/v1/categories/" is not a v1 route: answer 404 JSON rather than redirecting.
    app.router.redirect_slashes = False
    app.state.sandbox = state
    app.state.config = config
    #: Set when the server is stopping, so deliberately slow answers give up at once.
    app.state.closing = threading.Event()
    app.add_middleware(ApiRecorder, state=state, config=config)
    return app
