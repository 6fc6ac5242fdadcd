"""How the client names a connection that brought no answer (``client.transport._unreachable``), without
a network: the TLS refusal itself is checked against a real HTTPS server in ``tests/wire``."""

from __future__ import annotations

import ssl

import httpx
import pytest

from client import errors
from client.transport import _unreachable


def test_an_untrusted_certificate_deep_in_the_chain_is_named() -> None:
    refused = ssl.SSLCertVerificationError("certificate verify failed")
    wrapped = httpx.ConnectError("handshake failed")
    wrapped.__cause__ = RuntimeError("transport")
    wrapped.__cause__.__cause__ = refused
    assert isinstance(_unreachable(wrapped, "lookup"), errors.CertificateError)


@pytest.mark.timeout(10)
def test_a_chain_that_loops_back_on_itself_is_still_named_and_never_hangs() -> None:
    dropped = httpx.ConnectError("connection reset")
    middle = RuntimeError("retrying")
    dropped.__cause__, middle.__cause__ = middle, dropped
    named = _unreachable(dropped, "lookup")
    assert type(named) is errors.TransportError
    assert "could not be reached" in str(named)
