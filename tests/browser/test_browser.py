"""What a person sees: the app served by Streamlit, driven in a real headless Debian Chromium."""

from __future__ import annotations

import contextlib
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from client import ApiClient
from sandbox import DEMO_KEY, SandboxServer

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait_healthy(url: str, proc: subprocess.Popen[bytes], timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"streamlit exited early with {proc.returncode}")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
                if response.read().strip() == b"ok":
                    return
        except OSError:
            time.sleep(0.2)
    raise TimeoutError("streamlit did not become healthy")


@contextlib.contextmanager
def serve_app(api_base: str, api_key: str, log_path: Path) -> Iterator[str]:
    """``streamlit run app.py`` on a free loopback port in Live mode; its output goes to ``log_path``."""
    port = _free_port()
    env = {**os.environ, "VERIFIEDDR_API_BASE": api_base, "VERIFIEDDR_API_KEY": api_key}
    with log_path.open("wb") as log:
        proc = subprocess.Popen(
            [
                sys.executable, "-m", "streamlit", "run", "app.py",
                "--server.headless", "true",
                "--server.address", "127.0.0.1",
                "--server.port", str(port),
                "--browser.gatherUsageStats", "false",
                "--server.fileWatcherType", "none",
            ],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )  # fmt: skip
        url = f"http://127.0.0.1:{port}"
        try:
            _wait_healthy(url, proc)
            yield url
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()


@pytest.fixture(scope="module")
def app_url(sandbox: SandboxServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The app served by Streamlit on loopback, in Live mode against the test sandbox."""
    with serve_app(sandbox.base_url, DEMO_KEY, tmp_path_factory.mktemp("app") / "streamlit.log") as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"Browser tests need Debian's chromium at {CHROMIUM}: apt-get install -y chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


def _settled(page) -> None:  # type: ignore[no-untyped-def]
    """Wait until Streamlit has finished the current script run."""
    page.wait_for_timeout(300)
    page.wait_for_selector('[data-testid="stStatusWidget"]', state="detached", timeout=30_000)


def test_typing_a_domain_shows_its_dr(app_url: str, browser, sandbox: SandboxServer) -> None:  # type: ignore[no-untyped-def]
    domain = "stripe.com"
    with ApiClient(sandbox.base_url, DEMO_KEY) as client:
        expected_dr = client.lookup(domain).authority.dr
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    try:
        page.goto(app_url, wait_until="domcontentloaded")
        field = page.get_by_label("Domain", exact=True)
        field.wait_for(timeout=30_000)
        field.fill(domain)
        field.press("Enter")
        dr_metric = page.locator('[data-testid="stMetric"]').filter(
            has=page.locator('[data-testid="stMetricLabel"]', has_text=re.compile(r"^DR$"))
        )
        dr_metric.first.wait_for(timeout=30_000)
        value = dr_metric.first.locator('[data-testid="stMetricValue"]').inner_text()
        assert value.strip() == str(expected_dr)
        page.locator(".js-plotly-plot .main-svg").first.wait_for(timeout=30_000)
        assert f"domain={domain}" in page.url  # the view can be shared
        _settled(page)
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "overview.png"), full_page=True)
    finally:
        page.close()


def test_a_deep_link_as_a_fresh_servers_first_request_runs_the_whole_app(
    sandbox: SandboxServer,
    browser,
    tmp_path: Path,  # type: ignore[no-untyped-def]
) -> None:
    """A shared link must show the app with its sidebar even when nobody opened the app before."""
    with serve_app(sandbox.base_url, DEMO_KEY, tmp_path / "streamlit.log") as url:
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        try:
            page.goto(f"{url}/trust-map?domain=stripe.com", wait_until="domcontentloaded")
            sidebar = page.locator('[data-testid="stSidebar"]')
            sidebar.get_by_text("Connection", exact=True).wait_for(timeout=30_000)
            assert sidebar.get_by_role("link", name="Trust Map").count() == 1
            page.locator(".js-plotly-plot .main-svg").first.wait_for(timeout=30_000)
            assert page.get_by_text("Page not found").count() == 0
        finally:
            page.close()


def test_the_domain_stays_when_switching_pages_in_the_sidebar(app_url: str, browser) -> None:  # type: ignore[no-untyped-def]
    """A sidebar link carries no query string; the domain typed on one page is still there on the next."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    try:
        page.goto(f"{app_url}/?domain=stripe.com", wait_until="domcontentloaded")
        page.locator('[data-testid="stMetric"]').first.wait_for(timeout=30_000)
        _settled(page)
        page.locator('[data-testid="stSidebarNav"]').get_by_role("link", name="Trust Map", exact=True).click()
        page.get_by_role("heading", name="Trust Map").first.wait_for(timeout=30_000)
        field = page.get_by_role("textbox", name="Domain", exact=True)
        field.wait_for(timeout=30_000)
        try:
            page.locator(".js-plotly-plot .main-svg").first.wait_for(timeout=30_000)
        finally:
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / "sidebar-switch.png"))
        assert field.input_value() == "stripe.com"
    finally:
        page.close()
