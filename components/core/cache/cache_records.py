"""Shared cache entries as plain data: the Redis key of one read and its JSON record (pure).

What ``components.core.cache.shared_cache`` stores and reads back, without Redis or Streamlit, so that the
format can be checked on its own: keys name the service root (hashed), the key's fingerprint (never the
key), the operation and a digest of its arguments; values are JSON text (never pickles), an answer as
the service writes it or a definitive error as a record naming one of the client's own error classes.

A record read back is trusted no more than the service's own answer: anything that can write to Redis
could have written it. So it is checked against the same pydantic models the client checks the service
with (``ErrorBody`` for errors), the error is built by the client's own constructor, an upgrade link
must be on the service's own site, and a record over ``MAX_RECORD_BYTES`` is refused; whatever fails
is dropped by the caller and read from the service instead.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from typing import Any, get_type_hints
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict

from analysis.text import safe_http_url
from client import ApiClient
from client import errors as client_errors
from client.models import ErrorBody, QuotaInfo
from client.operations import READ_OPERATIONS

KEY_PREFIX = "adash:v1"

#: The largest record read from or written to Redis, in bytes. The largest answers the app caches are
#: a discovery page at the service's maximum of 50 sites (about 35 kB with the sandbox's data) and a
#: 16-month Search Console report (about 44 kB); 1 MiB is over twenty times that, for richer real data,
#: and still keeps a planted record from filling each process's memory (and its 0.25 s read) with
#: megabytes.
MAX_RECORD_BYTES = 1024 * 1024

#: The client's definitive errors (the ones a page caches), the only classes a record may name.
DEFINITIVE_ERRORS: dict[str, type[client_errors.ApiError]] = {
    cls.__name__: cls
    for cls in (
        client_errors.BadRequestError,
        client_errors.InvalidInputError,
        client_errors.AuthError,
        client_errors.PaymentRequiredError,
        client_errors.NotFoundError,
        client_errors.ConflictError,
    )
}
_BASE_FIELDS = frozenset({"message", "status", "operation"})
#: The fields ``encode`` writes for each class: every one of them, and no other.
_ERROR_FIELDS: dict[type[client_errors.ApiError], frozenset[str]] = {
    cls: _BASE_FIELDS
    | {
        client_errors.PaymentRequiredError: {"upgrade_url", "required_plan", "blocked_feature"},
        client_errors.InvalidInputError: {"field"},
    }.get(cls, set())
    for cls in DEFINITIVE_ERRORS.values()
}
#: The status each class answers with (InvalidInputError: none, it is refused before any request).
_ERROR_STATUS = {cls: status for status, cls in client_errors.ERROR_BY_STATUS.items()}

#: The operations whose answers may be shared: every read. Writes are never stored in Redis.
SHARED_OPERATIONS = READ_OPERATIONS
#: Each one's answer model, as the client's own method declares it (one source: the client).
ANSWER_TYPES: dict[str, type[BaseModel]] = {
    name: get_type_hints(getattr(ApiClient, name))["return"] for name in SHARED_OPERATIONS
}


@dataclasses.dataclass(frozen=True)
class Record:
    """One shared answer: the parsed value or a definitive error, and the quota seen with it."""

    value: Any = None
    error: client_errors.ApiError | None = None
    quota: QuotaInfo | None = None


@dataclasses.dataclass(frozen=True)
class Fill:
    """What a miss found in Redis: another process's record, or this process's claim to ask the service
    (``token``), or neither (no Redis, Redis unreachable, the wait ran out, or a read that is not shared)."""

    found: Record | None = None
    token: str | None = None


def canonical(value: Any) -> Any:
    """Arguments as plain JSON data; TypeError for anything that has no stable JSON form."""
    if value is None or isinstance(value, str | bool | int | float):
        return value
    if isinstance(value, tuple | list):
        return [canonical(item) for item in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = {f.name: canonical(getattr(value, f.name)) for f in dataclasses.fields(value)}
        return {"type": type(value).__name__, "fields": fields}
    raise TypeError(f"{type(value).__name__} has no stable form for a shared cache key")


def entry_key(base_url: str, fingerprint: str, operation: str, args: tuple[Any, ...]) -> str:
    """The Redis key of one read; raises TypeError for arguments that cannot be keyed."""
    root = hashlib.sha256(base_url.encode()).hexdigest()[:16]
    arguments = json.dumps(canonical(args), sort_keys=True, separators=(",", ":"))
    digest = hashlib.sha256(arguments.encode()).hexdigest()[:24]
    return f"{KEY_PREFIX}:{root}:{fingerprint}:{operation}:{digest}"


def fill_key(entry: str) -> str:
    """The Redis key of the claim to fill ``entry``: held by the one process asking the service for it."""
    return f"{KEY_PREFIX}:fill:{entry.removeprefix(KEY_PREFIX + ':')}"


def encode(operation: str, record: Record) -> str:
    """A record as JSON text: the answer as the service writes it, or the error's class and fields;
    ValueError for one over ``MAX_RECORD_BYTES`` (it is not shared: every process asks for it)."""
    body: dict[str, Any] = {"operation": operation}
    if record.error is not None:
        fields = {k: v for k, v in vars(record.error).items() if v is None or isinstance(v, str | int | bool)}
        body["error"] = {"class": type(record.error).__name__, "fields": fields}
    else:
        body["value"] = record.value.model_dump(mode="json", by_alias=True)
    body["quota"] = record.quota.model_dump(mode="json", by_alias=True) if record.quota else None
    text = json.dumps(body, separators=(",", ":"))
    if len(text.encode()) > MAX_RECORD_BYTES:
        raise ValueError("a record over the shared cache's size limit")
    return text


class _ErrorFields(BaseModel):
    """The app's side of an error record, exactly as ``encode`` writes it: nothing else, no other types."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    message: str
    status: int | None
    operation: str | None
    upgrade_url: str | None = None
    required_plan: str | None = None
    blocked_feature: str | None = None
    field: str | None = None


def same_origin(url: str, service_root: str) -> bool:
    """Whether ``url`` is an http(s) link on the service root's own scheme, host and port."""
    if safe_http_url(url) is None:
        return False
    try:
        link, root = urlsplit(url.strip()), urlsplit(service_root.strip())
        ports = (link.port, root.port)
    except ValueError:
        return False
    default = {"http": 80, "https": 443}
    return (
        link.scheme == root.scheme
        and link.username is None
        and link.password is None
        and (link.hostname or "").lower() == (root.hostname or "").lower() != ""
        and (ports[0] or default.get(link.scheme)) == (ports[1] or default.get(root.scheme))
    )


def _rebuild_error(found: Any, service_root: str) -> client_errors.ApiError:
    """The client's own error, built by its own constructor from fields checked like the service's
    answer (``ErrorBody``); ValueError for anything ``encode`` would not have written, and for an
    upgrade link that is not on the service's own site (a planted record's button leads nowhere)."""
    if not isinstance(found, dict) or set(found) != {"class", "fields"}:
        raise ValueError("not an error record")
    cls = DEFINITIVE_ERRORS.get(found["class"]) if isinstance(found["class"], str) else None
    fields = _ErrorFields.model_validate(found["fields"])  # pydantic's ValidationError is a ValueError
    if cls is None or set(found["fields"]) != _ERROR_FIELDS[cls]:
        raise ValueError("not a definitive error of the client, or not its fields")
    if fields.status not in (None, _ERROR_STATUS.get(cls)):
        raise ValueError("an error record whose status is not its class's")
    body = ErrorBody.model_validate(
        {
            "error": fields.message,
            "upgradeUrl": fields.upgrade_url,
            "requiredPlan": fields.required_plan,
            "blockedFeature": fields.blocked_feature,
        }
    )
    if body.upgrade_url is not None and not same_origin(body.upgrade_url, service_root):
        raise ValueError("an upgrade link that is not on the service's own site")
    if cls is client_errors.PaymentRequiredError:
        return cls(
            body.error,
            status=fields.status,
            operation=fields.operation,
            upgrade_url=body.upgrade_url,
            required_plan=body.required_plan,
            blocked_feature=body.blocked_feature,
        )
    if cls is client_errors.InvalidInputError:
        err: client_errors.ApiError = cls(body.error, field=fields.field or "input")
        err.operation = fields.operation
        return err
    return cls(body.error, status=fields.status, operation=fields.operation)


def decode(operation: str, text: str | bytes, service_root: str) -> Record:
    """The record ``encode`` wrote for a read of ``service_root``; ValueError (pydantic's included) for
    anything else: another operation, a record over the size limit, fields missing or of the wrong type,
    an answer its model refuses, an error that is not one of the client's definitive ones."""
    if len(text) > MAX_RECORD_BYTES:
        raise ValueError("a record over the shared cache's size limit")
    body = json.loads(text)
    if not isinstance(body, dict) or body.get("operation") != operation:
        raise ValueError("a record of another operation")
    if not set(body) <= {"operation", "value", "error", "quota"} or ("value" in body) == ("error" in body):
        raise ValueError("not a record of an answer or of an error")
    quota = QuotaInfo.model_validate(body["quota"]) if body.get("quota") is not None else None
    if "error" in body:
        return Record(error=_rebuild_error(body["error"], service_root), quota=quota)
    return Record(value=ANSWER_TYPES[operation].model_validate(body["value"]), quota=quota)
