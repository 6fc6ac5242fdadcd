"""The client over TLS against a real HTTPS server on 127.0.0.1: the certificates the process trusts are
loaded once and shared by every client (``client.transport.trusted_certificates``), and each client
still refuses a service whose certificate none of them vouches for."""

from __future__ import annotations

import contextlib
import ssl
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from client import ApiClient, errors
from sandbox import DEMO_KEY
from tests.store.local_servers import self_signed_certificate


class _Answers(BaseHTTPRequestHandler):
    """Answers any GET with a lookup-shaped body: a client that skipped verification would read it."""

    def do_GET(self) -> None:
        body = b'{"domain": "example.com", "dr": 50}'
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *_args: object) -> None:  # quiet test output
        pass


@contextlib.contextmanager
def https_server(certificate: tuple[Path, Path]) -> Iterator[str]:
    """An HTTPS server on a free 127.0.0.1 port presenting ``certificate``; yields its root address."""
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(*certificate)
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Answers)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"https://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def test_every_client_refuses_a_service_whose_certificate_nobody_vouches_for(tmp_path: Path) -> None:
    with https_server(self_signed_certificate(tmp_path)) as base_url:
        for _ in range(2):  # the first client loads the trusted certificates, the second reuses them
            with ApiClient(base_url, DEMO_KEY, timeout=5.0, max_retries=0) as client:
                with pytest.raises(errors.TransportError) as refused:
                    client.lookup("example.com")
            assert "CERTIFICATE_VERIFY_FAILED" in repr(refused.value.__cause__)
