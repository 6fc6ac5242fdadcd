"""The client's one error vocabulary.

Every failure a caller can meet is one of these classes, so the UI can render each kind once
(``components.core.ui.errors``) and scripts can catch exactly what they can handle. Each error carries the
server's own ``error`` message when there was one, and never the API key.
"""

from __future__ import annotations

from typing import Any, ClassVar


class ApiError(Exception):
    """Base of every error the client raises.

    ``status`` is the HTTP status when the server answered, ``None`` when it did not (or when the
    input was refused before any request). Errors are picklable with all their attributes, because
    Streamlit's cache stores definitive errors (a 404 must not be asked again on every rerun).
    """

    #: Whether asking again later may succeed; transient errors are never cached.
    transient: bool = False

    def __init__(self, message: str, *, status: int | None = None, operation: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.operation = operation

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild_error, (type(self), dict(self.__dict__)))

    def __str__(self) -> str:
        return self.message


def _rebuild_error(cls: type[ApiError], state: dict[str, Any]) -> ApiError:
    err = cls.__new__(cls)
    Exception.__init__(err, state.get("message", ""))
    err.__dict__.update(state)
    return err


class BadRequestError(ApiError):
    """400: the service refused the input or the range."""


class InvalidInputError(BadRequestError):
    """Input that can never be valid, refused before any request is sent (so it spends nothing)."""

    def __init__(self, message: str, *, field: str = "input") -> None:
        super().__init__(message, status=None)
        self.field = field


class AuthError(ApiError):
    """401: the API key is missing or not accepted."""


class PaymentRequiredError(ApiError):
    """402: a growth program is needed (a gate) or the lifetime/monthly quota is spent."""

    def __init__(
        self,
        message: str,
        *,
        status: int | None = 402,
        operation: str | None = None,
        upgrade_url: str | None = None,
        required_plan: str | None = None,
        blocked_feature: str | None = None,
    ) -> None:
        super().__init__(message, status=status, operation=operation)
        self.upgrade_url = upgrade_url
        self.required_plan = required_plan
        self.blocked_feature = blocked_feature

    @property
    def is_gate(self) -> bool:
        """A program gate (as opposed to a spent quota) names the feature or plan it blocks."""
        return bool(self.blocked_feature or self.required_plan or self.upgrade_url)


class NotFoundError(ApiError):
    """404: unknown public site, a site the key does not own, or no saved site-check report."""


class ConflictError(ApiError):
    """409: the write conflicts with stored state (for example a keyword that is already tracked)."""


class RetryLaterError(ApiError):
    """A transient refusal that may say when to ask again: ``retry_after`` in seconds, None if unsaid."""

    transient = True
    #: The status a subclass answers with when none is given.
    default_status: ClassVar[int | None] = None

    def __init__(
        self,
        message: str,
        *,
        status: int | None = None,
        operation: str | None = None,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(
            message, status=self.default_status if status is None else status, operation=operation
        )
        self.retry_after = retry_after


class RateLimitedError(RetryLaterError):
    """429: the per-key rate limit was hit; ``retry_after`` says when to ask again (seconds)."""

    default_status = 429


class UnavailableError(RetryLaterError):
    """503: cached evidence or an upstream source is temporarily unavailable."""

    default_status = 503


class ServerError(ApiError):
    """Any other status the spec does not name (500, 502, an unexpected 4xx...)."""

    transient = True


class TransportError(ApiError):
    """The service could not be reached or the connection broke before an answer came."""

    transient = True


class ApiTimeoutError(TransportError):
    """The service did not answer within the client's timeout."""


class CertificateError(TransportError):
    """The service's TLS certificate is not one this machine trusts: often a proxy on the network that
    opens secure connections to inspect them. Asking again at once cannot help (never retried), but
    trusting the right authority fixes it at once (still never cached)."""


class InvalidResponseError(ApiError):
    """The service answered, but not with JSON of the documented shape."""

    transient = True


#: Status code → error class, for the statuses the spec (and the contract notes) name.
ERROR_BY_STATUS: dict[int, type[ApiError]] = {
    400: BadRequestError,
    401: AuthError,
    402: PaymentRequiredError,
    404: NotFoundError,
    409: ConflictError,
    429: RateLimitedError,
    503: UnavailableError,
}
