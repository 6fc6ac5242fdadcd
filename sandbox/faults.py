"""Fault injection: make the next N answers of an operation fail the way the real service can.

Tests and benchmarks use it to see how the app copes with each error status and with answers that
are not what the spec promises (HTML instead of JSON, wrong types, every nullable field null, no
answer at all, an answer that breaks off mid-body ("drop"), or the normal resource with markup,
Markdown and javascript: URLs in every string and a plan name full of Markdown ("hostile")). Operations
are named after the client's methods so a test can say "the next ``trust_map`` call fails" without
knowing paths.
"""

from __future__ import annotations

import types
import typing
from dataclasses import dataclass
from typing import Any, TypeVar

from pydantic import BaseModel
from starlette.responses import Response
from starlette.types import Receive, Scope, Send

from client.operations import SCORE_AND_KEYWORD_READS
from sandbox.problems import ApiProblem, program_gate, quota_used_up, rate_limited

OPERATIONS: tuple[str, ...] = (
    *SCORE_AND_KEYWORD_READS,
    "add_tracked_keyword",
    "refresh_tracked_keyword",
    "remove_tracked_keyword",
)
#: Discovery, exchanges and site management (the operations the spec names only in its CLI mapping).
#: Kept apart from ``OPERATIONS`` so the score and keyword probes stay as they are; both are accepted.
GROWTH_OPERATIONS: tuple[str, ...] = (
    "find",
    "exchange_candidates",
    "preview_exchange",
    "approve_exchange",
    "sites",
    "submit_site",
    "site",
    "site_truedr",
    "ai_visibility",
    "add_ai_prompt",
    "remove_ai_prompt",
    "reset_ai_prompts",
    "run_ai_visibility",
    "export",
    "monitor",
    "verify",
    "gsc_performance",
    "gsc_audit",
    "run_gsc_audit",
)
ALL_OPERATIONS: tuple[str, ...] = (*OPERATIONS, *GROWTH_OPERATIONS)
ANY_OPERATION = "*"
STATUS_FAULTS: tuple[int, ...] = (400, 401, 402, 404, 409, 429, 500, 503)
NAMED_FAULTS: tuple[str, ...] = ("402-gate", "timeout", "nonjson", "badtypes", "nulls", "drop", "hostile")
#: How long a "timeout" fault holds the answer back: far past any sane client timeout (the CLI's is 20 s).
TIMEOUT_FAULT_S = 60.0

FaultKind = int | str
M = TypeVar("M", bound=BaseModel)


@dataclass
class Fault:
    """One injected fault; ``remaining`` None means until cleared."""

    operation: str
    fault: FaultKind
    key_fingerprint: str | None = None
    remaining: int | None = None
    retry_after: float | None = None

    def matches(self, operation: str, key_fingerprint: str | None) -> bool:
        if self.remaining is not None and self.remaining <= 0:
            return False
        if self.operation not in (ANY_OPERATION, operation):
            return False
        return self.key_fingerprint is None or self.key_fingerprint == key_fingerprint

    def to_json(self) -> dict[str, Any]:
        return {
            "operation": self.operation,
            "fault": self.fault,
            "keyFingerprint": self.key_fingerprint,
            "remaining": self.remaining,
            "retryAfter": self.retry_after,
        }


def parse_operation(value: object) -> str:
    if value == ANY_OPERATION or value in ALL_OPERATIONS:
        return str(value)
    raise ValueError(f"Unknown operation {value!r}; use one of {', '.join(ALL_OPERATIONS)} or '*'.")


def parse_fault(value: object) -> FaultKind:
    """A status int (also given as digits) or one of the named faults; ValueError otherwise."""
    if isinstance(value, str) and value.isdigit():
        value = int(value)
    if isinstance(value, int) and not isinstance(value, bool) and value in STATUS_FAULTS:
        return value
    if isinstance(value, str) and value in NAMED_FAULTS:
        return value
    choices = ", ".join([*map(str, STATUS_FAULTS), *NAMED_FAULTS])
    raise ValueError(f"Unknown fault {value!r}; use one of {choices}.")


_STATUS_MESSAGES: dict[int, str] = {
    400: "Invalid input: the service refused this request.",
    401: "Invalid API key.",
    404: "Site not found.",
    409: "That keyword is already tracked for this site.",
    500: "Internal server error. Please try again later.",
    503: "An upstream data source is temporarily unavailable. Try again in a minute.",
}


def problem_for(fault: Fault, *, base_url: str, quota: int) -> ApiProblem | None:
    """The error answer of a status fault (or a 402 gate), None for the body-shaping faults."""
    kind = fault.fault
    if kind == "402-gate":
        return program_gate(base_url)
    if kind == 402:
        return quota_used_up(quota)
    if kind == 429:
        return rate_limited(fault.retry_after if fault.retry_after is not None else 1)
    if isinstance(kind, int):
        return ApiProblem(kind, _STATUS_MESSAGES[kind], retry_after=fault.retry_after)
    return None


NON_JSON_BODY = (
    "<!doctype html><html><head><title>Just a moment...</title></head>"
    "<body><h1>Checking your browser before accessing the site.</h1></body></html>"
)

#: Bodies for "badtypes": the right top-level key, numbers as words and required keys missing.
_BAD_TYPES: dict[str, dict[str, Any]] = {
    "dr": {"dr": {"dr": "lots", "listed": "maybe", "source": 42}},
    "site_check": {"siteCheck": {"verdict": 3, "reachable": "perhaps", "referringDomains": "lots"}},
    "lookup": {
        "lookup": {"authority": {"dr": "lots", "trustScore": "high"}, "evidence": {"traffic": "lots"}}
    },
    "trust_map": {"map": {"totalDomains": "lots", "domains": [{"dr": "lots", "importance": "very"}]}},
    "snippets": {"page": 404, "badge": ["lots"], "styles": "lots"},
    "categories": {"categories": [{"label": 7}], "maxPerSite": "lots"},
    "keyword_report": {"report": {"results": [{"position": "first", "dr": "lots"}], "medianDr": "lots"}},
    "keyword_suggestions": {"suggestions": [{"position": "lots", "searchVolume": "lots"}]},
    "tracked_keywords": {"keywords": [{"snapshot": {"medianDr": "lots"}}], "limit": "lots"},
    "add_tracked_keyword": {"target": {"keyword": 12}},
    "refresh_tracked_keyword": {"target": {"keyword": 12}},
    "remove_tracked_keyword": {"ok": "lots", "removed": 12},
    "find": {"find": {"sites": [{"authority": {"dr": "lots"}}], "filters": "all"}},
    "exchange_candidates": {"opportunities": {"candidates": [{"opportunity": "lots"}], "redacted": "maybe"}},
    "preview_exchange": {"contact": {"dryRun": "maybe", "quota": {"used": "lots"}, "to": "them"}},
    "approve_exchange": {"contact": {"sent": "maybe", "quota": {"used": "lots"}, "to": "them"}},
    "sites": {"sites": [{"dr": "lots", "categories": "saas"}]},
    "submit_site": {"site": {"dr": "lots"}, "siteCheck": {"verdict": 3}},
    "site": {"site": {"trends": [{"date": "lately", "dr": "lots"}]}},
    "site_truedr": {"trueDr": "lots", "breakdown": [{"impact": "big"}]},
    "ai_visibility": {"snapshot": {"score": "lots", "answers": "all"}, "prompts": [{"prompt": 7}]},
    "add_ai_prompt": {"prompts": [{"prompt": 7}]},
    "remove_ai_prompt": {"prompts": [{"prompt": 7}]},
    "reset_ai_prompts": {"prompts": [{"prompt": 7}]},
    "run_ai_visibility": {"prompts": [{"prompt": 7}]},
    "export": {"export": {"site": {"dr": "lots"}, "authority": "high"}},
    "monitor": {"monitor": {"sites": [{"alerts": 3, "changes": "many"}]}},
    "verify": {"verification": {"verified": "maybe", "checkedAt": {"when": "now"}}},
    "gsc_performance": {"range": 28, "performance": {"series": [{"clicks": "lots"}], "totals": "many"}},
    "gsc_audit": {"audit": {"sitemaps": "some", "indexed": [{"impressions": "lots"}]}},
    "run_gsc_audit": {"audit": {"sitemaps": "some", "indexed": [{"impressions": "lots"}]}},
}


def bad_types_body(operation: str) -> dict[str, Any]:
    """A 200 body of the operation whose values have the wrong types and required keys are missing."""
    return {"ok": True, **_BAD_TYPES[operation]}


def _nullable(annotation: object) -> bool:
    origin = typing.get_origin(annotation)
    if origin is typing.Union or origin is types.UnionType:
        return type(None) in typing.get_args(annotation)
    return False


def nullify(model: M) -> M:
    """A copy of the model with every nullable field (and every extra field) set to null.

    Required fields keep their values, and nested objects and lists are walked, so the answer still
    has the documented shape: the worst a faithful service may send.
    """
    updates: dict[str, Any] = {}
    for name, field in type(model).model_fields.items():
        value = getattr(model, name)
        if _nullable(field.annotation):
            updates[name] = None
        elif isinstance(value, BaseModel):
            updates[name] = nullify(value)
        elif isinstance(value, list):
            updates[name] = [nullify(v) if isinstance(v, BaseModel) else v for v in value]
    copy = model.model_copy(update=updates)
    if copy.__pydantic_extra__:
        copy.__pydantic_extra__ = dict.fromkeys(copy.__pydantic_extra__)
    return copy


#: What "drop" promises the body will hold, and the part of it that is actually sent before hanging up.
DROP_DECLARED_BYTES = 4096
DROP_PARTIAL_BODY = b'{"ok": true, "data": {'


class DroppedResponse(Response):
    """An answer that breaks off: headers promise more body than is sent, then the connection closes.

    The ASGI app returns without finishing the body, so the server closes the connection mid-answer:
    the client sees what a proxy reset or a crashed upstream looks like, not an HTTP error status.
    """

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kept = [(k, v) for k, v in self.raw_headers if k not in (b"content-length", b"content-type")]
        headers = [
            *kept,
            (b"content-type", b"application/json"),
            (b"content-length", str(DROP_DECLARED_BYTES).encode()),
        ]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": DROP_PARTIAL_BODY, "more_body": True})


#: What "hostile" puts into every string of an answer: markup that must never run in a page that shows it.
HOSTILE_SCRIPT = "<script>window.__pwned = 1</script>"
HOSTILE_URL = "javascript:window.__pwned=2"
HOSTILE_IMG = '<img src=x onerror="window.__pwned=3">'
#: Where the Markdown below points: a page that shows a link or image to it let the service format it.
HOSTILE_HOST = "evil.example"
#: Markdown and Streamlit's own text syntax: a link, an image, bare and www. URLs, an e-mail address,
#: an icon, an emoji, a colour, math, formatting, a heading and an HTML link (charts draw some HTML). Each
#: word marks what it would become.
HOSTILE_MARKDOWN = (
    f" [Renew here](https://{HOSTILE_HOST}/renew) ![pixel](https://{HOSTILE_HOST}/p.png)"
    f" https://{HOSTILE_HOST}/bare www.{HOSTILE_HOST} billing@{HOSTILE_HOST}"
    " :material/skull: :skull: :red[hostile-colour] $hostile-math$"
    " **hostile-bold** _hostile-italic_ ~~hostile-strike~~ `hostile-code`\n# hostile-heading\n"
    f'<a href="https://{HOSTILE_HOST}/html">hostile-html-link</a>'  # what a chart's text would draw as a link
)
#: The plan name a hostile answer carries in its ``X-API-Tier`` header (the sidebar shows it).
HOSTILE_TIER = (
    f"pro [Renew here](https://{HOSTILE_HOST}) ![x](https://{HOSTILE_HOST}/p.png) www.{HOSTILE_HOST}"
)


def hostile_text(value: str) -> str:
    """``value`` with a script, an event-handler image, a javascript: URL and Markdown around it."""
    if value.startswith(("http://", "https://")):
        return HOSTILE_URL
    return f'{HOSTILE_SCRIPT}{value}{HOSTILE_IMG}<a href="{HOSTILE_URL}">x</a>{HOSTILE_MARKDOWN}'


def hostile(value: Any) -> Any:
    """A JSON body with every string made hostile (URLs become javascript: URLs); keys stay as they are.

    Models what a compromised or careless upstream might relay from a site it crawled: the shape stays
    valid, so the app renders it, and any string that reaches HTML unescaped would run.
    """
    if isinstance(value, dict):
        return {k: hostile(v) for k, v in value.items()}
    if isinstance(value, list):
        return [hostile(v) for v in value]
    if isinstance(value, str):
        return hostile_text(value)
    return value
