"""Shared cache entries as plain data: the Redis key of one read and its JSON record (pure).

What ``components.core.shared_cache`` stores and reads back, without Redis or Streamlit, so that the
format can be checked on its own: keys name the service root (hashed), the key's fingerprint (never the
key), the operation and a digest of its arguments; values are JSON text (never pickles), an answer as
the service writes it or a definitive error as a record naming one of the client's own error classes.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Mapping
from typing import Any, get_type_hints

from pydantic import BaseModel

from client import ApiClient
from client import errors as client_errors
from client.models import QuotaInfo

KEY_PREFIX = "adash:v1"

#: The read operations whose answers may be shared. Others are never stored in Redis.
SHARED_OPERATIONS = (
    "dr",
    "site_check",
    "lookup",
    "trust_map",
    "snippets",
    "categories",
    "keyword_report",
    "keyword_suggestions",
    "tracked_keywords",
    "find",
    "exchange_candidates",
    "sites",
    "site",
    "site_truedr",
    "ai_visibility",
    "export",
    "monitor",
    "gsc_performance",
    "gsc_audit",
)
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
    """A record as JSON text: the answer as the service writes it, or the error's class and fields."""
    body: dict[str, Any] = {"operation": operation}
    if record.error is not None:
        fields = {k: v for k, v in vars(record.error).items() if v is None or isinstance(v, str | int | bool)}
        body["error"] = {"class": type(record.error).__name__, "fields": fields}
    else:
        body["value"] = record.value.model_dump(mode="json", by_alias=True)
    body["quota"] = record.quota.model_dump(mode="json", by_alias=True) if record.quota else None
    return json.dumps(body, separators=(",", ":"))


def _rebuild_error(found: Mapping[str, Any]) -> client_errors.ApiError:
    cls = getattr(client_errors, str(found.get("class")), None)
    if not (isinstance(cls, type) and issubclass(cls, client_errors.ApiError)) or cls.transient:
        raise ValueError("not a definitive error of the client")
    fields = dict(found.get("fields") or {})
    err = cls.__new__(cls)
    Exception.__init__(err, str(fields.get("message", "")))
    err.__dict__.update(fields)
    return err


def decode(operation: str, text: str | bytes) -> Record:
    """The record ``encode`` wrote; ValueError (pydantic's included) for anything else."""
    body = json.loads(text)
    if not isinstance(body, dict) or body.get("operation") != operation:
        raise ValueError("a record of another operation")
    quota = QuotaInfo.model_validate(body["quota"]) if body.get("quota") else None
    if "error" in body:
        return Record(error=_rebuild_error(body["error"]), quota=quota)
    return Record(value=ANSWER_TYPES[operation].model_validate(body["value"]), quota=quota)
