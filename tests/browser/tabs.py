"""The served app and browser tabs on it: open a page, wait until Streamlit's script run has ended, and
keep a screenshot in ``artifacts/`` for a person to look at. Shared by every browser test module, so they
all wait for the same thing before they read the page."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
#: Generous: other test runs may share the machine's two cores.
TIMEOUT_MS = 60_000
VIEWPORT_WIDTH = 1400


@dataclass(frozen=True)
class ServedApp:
    """The app served by Streamlit for a test module: its address, and the file it prints to."""

    url: str
    log: Path


def new_tab(browser: Browser, *, height: int = 1000, **options: Any) -> Page:
    """A new tab (its own Streamlit session) with a desktop-sized viewport."""
    return browser.new_page(viewport={"width": VIEWPORT_WIDTH, "height": height}, **options)


def go_to(page: Page, url: str, *, ready: str = "h1") -> None:
    """Navigate ``page`` to ``url`` and return once ``ready`` is there and the script run has ended."""
    page.goto(url, wait_until="domcontentloaded")
    page.locator(ready).first.wait_for(timeout=TIMEOUT_MS)
    settled(page)


def open_app_page(browser: Browser, url: str, *, height: int = 1000) -> Page:
    """A new tab on ``url`` once the page has drawn its title and its script run has ended."""
    page = new_tab(browser, height=height)
    go_to(page, url)
    return page


def settled(page: Page, *, linger_ms: int = 0) -> None:
    """Wait until Streamlit has finished the current script run (its status widget is gone).

    ``linger_ms`` gives components and iframes time to draw after the run, for checks that read the
    whole page rather than one element.
    """
    page.wait_for_timeout(300)
    page.wait_for_selector('[data-testid="stStatusWidget"]', state="detached", timeout=TIMEOUT_MS)
    if linger_ms:
        page.wait_for_timeout(linger_ms)


def screenshot(page: Page, name: str, *, full_page: bool = True) -> None:
    """``artifacts/<name>.png``: what the page looked like, for a person (nothing asserts on it)."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=full_page)
