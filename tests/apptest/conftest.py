"""Fixtures of the AppTest checks: the app in Live mode against the session sandbox, nothing cached, and
its history in a temporary SQLite file (never the repository's data/ folder)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from client.settings import key_fingerprint
from components.core.history import reads as history_reads
from components.core.history.store import seed_demo_history
from sandbox import DEMO_KEY, SandboxServer
from store import HistoryStore
from tests.apptest.app_pages import empty_caches


@pytest.fixture(scope="session")
def shared_history_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    return f"sqlite:///{tmp_path_factory.mktemp('history') / 'history.sqlite3'}"


@pytest.fixture(autouse=True)
def _history_database(shared_history_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every AppTest keeps its history in a temporary file; a test of history sets its own URL."""
    monkeypatch.setenv("DASHBOARD_DATABASE_URL", shared_history_url)


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


@pytest.fixture
def own_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, live_env: SandboxServer
) -> Iterator[HistoryStore]:
    """An empty history database of this test's own, the one the app opens (same URL); the app's
    background recording has finished before the test's files are removed."""
    url = f"sqlite:///{tmp_path / 'history.sqlite3'}"
    monkeypatch.setenv("DASHBOARD_DATABASE_URL", url)
    with HistoryStore.open(url) as opened:
        yield opened
    history_reads.wait_for_recording()


@pytest.fixture(scope="session")
def demo_history_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo's history (as a newcomer's sandbox seeds it, up to today) in an SQLite file, seeded once
    for the session (seeding takes seconds); tests copy it (``demo_history``)."""
    path = tmp_path_factory.mktemp("demo-history") / "seeded.sqlite3"
    with HistoryStore.open(f"sqlite:///{path}") as opened:
        seed_demo_history(opened, key_fingerprint(DEMO_KEY), DEMO_KEY, datetime.now(UTC).date())
    return path


@pytest.fixture
def demo_history(
    demo_history_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, live_env: SandboxServer
) -> Iterator[HistoryStore]:
    """A copy of the demo's history of this test's own, the one the app opens."""
    path = tmp_path / "history.sqlite3"
    shutil.copyfile(demo_history_file, path)
    url = f"sqlite:///{path}"
    monkeypatch.setenv("DASHBOARD_DATABASE_URL", url)
    with HistoryStore.open(url) as opened:
        yield opened
    history_reads.wait_for_recording()
