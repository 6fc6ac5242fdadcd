"""What both route modules (``sandbox.routes``, ``sandbox.growth_routes``) need around their handlers.

The clock answers are stamped with, the JSON body reader, the 404 for an unlisted site, and the
wrappers that turn a handler into a Starlette endpoint running through ``sandbox.guard.handle``. One
copy of each means the score routes and the growth routes read bodies and refuse input alike.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from functools import partial
from typing import Any, Protocol

from starlette.requests import Request
from starlette.responses import Response

from sandbox.data import is_listed
from sandbox.guard import Answer, Call, Handler, handle
from sandbox.problems import not_found

#: What ``json_body`` gives for a body that is not JSON: not a dict, so each handler refuses it
#: with its own 400 message, as it does any other malformed body.
NOT_JSON = object()

Endpoint = Callable[[Request], Awaitable[Response]]


class BodyHandler(Protocol):
    """A handler of an operation that carries a JSON body, which it receives as ``body=``."""

    def __call__(self, call: Call, /, *, body: Any) -> Awaitable[Answer]: ...


def now() -> datetime:
    """The time written into answers (whole seconds, as the service sends them)."""
    return datetime.now(UTC).replace(microsecond=0)


def listed(domain: str) -> str:
    """The domain, or 404 when VerifiedDR does not list it (operations that need a listed site)."""
    if not is_listed(domain):
        raise not_found(f"{domain} is not a listed site on VerifiedDR. Submit it first.")
    return domain


async def json_body(request: Request) -> Any:
    """The parsed body, None when empty, ``NOT_JSON`` when it does not parse."""
    raw = await request.body()
    try:
        return json.loads(raw) if raw else None
    except (ValueError, UnicodeDecodeError):
        return NOT_JSON


def endpoint(operation: str, handler: Handler, *, spends_quota: bool = False) -> Endpoint:
    """The endpoint of one operation without a body."""

    async def run(request: Request) -> Response:
        return await handle(request, operation, handler, spends_quota=spends_quota)

    run.__name__ = operation
    return run


def body_endpoint(operation_of: Callable[[Any], str], handler: BodyHandler) -> Endpoint:
    """The endpoint of a request with a JSON body; ``operation_of(body)`` names the operation.

    Some POSTs carry two or three operations told apart by the body; naming each one lets faults
    and logs target it as the service does.
    """

    async def run(request: Request) -> Response:
        body = await json_body(request)
        return await handle(request, operation_of(body), partial(handler, body=body))

    return run


def with_body(operation: str, handler: BodyHandler) -> Endpoint:
    """The endpoint of one operation with a JSON body."""
    run = body_endpoint(lambda _body: operation, handler)
    run.__name__ = operation
    return run
