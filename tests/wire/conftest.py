"""Fixtures of the wire tests (the client and raw HTTP against the session sandbox of tests/conftest.py)."""

from __future__ import annotations

import pytest

from sandbox import SandboxServer


@pytest.fixture(scope="session")
def server(sandbox: SandboxServer) -> SandboxServer:
    """The session's sandbox, reset to its seed state around every test that uses it."""
    return sandbox
