"""Fixtures of the AppTest checks: the app in Live mode against the session sandbox, nothing cached."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from sandbox import DEMO_KEY, SandboxServer
from tests.apptest.app_pages import empty_caches


@pytest.fixture
def live_env(sandbox: SandboxServer, monkeypatch: pytest.MonkeyPatch) -> Iterator[SandboxServer]:
    """The app in Live mode against the session sandbox with the demo key, so a test can inject faults
    and count requests; every cache is empty before and after, so no answer crosses from one test to
    the next (the sandbox's own state is reset by tests/conftest.py)."""
    monkeypatch.setenv("VERIFIEDDR_API_BASE", sandbox.base_url)
    monkeypatch.setenv("VERIFIEDDR_API_KEY", DEMO_KEY)
    empty_caches()
    yield sandbox
    empty_caches()
