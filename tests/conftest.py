"""Fixtures more than one kind of test needs: the session's sandbox server on 127.0.0.1 (reset around
every test that uses it), a client for each demo key pointed at it, a real Redis server
(``redis_server``, see rigs/deployment.py), a real PostgreSQL server per test process (``postgres``, see
rigs/postgres.py: the store tests' and the pages' after a move), and one headless Chromium per test
process, handed to each browser and deployment test module as ``browser``.

Each kind keeps its own in its folder's conftest.py: unit/ (no network), wire/ (raw HTTP against the
sandbox), apptest/ (the app in Live mode, caches emptied), browser/ (Chromium and the served app)."""

from __future__ import annotations

import functools
import os
import tempfile
from collections.abc import Iterator
from typing import TYPE_CHECKING

# The sandbox's numbers drift with the day; fix the day to the one the demo data was written for
# (where every drift is zero) before anything reads it, so the suite, and every app or sandbox
# process it starts (they inherit the environment), see the same numbers on any date.
os.environ.setdefault("VERIFIEDDR_SANDBOX_TODAY", "2025-01-06")
# Spreadsheet feeds that the snapshot job (and the app) write go to a folder of the run's own, never
# the repository's static/feeds/: a refresh removes the feed files its database does not know.
os.environ.setdefault("DASHBOARD_FEEDS_DIR", tempfile.mkdtemp(prefix="dashboard-feeds-"))

import pytest

from client import ApiClient
from rigs import deployment
from rigs.deployment import RedisServer
from rigs.postgres import PostgresServer, running_postgres
from sandbox import DEMO_KEY, FREE_KEY, SandboxConfig, SandboxServer

#: Per-package coverage floors, checked once pytest-cov has combined its data.
pytest_plugins = ["tests.coverage_floors"]

if TYPE_CHECKING:
    from tests.browser.tabs import BrowserProfile, WorkerChromium


def _scan_installed_components_once() -> None:
    """Each new ``AppTest`` scans every installed package's metadata for Streamlit components (half a
    second, most of a short page's run; a served app does it once at start-up). The installed packages
    don't change while the suite runs, so each test process scans once and every AppTest reuses it."""
    from streamlit.components.v2 import manifest_scanner

    manifest_scanner.scan_component_manifests = functools.cache(manifest_scanner.scan_component_manifests)


_scan_installed_components_once()


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
    """The demo key's client (a paid plan that owns sites), for the wire and AppTest checks."""
    with ApiClient(sandbox.base_url, DEMO_KEY, timeout=5.0) as client:
        yield client


@pytest.fixture
def free(sandbox: SandboxServer) -> Iterator[ApiClient]:
    """The free plan's client, where plan gates (402) answer."""
    with ApiClient(sandbox.base_url, FREE_KEY, timeout=5.0) as client:
        yield client


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    """A real PostgreSQL server for the test process, started on first use (``rigs.postgres``); each test
    makes databases of its own on it, with names no other test of the process uses. It fails, not skips,
    where PostgreSQL is missing."""
    try:
        with running_postgres() as server:
            yield server
    except RuntimeError as exc:
        pytest.fail(str(exc), pytrace=False)


@pytest.fixture
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    """A real redis-server on a free 127.0.0.1 port (nothing persisted), stopped after the test; a test
    may ``stop()`` it and ``start()`` it again on the same ``url`` / ``port``."""
    with deployment.redis_server(tmp_path_factory.mktemp("redis")) as server:
        yield server


@pytest.fixture(scope="session")
def worker_chromium() -> Iterator[WorkerChromium]:
    """The test process's one headless Chromium (Debian's, launched by ``rigs.chromium`` as benchmarks
    launch it, on first use), kept from module to module (``tests.browser.tabs.WorkerChromium``); test
    modules take it as ``browser``. It fails, not skips, where chromium is missing."""
    from tests.browser.tabs import WorkerChromium

    kept = WorkerChromium()
    yield kept
    kept.close()


@pytest.fixture(scope="module")
def browser(worker_chromium: WorkerChromium) -> Iterator[BrowserProfile]:
    """The process's Chromium (its tabs in one profile, ``tests.browser.tabs.BrowserProfile``) for a
    browser or deployment test module. When the module ends, its tabs are closed (but for those left on
    an app every module shares) and its cookies cleared, so the next module starts as a person with a
    fresh browser would, only sooner."""
    profile = worker_chromium.profile()
    yield profile
    profile.tidy(worker_chromium.shared_apps)


@pytest.fixture(scope="module", autouse=True)
def _chromium_only_while_used(request: pytest.FixtureRequest) -> None:
    """A module that drives no browser closes the process's Chromium before its tests run: Playwright
    would keep an event loop running in the main thread, and ``asyncio.run`` fails there."""
    if request.module.__name__ not in _modules_driving_a_browser(request.session):
        request.getfixturevalue("worker_chromium").close()


def _modules_driving_a_browser(session: pytest.Session) -> set[str]:
    """The names of the test modules of which some test uses the process's Chromium."""
    found = session.stash.get(_BROWSER_MODULES, None)
    if found is None:
        found = {
            item.module.__name__
            for item in session.items
            if isinstance(item, pytest.Function) and "worker_chromium" in item.fixturenames
        }
        session.stash[_BROWSER_MODULES] = found
    return found


_BROWSER_MODULES = pytest.StashKey[set[str]]()
