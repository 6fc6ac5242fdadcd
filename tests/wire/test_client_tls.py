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
from client.bulk import BulkRunner
from client.models import DomainRating
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


class _CountingServer(ThreadingHTTPServer):
    """Counts the connections it was offered (each TLS handshake, whether or not it succeeds)."""

    offered = 0

    def get_request(self) -> tuple[object, object]:
        self.offered += 1
        return super().get_request()


@contextlib.contextmanager
def https_server(certificate: tuple[Path, Path]) -> Iterator[_CountingServer]:
    """An HTTPS server on a free 127.0.0.1 port presenting ``certificate``."""
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(*certificate)
    server = _CountingServer(("127.0.0.1", 0), _Answers)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


def test_every_client_refuses_a_service_whose_certificate_nobody_vouches_for_and_says_so(
    tmp_path: Path,
) -> None:
    with https_server(self_signed_certificate(tmp_path)) as server:
        base_url = f"https://127.0.0.1:{server.server_address[1]}"
        for tried in (1, 2):  # the first client loads the trusted certificates, the second reuses them
            with ApiClient(base_url, DEMO_KEY, timeout=5.0) as client:  # retries allowed, none taken
                with pytest.raises(errors.CertificateError) as refused:
                    client.lookup("example.com")
            assert "certificate is not trusted" in str(refused.value)
            assert "CERTIFICATE_VERIFY_FAILED" in repr(refused.value.__cause__)
            # Asked once: an untrusted certificate stays so. (The server took each connection before
            # its handshake could fail, so the count is whole when the client gives up.)
            assert server.offered == tried


def test_a_bulk_run_stops_at_the_first_untrusted_certificate_and_says_why_for_every_domain(
    tmp_path: Path,
) -> None:
    """The certificate is the service's, whatever the domain: one refusal ends the run (as a refused key
    does), and every domain not asked says why (a dropped connection would be asked again, per domain)."""
    domains = ["stripe.com", "hubspot.com", "example.com"]
    with https_server(self_signed_certificate(tmp_path)) as server:
        base_url = f"https://127.0.0.1:{server.server_address[1]}"
        with ApiClient(base_url, DEMO_KEY, timeout=5.0, max_retries=0) as client:
            runner: BulkRunner[DomainRating] = BulkRunner(client.dr, workers=1)
            results = runner.run_all(domains)
        assert server.offered == 1
    assert isinstance(runner.ended_by, errors.CertificateError)
    assert all(isinstance(r.error, errors.CertificateError) for r in results), results
    assert [r.skipped for r in results] == [False, True, True]
