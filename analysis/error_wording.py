"""Every client error in words a marketer understands. Pure (tested without Streamlit).

Server messages are kept as a secondary detail, never as the whole explanation.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from analysis.text import safe_http_url
from analysis.wording import counted
from client import errors

Level = Literal["info", "warning", "error"]


@dataclass(frozen=True)
class ErrorView:
    level: Level
    title: str
    advice: str
    detail: str | None = None
    link_url: str | None = None
    link_label: str | None = None


def _retry_words(seconds: float | None) -> str:
    if seconds is None:
        return "in a little while"
    whole = max(1, math.ceil(seconds))
    return f"in {counted(whole, 'second')}"


def describe_error(err: errors.ApiError, *, subject: str = "this request") -> ErrorView:
    """What to tell a person about ``err``: what happened, and what they can do about it."""
    detail = err.message or None
    if isinstance(err, errors.InvalidInputError):
        return ErrorView("warning", "Check what you typed", err.message)
    if isinstance(err, errors.BadRequestError):
        return ErrorView("warning", "The service refused this input", "Check it and try again.", detail)
    if isinstance(err, errors.AuthError):
        return ErrorView(
            "error",
            "The API key was not accepted",
            "Check the key in the sidebar, or set VERIFIEDDR_API_KEY (or .streamlit/secrets.toml). "
            "Switch to Sandbox demo data to explore without a key.",
            detail,
        )
    if isinstance(err, errors.PaymentRequiredError):
        url = safe_http_url(err.upgrade_url)
        if err.is_gate:
            feature = (err.blocked_feature or "This feature").replace("_", " ")
            plan = f"the {err.required_plan} plan" if err.required_plan else "a running growth program"
            return ErrorView(
                "warning",
                f"{feature[:1].upper()}{feature[1:]} needs {plan}",
                "Your key works, but this feature is not part of your current plan.",
                detail,
                url,
                "See plans and upgrade" if url else None,
            )
        return ErrorView(
            "warning",
            "Your API quota is used up",
            "Calls that spend quota will work again when your monthly or lifetime allowance renews, "
            "or after an upgrade. Results already loaded stay on screen.",
            detail,
            url,
            "See plans and upgrade" if url else None,
        )
    if isinstance(err, errors.NotFoundError):
        return ErrorView(
            "info",
            "Not found",
            f"The service has no data for {subject}: the site is not listed, or it is not one of your sites.",
            detail,
        )
    if isinstance(err, errors.ConflictError):
        return ErrorView("warning", "Already done", "The service already has this.", detail)
    if isinstance(err, errors.RateLimitedError):
        return ErrorView(
            "warning",
            "Too many requests for now",
            f"The service's rate limit for your key was reached. Try again {_retry_words(err.retry_after)}.",
            detail,
        )
    if isinstance(err, errors.UnavailableError):
        return ErrorView(
            "info",
            "The data is being refreshed",
            "The service's cached evidence or an upstream source is temporarily unavailable. "
            f"Try again {_retry_words(err.retry_after)}.",
            detail,
        )
    if isinstance(err, errors.ApiTimeoutError):
        return ErrorView(
            "error", "The service did not answer in time", "Try again; if it persists, the service is slow."
        )
    if isinstance(err, errors.CertificateError):
        return ErrorView(
            "error",
            "The service's certificate is not trusted here",
            "The secure connection was refused: this machine does not trust the certificate the service "
            "address presented. A proxy on your network may be opening secure connections; ask whoever "
            "runs the dashboard to trust its certificate authority (SSL_CERT_FILE) and restart the app.",
        )
    if isinstance(err, errors.TransportError):
        return ErrorView(
            "error",
            "The service could not be reached",
            "Check the network and the service address (VERIFIEDDR_API_BASE), then try again.",
        )
    if isinstance(err, errors.InvalidResponseError):
        return ErrorView(
            "error",
            "The service sent something unexpected",
            "Its answer did not have the documented shape. Try again later.",
            detail,
        )
    return ErrorView("error", "The service reported a problem", "Try again later.", detail)
