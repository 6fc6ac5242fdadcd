"""The served app and browser tabs on it: open a page, wait until Streamlit's script run has ended, and
keep a screenshot in ``artifacts/`` for a person to look at (when asked for: ``SCREENSHOTS_ENV``).
Shared by every browser test module, so they all wait for the same thing before they read the page.

``BrowserProfile`` is the browser every browser test drives: its tabs share one on-disk profile.

Also the one measure of a drawn table (``GRID_STATE``, ``drawn_tables``, ``assert_tables_fit``) that every
check of "this table fits a laptop-wide page" uses, so they all judge "fits" alike.
"""

from __future__ import annotations

import contextlib
import os
import re
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from playwright.sync_api import BrowserContext, Locator, Page, ViewportSize

from bench import chromium

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
#: Set (to anything) to keep the screenshots in ``artifacts/``, e.g. for the guides' pictures.
SCREENSHOTS_ENV = "DASHBOARD_TEST_SCREENSHOTS"
#: Generous: other test runs may share the machine's two cores.
TIMEOUT_MS = 60_000
VIEWPORT_WIDTH = 1400
#: The laptop widths every table must fit (the viewport, sidebar included).
LAPTOP_WIDTHS = (1440, 1280)
TABLE = '[data-testid="stDataFrame"]'
#: Per drawn table: its width, its column count, the headers the grid actually draws, and by how much its
#: content is wider than the table (then columns sit off to the right, behind a horizontal scroll).
GRID_STATE = """grid => {
  const table = grid.querySelector('table[role=grid]');
  const scroller = grid.querySelector('.dvn-scroller');
  return {
    width: grid.getBoundingClientRect().width,
    columns: table ? Number(table.getAttribute('aria-colcount')) : 0,
    drawn: [...grid.querySelectorAll('th[role=columnheader]')].map(th => th.textContent),
    overflow: scroller ? scroller.scrollWidth - scroller.clientWidth : 0,
  };
}"""
#: How long the drawn tables must hold still to count as drawn, and how long to wait for that at most.
STILL_MS = 150
DRAW_TIMEOUT_S = 10.0


@dataclass(frozen=True)
class ServedApp:
    """The app served by Streamlit for a test module: its address, and the file it prints to."""

    url: str
    log: Path


@dataclass
class BrowserProfile:
    """One headless Chromium for a test module, as a person's browser: its tabs (``new_page``) share a
    profile on disk, so a page loaded before comes from the browser's caches, its scripts already
    compiled; each tab is still a Streamlit session of its own. Someone else at another desk (other
    cookies: another signed-in person) is ``new_context``, in a second Chromium started on first use.
    """

    launched: chromium.ProfileChromium

    def new_page(
        self,
        *,
        viewport: ViewportSize | None = None,
        color_scheme: Literal["dark", "light", "no-preference"] | None = None,
    ) -> Page:
        """A new tab of the profile, with ``viewport`` (else 1280 × 720) and ``color_scheme``."""
        page = self.launched.profile.new_page()
        if viewport:
            page.set_viewport_size(viewport)
        if color_scheme:
            page.emulate_media(color_scheme=color_scheme)
        return page

    def new_context(self, **options: Any) -> BrowserContext:
        """A browser context sharing nothing with the profile or another context (Playwright's options)."""
        return self.launched.plain().new_context(**options)


@contextlib.contextmanager
def browser_profile() -> Iterator[BrowserProfile]:
    """A ``BrowserProfile`` for the block (its Chromiums closed when it ends)."""
    with chromium.launch_profile() as launched:
        yield BrowserProfile(launched)


def new_tab(browser: BrowserProfile, *, height: int = 1000) -> Page:
    """A new tab (its own Streamlit session) with a desktop-sized viewport."""
    return browser.new_page(viewport={"width": VIEWPORT_WIDTH, "height": height})


def go_to(page: Page, url: str, *, ready: str = "h1") -> None:
    """Navigate ``page`` to ``url`` and return once ``ready`` is there and the script run has ended."""
    page.goto(url, wait_until="domcontentloaded")
    page.locator(ready).first.wait_for(timeout=TIMEOUT_MS)
    settled(page)


def go_to_each(pages: Iterable[Page], url: str, *, ready: str = "h1") -> None:
    """``go_to`` in several tabs at once: every tab starts loading before any is waited for, so their
    script runs overlap instead of queueing."""
    opened = list(pages)
    for page in opened:
        page.goto(url, wait_until="domcontentloaded")
    for page in opened:
        page.locator(ready).first.wait_for(timeout=TIMEOUT_MS)
        settled(page)


def open_app_page(browser: BrowserProfile, url: str, *, height: int = 1000) -> Page:
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


def screenshot(shown: Page | Locator, name: str, *, full_page: bool = True) -> None:
    """``artifacts/<name>.png``: what the page (or one part of it) looked like, for a person; nothing
    asserts on it. Only with ``SCREENSHOTS_ENV`` set: a long page's full-size picture costs seconds of
    the machine the whole suite shares, for a file nobody looks at on most runs."""
    if not os.environ.get(SCREENSHOTS_ENV):
        return
    ARTIFACTS.mkdir(exist_ok=True)
    path = str(ARTIFACTS / f"{name}.png")
    if isinstance(shown, Locator):
        shown.screenshot(path=path)
    else:
        shown.screenshot(path=path, full_page=full_page)


def drawn_tables(page: Page, *, count: int = 1) -> list[dict]:
    """The state of every table on screen (see ``GRID_STATE``), once at least ``count`` tables have drawn
    their columns and held still for ``STILL_MS``; a table in a closed tab or fold has no width and is
    left out. Call it after the script run has ended (``go_to``, ``settled``). Polls instead of sleeping
    a fixed time, so a quick page is read as soon as it is drawn."""
    page.locator(f"{TABLE} table[role=grid]").first.wait_for(state="attached", timeout=TIMEOUT_MS)
    deadline = time.monotonic() + DRAW_TIMEOUT_S
    previous: list[dict] | None = None
    while True:
        states = [
            s for s in page.locator(TABLE).evaluate_all(f"grids => grids.map({GRID_STATE})") if s["width"]
        ]
        drawn = len(states) >= count and all(s["columns"] and s["drawn"] for s in states)
        if (drawn and states == previous) or time.monotonic() > deadline:
            return states
        previous = states if drawn else None
        page.wait_for_timeout(STILL_MS)


def assert_tables_fit(tables: list[dict], where: str) -> None:
    """Each table shows all its columns inside the page: no sideways overflow, every header drawn."""
    assert tables, f"{where}: no table drawn"
    for table in tables:
        assert table["overflow"] <= 1, f"{where}: {table} is wider than the page"
        assert len(table["drawn"]) == table["columns"], f"{where}: columns cut off: {table}"


#: The invisible word joiner ``escape_md`` puts into the service's text (after a ``:``, before an ``@``)
#: so that Markdown can't turn it into a link; a person reads the text without it.
WORD_JOINER = "\u2060"


def read_text(page: Page, selector: str = "body") -> str:
    """The text of ``selector`` as a person reads it (without the invisible word joiners)."""
    return page.inner_text(selector).replace(WORD_JOINER, "")


def as_shown(text: str) -> re.Pattern[str]:
    """A pattern matching ``text`` as the page holds it: service text carries invisible word joiners
    after a ``:`` and before an ``@`` (for a locator's ``has_text``)."""
    optional = f"{WORD_JOINER}?"
    pieces = {":": ":" + optional, "@": optional + "@"}
    joined = "".join(pieces.get(part) or re.escape(part) for part in re.split(r"(:|@)", text))
    return re.compile(joined)
