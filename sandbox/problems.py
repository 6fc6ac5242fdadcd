"""Error answers as exceptions, so a handler can stop at the first problem it finds.

Each becomes ``{"error": "<plain message>"}`` (plus the gate fields for a program gate) with the
status the spec gives for that condition.
"""

from __future__ import annotations

import math

from client.models import ErrorBody


class ApiProblem(Exception):
    """An error answer: status, plain message, optional gate fields and Retry-After seconds."""

    def __init__(
        self,
        status: int,
        message: str,
        *,
        upgrade_url: str | None = None,
        required_plan: str | None = None,
        blocked_feature: str | None = None,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.body = ErrorBody(
            error=message,
            upgrade_url=upgrade_url,
            required_plan=required_plan,
            blocked_feature=blocked_feature,
        )
        self.retry_after = retry_after

    def json_body(self) -> dict:
        """The body as sent: the gate fields appear only on a gate, never as nulls."""
        return {k: v for k, v in self.body.to_json_dict().items() if v is not None}

    def headers(self) -> dict[str, str]:
        if self.retry_after is None:
            return {}
        # Whole seconds, rounded up and at least 1: "Retry-After: 0" would invite a hot loop.
        return {"Retry-After": str(max(1, math.ceil(self.retry_after)))}


def bad_request(message: str) -> ApiProblem:
    return ApiProblem(400, message)


def unauthorized(message: str = "Invalid API key.") -> ApiProblem:
    return ApiProblem(401, message)


def not_found(message: str) -> ApiProblem:
    return ApiProblem(404, message)


def conflict(message: str) -> ApiProblem:
    return ApiProblem(409, message)


def program_gate(base_url: str) -> ApiProblem:
    """The 402 a key without a running growth program gets from GET /keywords."""
    return ApiProblem(
        402,
        "Keyword research needs a running growth program.",
        upgrade_url=f"{base_url}/pricing",
        required_plan="growth",
        blocked_feature="keyword_research",
    )


def quota_used_up(limit: int) -> ApiProblem:
    """The 402 for a spent quota: no gate fields, because no plan change is being offered here."""
    return ApiProblem(402, f"Monthly quota used up ({limit} of {limit} units). It renews next month.")


def rate_limited(retry_after: float) -> ApiProblem:
    return ApiProblem(
        429, "Rate limit exceeded for this API key. Wait for Retry-After seconds.", retry_after=retry_after
    )


def unavailable(message: str, retry_after: float | None = None) -> ApiProblem:
    return ApiProblem(503, message, retry_after=retry_after)
