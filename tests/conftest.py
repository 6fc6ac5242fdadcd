"""Shared fixtures: real sandbox servers on 127.0.0.1, and clients pointed at them."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from client import ApiClient
from sandbox import DEMO_KEY, FREE_KEY, SandboxConfig, SandboxServer


@pytest.fixture(scope="session")
def sandbox() -> Iterator[SandboxServer]:
    """One default sandbox for the session; each test starts from a clean state (see below)."""
    with SandboxServer(SandboxConfig(), host="127.0.0.1", port=0) as server:
        yield server


@pytest.fixture(autouse=True)
def _clean_sandbox_state(request: pytest.FixtureRequest) -> Iterator[None]:
    """Faults, counts, quota use and tracked keywords never leak from one test into the next."""
    if "sandbox" in request.fixturenames:
        server: SandboxServer = request.getfixturevalue("sandbox")
        server.state.reset()
        yield
        server.state.reset()
    else:
        yield


@pytest.fixture
def demo(sandbox: SandboxServer) -> Iterator[ApiClient]:
    with ApiClient(sandbox.base_url, DEMO_KEY, timeout=5.0) as client:
        yield client


@pytest.fixture
def free(sandbox: SandboxServer) -> Iterator[ApiClient]:
    with ApiClient(sandbox.base_url, FREE_KEY, timeout=5.0) as client:
        yield client
