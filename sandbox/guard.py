"""The checks every /api/v1 operation passes through, in the service's order.

auth (401) → rate limit (429) → injected fault → quota (402 when spent) → the operation. Keeping
the order in one place means every route rejects a request for the same reason the real service
would, and every answer to a known key (errors included) carries the quota headers.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response

from client.errors import InvalidInputError
from client.models import ApiModel
from sandbox.accounts import ACCOUNTS, Account, bearer_token
from sandbox.config import SandboxConfig
from sandbox.faults import (
    HOSTILE_TIER,
    NON_JSON_BODY,
    TIMEOUT_FAULT_S,
    DroppedResponse,
    Fault,
    bad_types_body,
    hostile,
    nullify,
    problem_for,
)
from sandbox.problems import ApiProblem, bad_request, quota_used_up, rate_limited, unauthorized
from sandbox.state import SandboxState


@dataclass(frozen=True)
class Answer:
    """A successful answer: the resource model and the top-level key it goes under (None: spread)."""

    model: ApiModel
    key: str | None = None
    status: int = 200

    def body(self) -> dict:
        data = self.model.to_json_dict()
        if self.key is None:
            return {"ok": True, **data}
        return {"ok": True, self.key: data}


@dataclass(frozen=True)
class Call:
    """One authenticated request, with what a handler needs to answer it."""

    request: Request
    account: Account
    state: SandboxState
    config: SandboxConfig
    base_url: str

    def spend_quota(self) -> None:
        """Spend one quota unit, or answer 402 if another request took the last one meanwhile."""
        if not self.state.spend_quota(self.account.key, self.config.quota):
            raise quota_used_up(self.config.quota)


Handler = Callable[[Call], Awaitable[Answer]]


def base_url_of(request: Request) -> str:
    """The service root as the caller reached it, for links that must work from the caller's side."""
    return str(request.base_url).rstrip("/")


def sandbox_of(request: Request) -> tuple[SandboxState, SandboxConfig]:
    return request.app.state.sandbox, request.app.state.config


def account_of(request: Request) -> Account | None:
    key = bearer_token(request.headers.get("authorization"))
    return ACCOUNTS.get(key) if key is not None else None


def quota_headers(state: SandboxState, config: SandboxConfig, account: Account) -> dict[str, str]:
    return {
        "X-API-Quota-Limit": str(config.quota),
        "X-API-Quota-Remaining": str(state.quota_remaining(account.key, config.quota)),
        "X-API-Tier": account.tier,
    }


def error_response(problem: ApiProblem) -> JSONResponse:
    return JSONResponse(problem.json_body(), status_code=problem.status, headers=problem.headers())


def _auth_problem(request: Request) -> ApiProblem:
    header = request.headers.get("authorization")
    if not header:
        return unauthorized("Missing API key. Send the header Authorization: Bearer <API_KEY>.")
    if bearer_token(header) is None:
        return unauthorized("Malformed Authorization header. Use Authorization: Bearer <API_KEY>.")
    return unauthorized("Invalid API key.")


async def _fault_answer(fault: Fault, operation: str, call: Call) -> Response | None:
    """The answer a fault replaces the operation's with, or None to go on with the operation."""
    problem = problem_for(fault, base_url=call.base_url, quota=call.config.quota)
    if problem is not None:
        raise problem
    if fault.fault == "nonjson":
        return HTMLResponse(NON_JSON_BODY)
    if fault.fault == "badtypes":
        return JSONResponse(bad_types_body(operation))
    if fault.fault == "timeout":
        return await _hold_back(call)
    if fault.fault == "drop":
        return DroppedResponse()
    return None


async def _hold_back(call: Call) -> Response | None:
    """Answer nothing for ``TIMEOUT_FAULT_S``, asynchronously, so everyone else is still served.

    The wait ends early when the caller hangs up (as a real server would notice) or the sandbox is
    stopping, so a test that provoked a client timeout leaves no 60-second task behind.
    """
    closing = call.request.app.state.closing
    deadline = asyncio.get_running_loop().time() + TIMEOUT_FAULT_S
    while asyncio.get_running_loop().time() < deadline:
        if closing.is_set() or await call.request.is_disconnected():
            return Response(status_code=503)
        await asyncio.sleep(0.05)
    return None


async def handle(
    request: Request, operation: str, handler: Handler, *, spends_quota: bool = False
) -> Response:
    """Run one operation through the checks and turn its answer or problem into a response."""
    state, config = sandbox_of(request)
    account = account_of(request)
    if account is None:
        return error_response(_auth_problem(request))
    call = Call(request, account, state, config, base_url_of(request))
    fault: Fault | None = None
    try:
        wait = state.take_token(account.key, config.rate_limit)
        if wait is not None:
            raise rate_limited(wait)
        fault = state.take_fault(operation, account.key)
        early = await _fault_answer(fault, operation, call) if fault is not None else None
        if early is not None:
            response: Response = early
        else:
            if spends_quota and state.quota_remaining(account.key, config.quota) <= 0:
                raise quota_used_up(config.quota)
            answer = await handler(call)
            if fault is not None and fault.fault == "nulls":
                answer = replace(answer, model=nullify(answer.model))
            body = answer.body()
            if fault is not None and fault.fault == "hostile":
                body = hostile(body)
            response = JSONResponse(body, status_code=answer.status)
    except InvalidInputError as exc:
        response = error_response(bad_request(exc.message))
    except ApiProblem as problem:
        response = error_response(problem)
    response.headers.update(quota_headers(state, config, account))
    if fault is not None and fault.fault == "hostile":
        response.headers["X-API-Tier"] = HOSTILE_TIER
    return response
