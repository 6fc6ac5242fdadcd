"""Fixtures of the browser tests: the app served by Streamlit on loopback in Live mode against the session
sandbox (``served_app``, one per test process; ``own_served_app``, one per module) or in Sandbox mode with
demo history (``sandbox_app``), its history in a temporary SQLite file (never the repository's data/
folder). The headless Chromium is ``tests/conftest.py``'s ``browser``."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page

from rigs.processes import app_process
from sandbox import DEMO_KEY, SandboxServer
from tests.browser.tabs import LAPTOP_WIDTHS, BrowserProfile, ServedApp, WorkerChromium


def _live_app(sandbox: SandboxServer, browser: BrowserProfile, folder: Path) -> Iterator[ServedApp]:
    """``streamlit run app.py`` in Live mode against ``sandbox``, its history and log in ``folder``, its
    start page opened once before any test.

    The very first session of a fresh server may show a spurious "Page not found" dialog when it
    starts on another page's URL; after one visit to the start page, deep links open cleanly.
    (Checking that very first deep link is a test of its own, on a server of its own.)
    """
    log = folder / "streamlit.log"
    history = f"sqlite:///{folder / 'history.sqlite3'}"
    with app_process(api_base=sandbox.base_url, api_key=DEMO_KEY, log_path=log, database_url=history) as app:
        with browser.app_tab(app.url):
            pass  # the next test goes on in this tab
        yield ServedApp(app.url, log)


@pytest.fixture(scope="session")
def served_app(
    sandbox: SandboxServer, worker_chromium: WorkerChromium, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServedApp]:
    """The app in Live mode for every test module of the process that reads what any module may have
    read before (its cache and history outlive a module; the sandbox is the session's): starting it
    and a first visit cost seconds per module otherwise. A module that needs a cache or a history of its
    own takes ``own_served_app``."""
    for app in _live_app(sandbox, worker_chromium.profile(), tmp_path_factory.mktemp("app")):
        worker_chromium.share_app(app.url)
        yield app


@pytest.fixture(scope="module")
def own_served_app(
    sandbox: SandboxServer, browser: BrowserProfile, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServedApp]:
    """The app in Live mode for one module alone: an empty cache, and a history the module may fill."""
    yield from _live_app(sandbox, browser, tmp_path_factory.mktemp("own-app"))


@pytest.fixture(scope="module")
def sandbox_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServedApp]:
    """The app with no API key (Sandbox mode) and its history in a new temporary SQLite file: the first
    visit to the History or Alerts page seeds it with demo history (and the demo's alerts)."""
    folder = tmp_path_factory.mktemp("sandbox-app")
    log = folder / "streamlit.log"
    history = f"sqlite:///{folder / 'history.sqlite3'}"
    with contextlib.ExitStack() as running:
        with pytest.MonkeyPatch.context() as env:  # for the app's start only: it copies the environment
            env.delenv("VERIFIEDDR_API_BASE", raising=False)
            app = running.enter_context(app_process(api_key=None, log_path=log, database_url=history))
        yield ServedApp(app.url, log)


@pytest.fixture(scope="module")
def app_url(request: pytest.FixtureRequest, worker_chromium: WorkerChromium) -> str:
    """The Live app's address: the process's shared one, or with ``OWN_APP = True`` in the module (its
    tests count what the service is asked, so no other module may have cached it) the module's own.

    ``worker_chromium`` is named so that the module counts as one that drives the browser (the app is
    picked by name below, which pytest cannot see): otherwise it would close the browser first."""
    own = getattr(request.module, "OWN_APP", False)
    served: ServedApp = request.getfixturevalue("own_served_app" if own else "served_app")
    return served.url


@pytest.fixture(scope="module")
def laptops(browser: BrowserProfile) -> Iterator[dict[int, Page]]:
    """One tab per laptop width (``LAPTOP_WIDTHS``), shared by the module's tests: each test navigates
    them to its page. Tall, so a page's tables are all drawn without scrolling."""
    opened = {width: browser.new_page(viewport={"width": width, "height": 2400}) for width in LAPTOP_WIDTHS}
    try:
        yield opened
    finally:
        for tab in opened.values():
            tab.close()
