"""Real servers on 127.0.0.1 for the delivery tests: a webhook receiver that misbehaves on cue, and an
SMTP server (aiosmtpd) that keeps what it is sent, with STARTTLS on a self-signed certificate if asked.

``WebhookReceiver`` answers each request by the script for its Idempotency-Key: "timeout" (sleeps past
the client's timeout, then hangs up), "503", "drop" (closes the connection without a word), "404",
"trickle" (a 200 whose status line and headers come one byte every ``trickle_s`` seconds and never end,
so no single read waits long: only a deadline for the whole request stops it), or "ok" (200, the
default once the script is used up), and records every request with what it did.
"""

from __future__ import annotations

import contextlib
import datetime
import ipaddress
import json
import socket
import ssl
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from email import message_from_bytes, policy
from email.message import EmailMessage
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, Envelope, LoginPassword
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID


def own_address() -> str | None:
    """An address of this machine that is not loopback (the one its default route leaves from), or None.
    Connecting a UDP socket sends nothing: it only picks the route."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        try:
            sock.connect(("192.0.2.1", 9))
        except OSError:
            return None
        address = sock.getsockname()[0]
    return None if ipaddress.ip_address(address).is_loopback else address


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class ReceivedRequest:
    key: str | None
    path: str
    headers: dict[str, str]
    body: bytes
    action: str
    at: float

    @property
    def answered_ok(self) -> bool:
        return self.action == "ok"

    def json(self) -> Any:
        return json.loads(self.body)


@dataclass
class WebhookReceiver:
    sleep_s: float = 1.0
    #: Idempotency-Key -> the answers to give, in order ("ok" once they are used up).
    script: dict[str, list[str]] = field(default_factory=dict)
    #: Seconds to take over an "ok" answer (to make concurrent runs overlap).
    ok_delay_s: float = 0.0
    requests: list[ReceivedRequest] = field(default_factory=list)
    port: int = 0
    #: Seconds between two bytes of a "trickle" answer.
    trickle_s: float = 0.1

    def __post_init__(self) -> None:
        self._lock = threading.Lock()
        #: Set when the receiver stops: a trickling answer then hangs up.
        self.stopped = threading.Event()

    def url(self, path: str = "/") -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def next_action(self, key: str | None) -> str:
        with self._lock:
            queue = self.script.get(key or "", [])
            return queue.pop(0) if queue else "ok"

    def record(self, request: ReceivedRequest) -> None:
        with self._lock:
            self.requests.append(request)

    def answered_ok(self) -> list[str | None]:
        """The Idempotency-Keys of the requests answered 2xx, in order."""
        return [request.key for request in self.requests if request.answered_ok]

    def by_key(self, key: str) -> list[ReceivedRequest]:
        return [request for request in self.requests if request.key == key]


def _handler(receiver: WebhookReceiver) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length)
            key = self.headers.get("Idempotency-Key")
            action = receiver.next_action(key)
            receiver.record(
                ReceivedRequest(key, self.path, dict(self.headers.items()), body, action, time.monotonic())
            )
            if action == "trickle":
                self._trickle()
                return
            if action in ("timeout", "drop"):
                if action == "timeout":
                    time.sleep(receiver.sleep_s)
                self.close_connection = True  # hang up without a status line
                return
            if action == "ok" and receiver.ok_delay_s:
                time.sleep(receiver.ok_delay_s)
            status = 200 if action == "ok" else int(action)
            payload = b"ok" if status == 200 else b"no"
            self.send_response(status)
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def _trickle(self) -> None:
            """One byte at a time, each well within any read timeout, until the client gives up or the
            receiver stops; the header never ends, so the answer never completes."""
            self.close_connection = True
            endless = b"HTTP/1.1 200 OK\r\nX-Slow: " + b"a" * 100_000
            for byte in endless:
                if receiver.stopped.wait(receiver.trickle_s):
                    return
                try:
                    self.wfile.write(bytes([byte]))
                    self.wfile.flush()
                except OSError:  # the client hung up: what a deadline does
                    return

        def log_message(self, *_args: Any) -> None:  # quiet test output
            return

    return Handler


@contextlib.contextmanager
def webhook_receiver(**options: Any) -> Iterator[WebhookReceiver]:
    receiver = WebhookReceiver(**options)
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(receiver))
    server.daemon_threads = True
    receiver.port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield receiver
    finally:
        receiver.stopped.set()
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@dataclass
class MailBox:
    """What the SMTP server accepted: envelopes and the parsed messages."""

    envelopes: list[tuple[str, list[str], EmailMessage]] = field(default_factory=list)
    logins: list[str] = field(default_factory=list)
    port: int = 0

    async def handle_DATA(self, _server: Any, _session: Any, envelope: Envelope) -> str:
        raw = envelope.original_content or envelope.content or b""
        message = message_from_bytes(raw if isinstance(raw, bytes) else raw.encode(), policy=policy.default)
        self.envelopes.append((str(envelope.mail_from), list(envelope.rcpt_tos), message))  # type: ignore[arg-type]
        return "250 Message accepted for delivery"


def self_signed_certificate(folder: Path) -> tuple[Path, Path]:
    """A certificate for 127.0.0.1 and its key, as PEM files in ``folder``: (certificate, key)."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = datetime.datetime.now(datetime.UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), False
        )
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), True)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = folder / "smtp-cert.pem", folder / "smtp-key.pem"
    cert_path.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
    )
    return cert_path, key_path


@contextlib.contextmanager
def smtp_server(
    user: str | None = None,
    password: str | None = None,
    certificate: tuple[Path, Path] | None = None,
    host: str = "127.0.0.1",
) -> Iterator[MailBox]:
    """An SMTP server on 127.0.0.1 (or ``host``, an address of this machine); with ``user``/``password``
    it requires that login, and with ``certificate`` it requires STARTTLS before anything else (and
    before the login)."""
    box = MailBox(port=free_port())
    options: dict[str, Any] = {}
    if certificate is not None:
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(*certificate)
        options |= {"tls_context": context, "require_starttls": True}
    if user is not None:

        def authenticator(_server: Any, _session: Any, _envelope: Any, mechanism: str, data: Any) -> Any:
            if isinstance(data, LoginPassword) and (data.login.decode(), data.password.decode()) == (
                user,
                password,
            ):
                box.logins.append(user)
                return AuthResult(success=True)
            return AuthResult(success=False, handled=False)

        options |= {
            "authenticator": authenticator,
            "auth_require_tls": certificate is not None,
            "auth_required": True,
        }
    controller = Controller(box, hostname=host, port=box.port, **options)
    controller.start()
    try:
        yield box
    finally:
        controller.stop()


@contextlib.contextmanager
def trickling_server(every_s: float = 0.1, first: bytes = b"220 ") -> Iterator[int]:
    """A TCP server on 127.0.0.1 (its port is yielded) that answers every connection with ``first`` and
    then one more byte every ``every_s`` seconds, never finishing the line: a mail server that is
    never done greeting. No single read waits long; only a deadline for the whole exchange stops it."""
    stopped = threading.Event()
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    listener.settimeout(0.2)

    def trickle(conn: socket.socket) -> None:
        with conn:
            try:
                conn.sendall(first)
                while not stopped.wait(every_s):
                    conn.sendall(b"a")
            except OSError:  # the client hung up
                return

    def serve() -> None:
        while not stopped.is_set():
            try:
                conn, _address = listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            threading.Thread(target=trickle, args=(conn,), daemon=True).start()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield listener.getsockname()[1]
    finally:
        stopped.set()
        thread.join(timeout=5)
        listener.close()
