"""Out-of-process controls under /_sandbox: health, request stats, reset and fault injection.

Benchmarks and end-to-end tests drive a sandbox running in another process, so the same controls
the ``SandboxState`` methods offer in-process are exposed over HTTP. They need no API key and are
never counted as API requests; the sandbox only binds to loopback by default, which keeps them local.
"""

from __future__ import annotations

import json

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from sandbox.guard import sandbox_of


async def health(request: Request) -> Response:
    return JSONResponse({"ok": True})


async def stats(request: Request) -> Response:
    state, _ = sandbox_of(request)
    return JSONResponse({"ok": True, **state.stats()})


async def reset(request: Request) -> Response:
    state, _ = sandbox_of(request)
    state.reset()
    return JSONResponse({"ok": True})


async def add_fault(request: Request) -> Response:
    """Body: {operation, fault, key?, times?, retry_after?}; 400 with the reason when invalid."""
    state, _ = sandbox_of(request)
    try:
        body = json.loads(await request.body() or b"null")
    except (ValueError, UnicodeDecodeError):
        body = None
    if not isinstance(body, dict) or "operation" not in body or "fault" not in body:
        return JSONResponse({"error": "Send a JSON object with operation and fault."}, status_code=400)
    unknown = set(body) - {"operation", "fault", "key", "times", "retry_after", "retryAfter"}
    if unknown:
        return JSONResponse({"error": f"Unknown fields: {', '.join(sorted(unknown))}."}, status_code=400)
    try:
        fault = state.add_fault(
            body["operation"],
            body["fault"],
            key=body.get("key"),
            times=body.get("times"),
            retry_after=body.get("retry_after", body.get("retryAfter")),
        )
    except (TypeError, ValueError) as exc:
        return JSONResponse({"error": str(exc)}, status_code=400)
    return JSONResponse({"ok": True, "fault": fault.to_json()}, status_code=201)


async def list_faults(request: Request) -> Response:
    state, _ = sandbox_of(request)
    return JSONResponse({"ok": True, "faults": [f.to_json() for f in state.faults()]})


async def clear_faults(request: Request) -> Response:
    state, _ = sandbox_of(request)
    state.clear_faults()
    return JSONResponse({"ok": True})


def control_routes() -> list[Route]:
    return [
        Route("/_sandbox/health", health),
        Route("/_sandbox/stats", stats),
        Route("/_sandbox/reset", reset, methods=["POST"]),
        Route("/_sandbox/faults", list_faults),
        Route("/_sandbox/faults", add_fault, methods=["POST"]),
        Route("/_sandbox/faults", clear_faults, methods=["DELETE"]),
    ]
