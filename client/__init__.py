"""Client for the Domain Authority, Trust and Keyword Research API v1 (VerifiedDR).

No Streamlit here: scripts, benchmarks and tests use it directly.
"""

from client.api import ApiClient
from client.errors import (
    ApiError,
    ApiTimeoutError,
    AuthError,
    BadRequestError,
    CertificateError,
    ConflictError,
    InvalidInputError,
    InvalidResponseError,
    NotFoundError,
    PaymentRequiredError,
    RateLimitedError,
    ServerError,
    TransportError,
    UnavailableError,
)
from client.inputs import normalise_domain, normalise_keyword, parse_domain_list, slug_for

__all__ = [
    "ApiClient",
    "ApiError",
    "ApiTimeoutError",
    "AuthError",
    "BadRequestError",
    "CertificateError",
    "ConflictError",
    "InvalidInputError",
    "InvalidResponseError",
    "NotFoundError",
    "PaymentRequiredError",
    "RateLimitedError",
    "ServerError",
    "TransportError",
    "UnavailableError",
    "normalise_domain",
    "normalise_keyword",
    "parse_domain_list",
    "slug_for",
]
