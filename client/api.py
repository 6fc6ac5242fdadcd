"""The typed v1 client: one method per operation, named after the ``vdr`` CLI command.

It knows nothing of Streamlit, so scripts, benchmarks and tests use it directly. Reads (GET) are
retried on 429 (honouring Retry-After), 503 and connection failures; writes (POST, DELETE) are never
retried automatically, because a write that reached the server but lost its answer must not be made
twice.
"""

from __future__ import annotations

import email.utils
import random
import re
import threading
import time
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import Any, Self, TypeVar
from urllib.parse import quote

import httpx
from pydantic import BaseModel, ValidationError

from client import errors
from client.inputs import normalise_domain, normalise_keyword, slug_for
from client.models import (
    Categories,
    DomainRating,
    ErrorBody,
    KeywordReport,
    KeywordSuggestions,
    Lookup,
    QuotaInfo,
    SiteCheck,
    Snippets,
    TargetRemoval,
    TargetWrite,
    TrackedKeywords,
    TrustMap,
)

API_PREFIX = "/api/v1"
#: The vendor CLI's default; slow owner operations get their own, longer timeouts.
DEFAULT_TIMEOUT_S = 20.0
DEFAULT_MAX_RETRIES = 2
CONNECT_TIMEOUT_S = 5.0
#: A Retry-After longer than this is not slept through: the caller is told when to come back.
MAX_RETRY_AFTER_S = 30.0
#: First backoff step for 503 and connection failures; doubled per attempt, with full jitter.
BACKOFF_BASE_S = 0.25
BACKOFF_CAP_S = 4.0
USER_AGENT = "authority-dashboard/0.1 (+verifieddr v1 client)"

M = TypeVar("M", bound=BaseModel)
#: A slug is a registrable domain with dots as hyphens (IDNs in their xn-- form): ASCII only.
_SLUG = re.compile(r"^[a-z0-9](?:[a-z0-9-]{0,251}[a-z0-9])?$")


def _parse_retry_after(value: str | None, *, now: float | None = None) -> float | None:
    """Seconds to wait from a Retry-After header given as seconds or as an HTTP date."""
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    current = now if now is not None else time.time()
    return max(0.0, when.timestamp() - current)


def _int_header(headers: httpx.Headers, name: str) -> int | None:
    try:
        return int(headers[name])
    except (KeyError, ValueError):
        return None


def quota_from_headers(headers: httpx.Headers) -> QuotaInfo | None:
    """The quota the service reported, or None when the answer carried no quota headers."""
    if not any(h in headers for h in ("x-api-quota-limit", "x-api-quota-remaining", "x-api-tier")):
        return None
    return QuotaInfo(
        limit=_int_header(headers, "x-api-quota-limit"),
        remaining=_int_header(headers, "x-api-quota-remaining"),
        tier=headers.get("x-api-tier"),
        seen_at=datetime.now(UTC),
    )


def _path_segment(value: str) -> str:
    return quote(value, safe="")


class ApiClient:
    """A client for one service root and one API key, over one pooled ``httpx.Client``.

    ``base_url`` is the service root as in ``VERIFIEDDR_API_BASE`` (no ``/api/v1``). The key is kept
    private and never appears in ``repr``, errors or logs.
    """

    def __init__(
        self,
        base_url: str,
        api_key: str | None,
        *,
        timeout: float = DEFAULT_TIMEOUT_S,
        max_retries: int = DEFAULT_MAX_RETRIES,
        transport: httpx.BaseTransport | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self._api_key = api_key or ""
        self.max_retries = max(0, max_retries)
        self._sleep = sleep
        self._quota_lock = threading.Lock()
        self._quota: QuotaInfo | None = None
        self._http = httpx.Client(
            base_url=self.base_url + API_PREFIX,
            # Every request has both: a dead host fails fast, a hung one within the read timeout.
            timeout=httpx.Timeout(timeout, connect=min(CONNECT_TIMEOUT_S, timeout)),
            transport=transport,
            headers={"Accept": "application/json", "User-Agent": USER_AGENT},
            follow_redirects=False,
        )

    def __repr__(self) -> str:
        return f"ApiClient(base_url={self.base_url!r}, api_key={'set' if self._api_key else 'missing'})"

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def last_quota(self) -> QuotaInfo | None:
        """The quota headers of the most recent answer (None before the first one)."""
        with self._quota_lock:
            return self._quota

    # --- transport ------------------------------------------------------------------------

    def _auth_headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self._api_key}"} if self._api_key else {}

    def _backoff(self, attempt: int) -> float:
        return random.uniform(0, min(BACKOFF_CAP_S, BACKOFF_BASE_S * 2**attempt))

    def _send(
        self,
        operation: str,
        method: str,
        path: str,
        *,
        params: Mapping[str, str] | None = None,
        json: Any = None,
    ) -> tuple[httpx.Response, Any]:
        attempt = 0
        while True:
            cause: BaseException | None = None
            try:
                response = self._http.request(
                    method, path, params=params, json=json, headers=self._auth_headers()
                )
            except httpx.TimeoutException as exc:
                error: errors.ApiError = errors.ApiTimeoutError(
                    "The service did not answer in time.", operation=operation
                )
                cause = exc
            except httpx.TransportError as exc:
                error = errors.TransportError(
                    "The service could not be reached (the connection failed or was dropped).",
                    operation=operation,
                )
                cause = exc
            else:
                self._record_quota(response)
                if response.is_success:
                    return response, self._json(response, operation)
                error = self._error_for(response, operation)
            wait = self._retry_wait(error, attempt)
            if method != "GET" or wait is None or attempt >= self.max_retries:
                raise error from cause
            attempt += 1
            self._sleep(wait)

    def _record_quota(self, response: httpx.Response) -> None:
        quota = quota_from_headers(response.headers)
        if quota is not None:
            with self._quota_lock:
                self._quota = quota

    def _retry_wait(self, error: errors.ApiError, attempt: int) -> float | None:
        """Seconds to wait before asking again, or None when this error is not worth a retry."""
        if isinstance(error, errors.RateLimitedError):
            wait = error.retry_after if error.retry_after is not None else 1.0
            return wait if wait <= MAX_RETRY_AFTER_S else None
        if isinstance(error, errors.UnavailableError):
            if error.retry_after is not None:
                return error.retry_after if error.retry_after <= MAX_RETRY_AFTER_S else None
            return self._backoff(attempt)
        if isinstance(error, errors.ApiTimeoutError):
            # Already waited the whole timeout: asking again would keep a page waiting minutes.
            return None
        if isinstance(error, errors.TransportError):
            return self._backoff(attempt)
        return None

    @staticmethod
    def _json(response: httpx.Response, operation: str) -> Any:
        try:
            return response.json()
        except ValueError as exc:
            raise errors.InvalidResponseError(
                "The service answered with something that is not JSON.",
                status=response.status_code,
                operation=operation,
            ) from exc

    @staticmethod
    def _error_for(response: httpx.Response, operation: str) -> errors.ApiError:
        status = response.status_code
        body: ErrorBody | None = None
        try:
            data = response.json()
            if isinstance(data, dict) and isinstance(data.get("error"), str):
                body = ErrorBody.model_validate(data)
        except (ValueError, ValidationError):
            body = None
        message = body.error if body else f"The service answered HTTP {status}."
        cls = errors.ERROR_BY_STATUS.get(status, errors.ServerError)
        if cls is errors.PaymentRequiredError:
            return errors.PaymentRequiredError(
                message,
                operation=operation,
                upgrade_url=body.upgrade_url if body else None,
                required_plan=body.required_plan if body else None,
                blocked_feature=body.blocked_feature if body else None,
            )
        if cls in (errors.RateLimitedError, errors.UnavailableError):
            retry_after = _parse_retry_after(response.headers.get("retry-after"))
            return cls(message, operation=operation, retry_after=retry_after)
        return cls(message, status=status, operation=operation)

    def _get(self, operation: str, path: str, **kwargs: Any) -> Any:
        return self._send(operation, "GET", path, **kwargs)[1]

    @staticmethod
    def _parse(model: type[M], data: Any, operation: str, key: str | None = None) -> M:
        """Validate ``data[key]`` (or the whole body when the key is absent) as ``model``."""
        payload = data
        if key is not None and isinstance(data, dict) and isinstance(data.get(key), dict):
            payload = data[key]
        elif isinstance(data, dict):
            # A top-level resource: drop the envelope's ``ok`` so it is not kept as a field.
            payload = {k: v for k, v in data.items() if k != "ok"}
        try:
            return model.model_validate(payload)
        except ValidationError as exc:
            fields = ", ".join(".".join(str(p) for p in e["loc"]) for e in exc.errors()[:3])
            raise errors.InvalidResponseError(
                f"The service's answer did not have the documented shape ({fields}).",
                operation=operation,
            ) from exc

    # --- score data -----------------------------------------------------------------------

    def dr(self, domain: str) -> DomainRating:
        """``authority:dr`` — Domain Rating for any domain. Spends one quota unit per call."""
        d = normalise_domain(domain)
        return self._parse(DomainRating, self._get("dr", f"/dr/{_path_segment(d)}"), "dr", "dr")

    def site_check(self, domain: str) -> SiteCheck:
        """The saved fraud verdict of a listed site. Spends one quota unit per call."""
        d = normalise_domain(domain)
        data = self._get("site_check", f"/site-check/{_path_segment(d)}")
        return self._parse(SiteCheck, data, "site_check", "siteCheck")

    def lookup(self, domain: str) -> Lookup:
        """``authority:lookup`` — TrueDR, trust, confidence, changes and evidence of a listed site."""
        d = normalise_domain(domain)
        return self._parse(Lookup, self._get("lookup", f"/lookup/{_path_segment(d)}"), "lookup", "lookup")

    def trust_map(self, domain: str) -> TrustMap:
        """``authority:map`` — up to 60 cached referring domains (503 while the cache is cold)."""
        d = normalise_domain(domain)
        return self._parse(TrustMap, self._get("trust_map", f"/map/{_path_segment(d)}"), "trust_map", "map")

    def snippets(self, domain: str) -> Snippets:
        """``badge:snippets`` — public page, badge and ready-to-paste embed snippets."""
        d = normalise_domain(domain)
        data = self._get("snippets", f"/snippets/{_path_segment(d)}")
        return self._parse(Snippets, data, "snippets", "snippets")

    def categories(self) -> Categories:
        """``categories:list`` — values accepted by site submission and discovery filters."""
        return self._parse(Categories, self._get("categories", "/categories"), "categories")

    # --- keywords -------------------------------------------------------------------------

    def keyword_report(self, keyword: str, domain: str | None = None) -> KeywordReport:
        """``keywords:research`` — live US top 10 with each DR; with a domain, its gap and tier."""
        params = {"keyword": normalise_keyword(keyword)}
        if domain:
            params["domain"] = normalise_domain(domain)
        data = self._get("keyword_report", "/keywords", params=params)
        return self._parse(KeywordReport, data, "keyword_report", "report")

    def keyword_suggestions(self, domain: str) -> KeywordSuggestions:
        """``keywords:suggest`` — non-brand keywords the domain ranks 4 to 30 for."""
        d = normalise_domain(domain)
        data = self._get("keyword_suggestions", f"/keywords/suggestions/{_path_segment(d)}")
        return self._parse(KeywordSuggestions, data, "keyword_suggestions")

    def tracked_keywords(self, slug: str) -> TrackedKeywords:
        """``keywords:tracked`` — stored snapshots of an owned site; never triggers a SERP fetch."""
        path = f"/sites/{_path_segment(self._slug(slug))}/keywords"
        return self._parse(TrackedKeywords, self._get("tracked_keywords", path), "tracked_keywords")

    def add_tracked_keyword(self, slug: str, keyword: str) -> TargetWrite:
        """Track a keyword for an owned site. Sent once; never retried automatically."""
        path = f"/sites/{_path_segment(self._slug(slug))}/keywords"
        body = {"keyword": normalise_keyword(keyword)}
        data = self._send("add_tracked_keyword", "POST", path, json=body)[1]
        return self._parse(TargetWrite, data, "add_tracked_keyword")

    def refresh_tracked_keyword(self, slug: str, target_id: str) -> TargetWrite:
        """Re-snapshot one tracked keyword. Sent once; never retried automatically."""
        path = f"/sites/{_path_segment(self._slug(slug))}/keywords"
        body = {"action": "refresh", "id": self._target_id(target_id)}
        data = self._send("refresh_tracked_keyword", "POST", path, json=body)[1]
        return self._parse(TargetWrite, data, "refresh_tracked_keyword")

    def remove_tracked_keyword(self, slug: str, target_id: str) -> TargetRemoval:
        """Stop tracking one keyword. Sent once; never retried automatically."""
        path = f"/sites/{_path_segment(self._slug(slug))}/keywords"
        params = {"id": self._target_id(target_id)}
        data = self._send("remove_tracked_keyword", "DELETE", path, params=params)[1]
        return self._parse(TargetRemoval, data, "remove_tracked_keyword")

    # --- argument checks ------------------------------------------------------------------

    @staticmethod
    def _slug(value: str) -> str:
        """Accept a slug (``example-com``) or a domain (the spec shows :slug filled with a domain)."""
        text = (value or "").strip().lower()
        if text and "." not in text and "/" not in text:
            if _SLUG.match(text):
                return text
            raise errors.InvalidInputError("That is not a site identifier like example-com.", field="slug")
        return slug_for(value)

    @staticmethod
    def _target_id(value: str) -> str:
        text = (value or "").strip()
        if not text or len(text) > 128 or not all(ch.isalnum() or ch in "_-" for ch in text):
            raise errors.InvalidInputError("That is not a tracked-keyword id like tgt_123.", field="id")
        return text
