"""Fixtures of the browser tests: one headless Chromium per module (launched as ``bench/`` launches
it) and the app served by Streamlit on loopback in Live mode against the session sandbox (``served_app``)
or in Sandbox mode with demo history (``sandbox_app``), its history in a temporary SQLite file (never the
repository's data/ folder)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Page

from bench.harness import app_process
from sandbox import DEMO_KEY, SandboxServer
from tests.browser.tabs import LAPTOP_WIDTHS, BrowserProfile, ServedApp


@pytest.fixture(scope="module")
def served_app(
    sandbox: SandboxServer, browser: BrowserProfile, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServedApp]:
    """``streamlit run app.py`` for the module, its start page opened once before any test.

    The very first session of a fresh server may show a spurious "Page not found" dialog when it
    starts on another page's URL; after one visit to the start page, deep links open cleanly.
    (Checking that very first deep link is a test of its own, on a server of its own.)
    """
    folder = tmp_path_factory.mktemp("app")
    log = folder / "streamlit.log"
    with pytest.MonkeyPatch.context() as env:
        env.setenv("DASHBOARD_DATABASE_URL", f"sqlite:///{folder / 'history.sqlite3'}")
        with app_process(api_base=sandbox.base_url, api_key=DEMO_KEY, log_path=log) as app:
            with browser.app_tab(app.url):
                pass  # the module's first test goes on in this tab
            yield ServedApp(app.url, log)


@pytest.fixture(scope="module")
def sandbox_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServedApp]:
    """The app with no API key (Sandbox mode) and its history in a new temporary SQLite file: the first
    visit to the History or Alerts page seeds it with demo history (and the demo's alerts)."""
    folder = tmp_path_factory.mktemp("sandbox-app")
    log = folder / "streamlit.log"
    with pytest.MonkeyPatch.context() as env:
        env.setenv("DASHBOARD_DATABASE_URL", f"sqlite:///{folder / 'history.sqlite3'}")
        env.delenv("VERIFIEDDR_API_BASE", raising=False)
        with app_process(api_key=None, log_path=log) as app:
            yield ServedApp(app.url, log)


@pytest.fixture(scope="module")
def app_url(served_app: ServedApp) -> str:
    return served_app.url


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
