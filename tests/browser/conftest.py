"""Fixtures of the browser tests: one headless Chromium per module (launched as ``bench/`` launches
it) and the app served by Streamlit on loopback in Live mode against the session sandbox."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser

from bench import chromium
from bench.harness import app_process
from sandbox import DEMO_KEY, SandboxServer
from tests.browser.tabs import ServedApp, open_app_page


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not os.path.exists(chromium.EXECUTABLE):
        pytest.fail(
            f"Browser tests need Debian's chromium at {chromium.EXECUTABLE}: apt-get install -y chromium"
        )
    with chromium.launch() as launched:
        yield launched


@pytest.fixture(scope="module")
def served_app(
    sandbox: SandboxServer, browser: Browser, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServedApp]:
    """``streamlit run app.py`` for the module, its start page opened once before any test.

    The very first session of a fresh server may show a spurious "Page not found" dialog when it
    starts on another page's URL; after one visit to the start page, deep links open cleanly.
    (Checking that very first deep link is a test of its own, on a server of its own.)
    """
    log = tmp_path_factory.mktemp("app") / "streamlit.log"
    with app_process(api_base=sandbox.base_url, api_key=DEMO_KEY, log_path=log) as app:
        open_app_page(browser, app.url).close()
        yield ServedApp(app.url, log)


@pytest.fixture(scope="module")
def app_url(served_app: ServedApp) -> str:
    return served_app.url
