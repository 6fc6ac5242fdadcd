"""Sending the digest (and the scheduled reports) by e-mail with the standard library: ``EmailMessage``
and ``smtplib``.

The message is multipart/alternative: a plain-text part first, the HTML second (mail programs show
the last part they can); with attachments (a report's PDF) the two are followed by them, in a
multipart/mixed message. The connection is STARTTLS on the submission port (default), implicit TLS
(``tls = "ssl"``) or plain (``tls = "none"``, for a relay on the same machine); certificates are
checked. A login over a plain connection would send the password in clear: it is refused before
connecting unless the host is this machine (``localhost`` or a loopback address, written as such: a
name is not looked up, so it cannot be made to look local) or ``allow_plain_login = true`` says the
network is trusted. The whole exchange with the server has a deadline (``[alerts.email] deadline``):
smtplib's timeout is per read, so a server answering one byte at a time would hold it off forever; at
the deadline a timer shuts the socket down, which wakes the blocked read. Every failure becomes
``MailError`` whose reason is plain words and never holds the password.
"""

from __future__ import annotations

import contextlib
import ipaddress
import smtplib
import socket
import ssl
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formatdate, make_msgid, parseaddr
from typing import Self

from services.alerts.config import EmailConfig

SMTP_TIMEOUT_S = 30.0


class MailError(Exception):
    """The digest could not be sent; ``reason`` says why in plain words, never with the password."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Attachment:
    """A file sent with a message (a scheduled report's PDF)."""

    filename: str
    content: bytes
    maintype: str = "application"
    subtype: str = "pdf"


def build_message(
    subject: str,
    text: str,
    html: str,
    email: EmailConfig,
    *,
    attachments: Sequence[Attachment] = (),
    message_id: str | None = None,
) -> EmailMessage:
    """The message to ``email.to``: plain text and HTML as alternatives, then any ``attachments`` (the
    whole becomes multipart/mixed). ``message_id`` (its left part) makes the Message-ID the same for
    every copy of one thing sent, so a mail system that drops repeats drops a resent one."""
    message = EmailMessage()
    message["Subject"] = subject
    message["From"] = email.sender
    message["To"] = ", ".join(email.to)
    message["Date"] = formatdate(localtime=False)
    domain = parseaddr(email.sender)[1].rpartition("@")[2] or "localhost"
    message["Message-ID"] = f"<{message_id}@{domain}>" if message_id else make_msgid("digest", domain=domain)
    message.set_content(text)
    message.add_alternative(html, subtype="html")
    for attachment in attachments:
        message.add_attachment(
            attachment.content,
            maintype=attachment.maintype,
            subtype=attachment.subtype,
            filename=attachment.filename,
        )
    return message


def _scrub(text: str, email: EmailConfig) -> str:
    if email.password:
        text = text.replace(email.password, "***")
    return text


def _server_words(exc: smtplib.SMTPResponseException, email: EmailConfig) -> str:
    """The server's own answer (the only text here not written by us: scrubbed of the password)."""
    raw = exc.smtp_error
    answer = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else str(raw)
    return _scrub(f"{exc.smtp_code} {answer}".strip()[:300], email)


def _reason(exc: BaseException, email: EmailConfig) -> str:
    """What went wrong, in words for someone setting ``[alerts.email]`` up."""
    server = email.server_for_display
    if isinstance(exc, smtplib.SMTPAuthenticationError):
        return f"the mail server {server} refused the user name or password"
    if isinstance(exc, smtplib.SMTPNotSupportedError):
        if "STARTTLS" in str(exc):
            return f'the mail server {server} does not offer STARTTLS: set tls = "ssl" or "none"'
        return f"the mail server {server} does not offer a login here: check tls (or leave user out)"
    if isinstance(exc, smtplib.SMTPRecipientsRefused):
        return f"the mail server {server} refused every recipient"
    if isinstance(exc, smtplib.SMTPSenderRefused):
        return f"the mail server {server} refused the sender address ({_server_words(exc, email)})"
    if isinstance(exc, smtplib.SMTPResponseException):
        return f"the mail server {server} answered {_server_words(exc, email)}"
    if isinstance(exc, smtplib.SMTPServerDisconnected):
        return f"the mail server {server} closed the connection"
    if isinstance(exc, ssl.SSLCertVerificationError):
        return f"the certificate of the mail server {server} could not be verified ({exc.verify_message})"
    if isinstance(exc, ssl.SSLError):
        return f"the secure connection to {server} failed ({exc.reason or 'TLS error'}): check tls and port"
    if isinstance(exc, ConnectionRefusedError):
        return f"the mail server {server} refused the connection"
    if isinstance(exc, socket.gaierror):
        return f"the mail server's host name {email.host} could not be found"
    if isinstance(exc, TimeoutError | socket.timeout):
        return f"the mail server {server} did not answer in time"
    if isinstance(exc, OSError):
        return f"could not reach the mail server {server} ({exc.strerror or type(exc).__name__})"
    return f"sending through {server} failed ({type(exc).__name__})"


def is_loopback(host: str) -> bool:
    """Whether ``host`` is written as this machine: ``localhost`` or a loopback address (no lookup)."""
    name = host.strip().strip("[]").rstrip(".").lower()
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def plain_login_refusal(email: EmailConfig) -> str | None:
    """Why a login must not happen over this connection (None: it may)."""
    if not email.user or email.tls != "none" or email.allow_plain_login or is_loopback(email.host):
        return None
    return (
        f"logging in to {email.server_for_display} would send the password unencrypted over the network "
        '(nothing was sent): set tls = "starttls" or "ssl" in [alerts.email], or allow_plain_login = true '
        "if that network is trusted"
    )


class _Deadline:
    """Shuts the connection's socket down once ``seconds`` have passed (a blocked read then returns)."""

    def __init__(self, smtp: smtplib.SMTP, seconds: float) -> None:
        self.smtp = smtp
        self.passed = threading.Event()
        self.timer = threading.Timer(seconds, self._cut_off)
        self.timer.daemon = True

    def _cut_off(self) -> None:
        self.passed.set()
        sock = getattr(self.smtp, "sock", None)
        if sock is not None:
            with contextlib.suppress(OSError):  # already closed
                sock.shutdown(socket.SHUT_RDWR)

    def __enter__(self) -> Self:
        self.timer.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.timer.cancel()


def send_message(
    message: EmailMessage,
    email: EmailConfig,
    timeout_s: float = SMTP_TIMEOUT_S,
    deadline_s: float | None = None,
) -> list[str]:
    """Send ``message`` to ``email.to``, all of it within ``deadline_s`` (default ``email.deadline_s``);
    the recipients the server refused (others still got it)."""
    refusal = plain_login_refusal(email)
    if refusal is not None:
        raise MailError(refusal)
    context = ssl.create_default_context()
    seconds = deadline_s if deadline_s is not None else email.deadline_s
    smtp: smtplib.SMTP = (
        smtplib.SMTP_SSL(timeout=timeout_s, context=context)
        if email.tls == "ssl"
        else smtplib.SMTP(timeout=timeout_s)
    )
    # Connected below, under the deadline; the constructor would connect before it starts. TLS checks
    # the certificate against the host the constructor would have kept (smtplib reads ``_host``).
    smtp._host = email.host  # type: ignore[attr-defined]
    deadline = _Deadline(smtp, seconds)
    try:
        with deadline, smtp:
            smtp.connect(email.host, email.port)
            if email.tls == "starttls":
                smtp.starttls(context=context)
            if email.user:
                smtp.login(email.user, email.password or "")
            refused = smtp.send_message(message, to_addrs=list(email.to))
    except (smtplib.SMTPException, OSError) as exc:
        if deadline.passed.is_set():
            raise MailError(
                f"the mail server {email.server_for_display} did not finish within {seconds:g} s"
            ) from None
        raise MailError(_reason(exc, email)) from None
    return sorted(refused)
