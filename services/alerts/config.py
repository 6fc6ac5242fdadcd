"""Where alerts go: the webhook, the dashboard's address for links back, and the digest's mail server.

Read like the history database's URL (``store.config``): the environment first, then ``[alerts]`` and
``[alerts.email]`` in the secrets files (the same files, in the same order, as the API settings; a
key in the project's file wins over the same key in the home folder's). The webhook URL and the SMTP
password are secrets: neither appears in a repr, a message or an exception; ``webhook_for_display``
is the only form of the webhook that may be shown (scheme and host).

    [alerts]
    webhook_url = "https://hooks.slack.com/services/…"   # or DASHBOARD_ALERT_WEBHOOK
    format = "slack"                                    # or "json"
    dashboard_url = "https://dashboard.example.com"     # or DASHBOARD_URL
    webhook_timeout = 10                # s for one whole POST (DASHBOARD_ALERT_WEBHOOK_TIMEOUT)
    delivery_deadline = 120             # s for a run's whole pass (DASHBOARD_ALERT_DELIVERY_DEADLINE)

    [alerts.email]
    host = "smtp.example.com"
    port = 587
    tls = "starttls"                                    # "ssl" (port 465) or "none"
    user = "digest@example.com"
    password = "…"
    from = "Authority Dashboard <digest@example.com>"
    to = ["team@example.com"]                           # or one address as a string
    allow_plain_login = false           # log in over tls = "none" to a host not this machine
    deadline = 120                      # seconds for the whole exchange with the mail server

Only the deployment's own account (the API key of its environment or secrets) reaches these channels:
see ``services.jobs.alerts`` and ``services.jobs.digest``. The deadlines are for a whole request and a whole
pass, not for each read: a receiver that answers one byte at a time is still cut off.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

from client.settings import SECRETS_FILES
from store.config import secrets_tables

WEBHOOK_ENV = "DASHBOARD_ALERT_WEBHOOK"
WEBHOOK_TIMEOUT_ENV = "DASHBOARD_ALERT_WEBHOOK_TIMEOUT"
DELIVERY_DEADLINE_ENV = "DASHBOARD_ALERT_DELIVERY_DEADLINE"
#: Seconds one webhook POST may take from connecting to the last byte of the answer.
DEFAULT_WEBHOOK_TIMEOUT_S = 10.0
#: Seconds a run's whole delivery pass may take; what is still due then waits for the next run.
DEFAULT_DELIVERY_DEADLINE_S = 120.0
MAX_WEBHOOK_TIMEOUT_S = 300.0
MAX_DELIVERY_DEADLINE_S = 3600.0
#: Seconds the whole exchange with the mail server may take (connect, greeting, login, message).
DEFAULT_MAIL_DEADLINE_S = 120.0
MAX_MAIL_DEADLINE_S = 3600.0
DASHBOARD_URL_ENV = "DASHBOARD_URL"
DEFAULT_DASHBOARD_URL = "http://localhost:8501"
WEBHOOK_FORMATS = ("slack", "json")
TLS_MODES = ("starttls", "ssl", "none")
DEFAULT_PORTS = {"starttls": 587, "ssl": 465, "none": 25}

WebhookFormat = Literal["slack", "json"]
TlsMode = Literal["starttls", "ssl", "none"]


class AlertConfigError(ValueError):
    """The alert settings cannot be used; the message says which setting, never a secret's value."""


@dataclass(frozen=True)
class EmailConfig:
    """The mail server and addresses of the digest (``[alerts.email]``)."""

    host: str
    port: int
    tls: TlsMode
    sender: str
    to: tuple[str, ...]
    user: str | None = None
    password: str | None = field(default=None, repr=False)
    #: A login over ``tls = "none"`` to a host other than this machine sends the password in clear:
    #: refused unless this is set (``allow_plain_login = true``).
    allow_plain_login: bool = False
    deadline_s: float = DEFAULT_MAIL_DEADLINE_S

    def __repr__(self) -> str:
        password = "***" if self.password else None
        return (
            f"EmailConfig(host={self.host!r}, port={self.port}, tls={self.tls!r}, sender={self.sender!r}, "
            f"to={self.to!r}, user={self.user!r}, password={password!r}, "
            f"allow_plain_login={self.allow_plain_login!r}, deadline_s={self.deadline_s!r})"
        )

    @property
    def server_for_display(self) -> str:
        return f"{self.host}:{self.port} ({self.tls})"


@dataclass(frozen=True)
class AlertConfig:
    """Everything delivery needs; ``channels`` is what evaluation should create delivery rows for."""

    webhook_url: str | None = field(default=None, repr=False)
    webhook_format: WebhookFormat = "slack"
    dashboard_url: str = DEFAULT_DASHBOARD_URL
    email: EmailConfig | None = None
    webhook_timeout_s: float = DEFAULT_WEBHOOK_TIMEOUT_S
    delivery_deadline_s: float = DEFAULT_DELIVERY_DEADLINE_S

    def __repr__(self) -> str:
        return (
            f"AlertConfig(webhook={self.webhook_for_display!r}, webhook_format={self.webhook_format!r}, "
            f"dashboard_url={self.dashboard_url!r}, email={self.email!r}, "
            f"webhook_timeout_s={self.webhook_timeout_s!r}, delivery_deadline_s={self.delivery_deadline_s!r})"
        )

    @property
    def channels(self) -> tuple[str, ...]:
        return ("webhook",) if self.webhook_url else ()

    @property
    def webhook_for_display(self) -> str | None:
        """``https://hooks.example.com/…``: scheme and host only, never the path that holds the token."""
        if not self.webhook_url:
            return None
        parts = urlsplit(self.webhook_url)
        host = parts.hostname or "?"
        if parts.port:
            host = f"{host}:{parts.port}"
        return f"{parts.scheme}://{host}/…"

    @classmethod
    def load(
        cls, environ: Mapping[str, str] = os.environ, secrets_files: tuple[Path, ...] = SECRETS_FILES
    ) -> AlertConfig:
        """The settings in force; AlertConfigError (naming the setting) when one cannot be used."""
        section = _alerts_section(secrets_files)
        webhook = (environ.get(WEBHOOK_ENV) or "").strip() or _text(section, "webhook_url")
        if webhook:
            _check_webhook(webhook)
        webhook_format = (_text(section, "format") or "slack").lower()
        if webhook_format not in WEBHOOK_FORMATS:
            raise AlertConfigError(f'[alerts] format is "slack" or "json", not {webhook_format!r}')
        dashboard = (environ.get(DASHBOARD_URL_ENV) or "").strip() or _text(section, "dashboard_url")
        dashboard = (dashboard or DEFAULT_DASHBOARD_URL).rstrip("/")
        if urlsplit(dashboard).scheme not in ("http", "https"):
            raise AlertConfigError(
                f"the dashboard's address must start with http:// or https:// ({dashboard})"
            )
        email_section = section.get("email")
        email = _email(email_section) if isinstance(email_section, dict) and email_section else None
        timeout = _seconds(
            environ,
            section,
            WEBHOOK_TIMEOUT_ENV,
            "webhook_timeout",
            DEFAULT_WEBHOOK_TIMEOUT_S,
            MAX_WEBHOOK_TIMEOUT_S,
        )
        deadline = _seconds(
            environ,
            section,
            DELIVERY_DEADLINE_ENV,
            "delivery_deadline",
            DEFAULT_DELIVERY_DEADLINE_S,
            MAX_DELIVERY_DEADLINE_S,
        )
        # The format is one of WEBHOOK_FORMATS (checked above), which mypy can't narrow a str to.
        return cls(webhook or None, webhook_format, dashboard, email, timeout, deadline)  # type: ignore[arg-type]


def _seconds(
    environ: Mapping[str, str],
    section: Mapping[str, Any],
    env: str,
    key: str,
    default: float,
    most: float,
    where: str = "[alerts]",
) -> float:
    """A number of seconds from ``env`` (if named) or ``key`` of the section ``where``: more than 0, at
    most ``most``."""
    raw: Any = ((environ.get(env) or "").strip() if env else "") or section.get(key)
    if raw is None or raw == "":
        return default
    try:
        value = float(raw) if not isinstance(raw, bool) else float("nan")
    except (TypeError, ValueError):
        value = float("nan")
    if not 0 < value <= most:  # also refuses nan
        also = f" ({env})" if env else ""
        raise AlertConfigError(
            f"{where} {key}{also} is a number of seconds, more than 0 and at most {most:g}"
        )
    return value


def _alerts_section(files: tuple[Path, ...]) -> dict[str, Any]:
    """``[alerts]`` merged over the files, later files winning key by key (also inside ``email``)."""
    merged: dict[str, Any] = {}
    for data in secrets_tables(files):
        section = data.get("alerts")
        if not isinstance(section, dict):
            continue
        for key, value in section.items():
            if key == "email" and isinstance(value, dict) and isinstance(merged.get("email"), dict):
                merged["email"] = {**merged["email"], **value}
            else:
                merged[key] = value
    return merged


def _text(section: Mapping[str, Any], key: str, where: str = "[alerts]") -> str | None:
    """The setting ``key`` of a settings section (``where`` names it), trimmed; None when empty or absent."""
    value = section.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        raise AlertConfigError(f"{where} {key} must be text")
    return value.strip() or None


def _check_webhook(url: str) -> None:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        # The URL itself is a secret: say what is wrong with it, not what it is.
        raise AlertConfigError(
            "the webhook URL ([alerts] webhook_url or DASHBOARD_ALERT_WEBHOOK) must be an http:// or "
            "https:// address"
        )


def _email(section: Mapping[str, Any]) -> EmailConfig:
    def text(key: str) -> str | None:
        return _text(section, key, "[alerts.email]")

    host = text("host")
    if not host:
        raise AlertConfigError("[alerts.email] needs host (the mail server)")
    tls = (text("tls") or "starttls").lower()
    if tls not in TLS_MODES:
        raise AlertConfigError(f'[alerts.email] tls is "starttls", "ssl" or "none", not {tls!r}')
    port = section.get("port", DEFAULT_PORTS[tls])
    if isinstance(port, str) and port.strip().isdigit():
        port = int(port)
    if isinstance(port, bool) or not isinstance(port, int) or not 0 < port < 65536:
        raise AlertConfigError("[alerts.email] port must be a number from 1 to 65535")
    sender = text("from")
    if not sender:
        raise AlertConfigError("[alerts.email] needs from (the sender's address)")
    raw_to = section.get("to")
    if raw_to is None:
        raise AlertConfigError("[alerts.email] needs to (at least one recipient)")
    recipients = [raw_to] if isinstance(raw_to, str) else raw_to
    if not isinstance(recipients, list) or not all(isinstance(item, str) for item in recipients):
        raise AlertConfigError("[alerts.email] to is an address or a list of addresses")
    to = tuple(item.strip() for item in recipients if item.strip())
    if not to:
        raise AlertConfigError("[alerts.email] needs to (at least one recipient)")
    password = section.get("password")
    if password is not None and not isinstance(password, str):
        raise AlertConfigError("[alerts.email] password must be text")
    allow_plain = section.get("allow_plain_login", False)
    if not isinstance(allow_plain, bool):
        raise AlertConfigError("[alerts.email] allow_plain_login is true or false")
    deadline = _seconds(
        {}, section, "", "deadline", DEFAULT_MAIL_DEADLINE_S, MAX_MAIL_DEADLINE_S, "[alerts.email]"
    )
    # tls is one of TLS_MODES (checked above), which mypy can't narrow a str to.
    return EmailConfig(host, port, tls, sender, to, text("user"), password or None, allow_plain, deadline)  # type: ignore[arg-type]
