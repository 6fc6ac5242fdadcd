"""A client for reads answered only from a cache (``data.cached_answer``): it refuses every operation
before any request, with a transient error, so the data layer neither caches the refusal nor spends a
call; a page that must spend no call of its own asks through it (the Coach's opportunities)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from client.errors import ApiError
from client.models import QuotaInfo


class NotHeld(ApiError):
    """A read answered only from a cache that no cache holds (transient: never cached itself)."""

    transient = True


class CacheOnlyClient:
    """Every operation refused before any request (``NotHeld``)."""

    last_quota: QuotaInfo | None = None

    def __getattr__(self, operation: str) -> Callable[..., Any]:
        def refuse(*_args: Any) -> Any:
            raise NotHeld("Not read yet: only a cached answer was asked for.", operation=operation)

        return refuse
