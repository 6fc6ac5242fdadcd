"""The HTTP core every v1 operation goes through: headers, timeouts, retries, typed errors, quota.

``BaseClient`` owns one pooled ``httpx.Client`` for one service root and one API key; the operation
modules in ``client.operations`` only say which path to ask and which model the answer is. Reads
(GET) are retried on 429 (honouring Retry-After), 503 and connection failures; writes (POST, DELETE)
are never retried automatically, because a write that reached the server but lost its answer must
not be made twice.
"""

from __future__ import annotations

import email.utils
import functools
import random
import ssl
import threading
import time
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import Any, Self, TypeVar

import httpx
from pydantic import BaseModel, ValidationError

from client import errors
from client.models import ErrorBody, QuotaInfo
from client.safe_urls import display_url
from client.settings import key_fingerprint

API_PREFIX = "/api/v1"
#: The vendor CLI's default; slow owner operations get their own, longer timeouts.
DEFAULT_TIMEOUT_S = 20.0
#: An AI-visibility run or a Search Console audit run takes minutes on the real service.
SLOW_TIMEOUT_S = 300.0
DEFAULT_MAX_RETRIES = 2
CONNECT_TIMEOUT_S = 5.0
#: A Retry-After longer than this is not slept through: the caller is told when to come back.
MAX_RETRY_AFTER_S = 30.0
#: A 429 without Retry-After is asked again after this long.
DEFAULT_RETRY_AFTER_S = 1.0
#: First backoff step for 503 and connection failures; doubled per attempt, with full jitter.
BACKOFF_BASE_S = 0.25
BACKOFF_CAP_S = 4.0
USER_AGENT = "authority-dashboard/0.1 (+verifieddr v1 client)"

M = TypeVar("M", bound=BaseModel)


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


def _json(response: httpx.Response, operation: str) -> Any:
    try:
        return response.json()
    except ValueError as exc:
        raise errors.InvalidResponseError(
            "The service answered with something that is not JSON.",
            status=response.status_code,
            operation=operation,
        ) from exc


def _error_for(response: httpx.Response, operation: str) -> errors.ApiError:
    """The typed error for a non-2xx answer, carrying the service's own message when it sent one."""
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
    if issubclass(cls, errors.RetryLaterError):
        retry_after = _parse_retry_after(response.headers.get("retry-after"))
        return cls(message, operation=operation, retry_after=retry_after)
    return cls(message, status=status, operation=operation)


def _unreachable(exc: httpx.TransportError, operation: str) -> errors.TransportError:
    """The typed error for a connection that brought no answer: an untrusted certificate is its own."""
    cause: BaseException | None = exc
    seen: set[int] = set()  # a chain may loop back on itself
    while cause is not None and id(cause) not in seen:
        seen.add(id(cause))
        if isinstance(cause, ssl.SSLCertVerificationError):
            return errors.CertificateError(
                "The service's certificate is not trusted on this machine "
                "(a proxy on the network may be intercepting secure connections).",
                operation=operation,
            )
        cause = cause.__cause__ or cause.__context__
    return errors.TransportError(
        "The service could not be reached (the connection failed or was dropped).", operation=operation
    )


def backoff_s(attempt: int) -> float:
    """Seconds before attempt ``attempt + 1`` after a 503 or a dropped connection (full jitter)."""
    return random.uniform(0, min(BACKOFF_CAP_S, BACKOFF_BASE_S * 2**attempt))


def _retry_wait(error: errors.ApiError, attempt: int) -> float | None:
    """Seconds to wait before asking again, or None when this error is not worth a retry."""
    if isinstance(error, errors.RetryLaterError) and error.retry_after is not None:
        return error.retry_after if error.retry_after <= MAX_RETRY_AFTER_S else None
    if isinstance(error, errors.RateLimitedError):
        return DEFAULT_RETRY_AFTER_S
    if isinstance(error, errors.ApiTimeoutError | errors.CertificateError):
        # A timeout already waited the whole timeout; an untrusted certificate stays untrusted.
        return None
    if isinstance(error, errors.UnavailableError | errors.TransportError):
        return backoff_s(attempt)
    return None


@functools.cache
def trusted_certificates() -> ssl.SSLContext:
    """The certificates every client of the process trusts (httpx's defaults: its bundle, or the files
    ``SSL_CERT_FILE`` / ``SSL_CERT_DIR`` name), loaded once.

    httpx loads and parses the whole bundle for each new client otherwise (55 ms of the processor, against
    0.3 ms with this one): for each key's first page, each run of the daily job and each test. One
    context verifies every connection as each client's own would."""
    return httpx.create_ssl_context()


class BaseClient:
    """A connection to one service root with one API key, over one pooled ``httpx.Client``.

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
            verify=trusted_certificates(),
            headers={"Accept": "application/json", "User-Agent": USER_AGENT},
            follow_redirects=False,
        )

    def __repr__(self) -> str:
        key_state = "set" if self._api_key else "missing"
        return f"{type(self).__name__}(base_url={display_url(self.base_url)!r}, api_key={key_state})"

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def limit_name(self) -> str:
        """The service and key this client's requests count against (the per-key rate limit), by the
        key's fingerprint: what ``client.bulk.Pacer.for_limit`` keeps a learned rate under."""
        return f"{self.base_url} {key_fingerprint(self._api_key)}"

    @property
    def last_quota(self) -> QuotaInfo | None:
        """The quota headers of the most recent answer (None before the first one)."""
        with self._quota_lock:
            return self._quota

    def _read(
        self,
        model: type[M],
        operation: str,
        path: str,
        *,
        key: str | None = None,
        params: Mapping[str, str] | None = None,
    ) -> M:
        """GET ``path`` and parse ``key`` of the answer as ``model``; retried when worth it."""
        return _parse(model, self._send(operation, "GET", path, params=params), operation, key)

    def _write(
        self,
        model: type[M],
        operation: str,
        method: str,
        path: str,
        *,
        key: str | None = None,
        params: Mapping[str, str] | None = None,
        json: Any = None,
        timeout: float | None = None,
    ) -> M:
        """POST or DELETE ``path`` once (never retried) and parse ``key`` of the answer as ``model``."""
        data = self._send(operation, method, path, params=params, json=json, timeout=timeout)
        return _parse(model, data, operation, key)

    def _send(
        self,
        operation: str,
        method: str,
        path: str,
        *,
        params: Mapping[str, str] | None = None,
        json: Any = None,
        timeout: float | None = None,
    ) -> Any:
        """The decoded JSON of a 2xx answer; anything else raises the matching ``ApiError``."""
        attempt = 0
        request_timeout = httpx.USE_CLIENT_DEFAULT if timeout is None else timeout
        auth = {"Authorization": f"Bearer {self._api_key}"} if self._api_key else {}
        while True:
            cause: BaseException | None = None
            try:
                response = self._http.request(
                    method, path, params=params, json=json, headers=auth, timeout=request_timeout
                )
            except httpx.TimeoutException as exc:
                error: errors.ApiError = errors.ApiTimeoutError(
                    "The service did not answer in time.", operation=operation
                )
                cause = exc
            except httpx.TransportError as exc:
                error = _unreachable(exc, operation)
                cause = exc
            else:
                self._record_quota(response)
                if response.is_success:
                    return _json(response, operation)
                error = _error_for(response, operation)
            wait = _retry_wait(error, attempt)
            if method != "GET" or wait is None or attempt >= self.max_retries:
                raise error from cause
            attempt += 1
            self._sleep(wait)

    def _record_quota(self, response: httpx.Response) -> None:
        quota = quota_from_headers(response.headers)
        if quota is not None:
            with self._quota_lock:
                self._quota = quota
