"""The served app and browser tabs on it: open a page, wait until Streamlit's script run has ended, and
keep a screenshot in ``artifacts/`` for a person to look at (when asked for: ``SCREENSHOTS_ENV``).
Shared by every browser test module, so they all wait for the same thing before they read the page.

``BrowserProfile`` is the browser every browser test drives: its tabs share one on-disk profile, and a
tab already on the app moves to another address within its Streamlit session (``go_to``), as a person
moves through the app, rather than loading the front end again; ``app_tab`` hands such tabs from one
test to the next.

Also the one measure of a drawn table (``GRID_STATE``, ``drawn_tables``, ``assert_tables_fit``) that every
check of "this table fits a laptop-wide page" uses, so they all judge "fits" alike.
"""

from __future__ import annotations

import contextlib
import os
import re
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import BrowserContext, Locator, Page, ViewportSize
from playwright.sync_api import Error as PlaywrightError

from rigs import chromium

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
ColorScheme = Literal["dark", "light", "no-preference"]


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
    #: Tabs handed back at the end of an ``app_tab`` block, still on the app, by colour scheme.
    spare: dict[ColorScheme, list[Page]] = field(default_factory=dict)

    @contextlib.contextmanager
    def app_tab(
        self,
        url: str,
        *,
        width: int = VIEWPORT_WIDTH,
        height: int = 1000,
        color_scheme: ColorScheme = "light",
        ready: str = "h1",
    ) -> Iterator[Page]:
        """A tab on ``url`` for the block (see ``go_to``), handed back when the block ends.

        A tab handed back earlier that still shows this app goes to ``url`` in its Streamlit session, as
        a person moves through the app, instead of loading the front end again: a new tab costs several
        seconds of the machine's processor, going there in session a fraction of one. So the block
        must not leave listeners on the tab; a test that listens, or that needs a session of its own,
        takes ``new_page``.
        """
        spares = self.spare.setdefault(color_scheme, [])
        reused = next((tab for tab in spares if _shows_app_of(tab, url)), None)
        if reused is not None:
            spares.remove(reused)
        page = reused or self.new_page(color_scheme=color_scheme)
        page.set_viewport_size({"width": width, "height": height})
        go_to(page, url, ready=ready)
        try:
            yield page
        except BaseException:
            page.close()  # a tab left in the middle of something is no one's to reuse
            raise
        if not page.is_closed():
            spares.append(page)

    def new_page(
        self,
        *,
        viewport: ViewportSize | None = None,
        color_scheme: ColorScheme | None = None,
    ) -> Page:
        """A new tab of the profile, with ``viewport`` (else 1280 × 720) and ``color_scheme``."""
        page = self.launched.profile.new_page()
        page.add_init_script(COUNT_SERVER_MESSAGES)
        if viewport:
            page.set_viewport_size(viewport)
        if color_scheme:
            page.emulate_media(color_scheme=color_scheme)
        return page

    def tidy(self, shared_apps: set[str]) -> None:
        """As the next test module should find the browser: no tab but the spare ones on an app every
        module shares (``shared_apps``, their origins; a module's own app is gone with it), and no cookie
        (a cookie names no port, so a sign-in or nginx's route would follow the browser to the next app
        on 127.0.0.1)."""
        kept = {
            id(tab)
            for tabs in self.spare.values()
            for tab in tabs
            if not tab.is_closed() and origin(tab.url) in shared_apps
        }
        for scheme, tabs in self.spare.items():
            self.spare[scheme] = [tab for tab in tabs if id(tab) in kept]
        for tab in self.launched.profile.pages:
            if id(tab) not in kept:
                tab.close()
        self.launched.profile.clear_cookies()

    def new_context(self, **options: Any) -> BrowserContext:
        """A browser context sharing nothing with the profile or another context (Playwright's options)."""
        return self.launched.plain().new_context(**options)


@contextlib.contextmanager
def browser_profile() -> Iterator[BrowserProfile]:
    """A ``BrowserProfile`` for the block (its Chromiums closed when it ends)."""
    with chromium.launch_profile() as launched:
        yield BrowserProfile(launched)


@dataclass
class WorkerChromium:
    """The test process's one ``BrowserProfile``, launched on first use and kept from module to module:
    each launch starts a browser whose first visit to the app compiles Streamlit's front end again, and
    a tab left on an app every module shares (``shared_apps``) is the next module's without a load.

    Playwright's sync API keeps its event loop running in the process's main thread while the browser
    is open (``asyncio.run`` there fails), so a module that drives no browser ``close``s it first.
    """

    shared_apps: set[str] = field(default_factory=set)
    _running: contextlib.ExitStack | None = None
    _profile: BrowserProfile | None = None

    def profile(self) -> BrowserProfile:
        """The browser, launched now if it is not running."""
        if self._profile is None:
            if not os.path.exists(chromium.EXECUTABLE):
                missing = f"Browser tests need Debian's chromium at {chromium.EXECUTABLE}"
                pytest.fail(f"{missing}: apt-get install -y chromium")
            self._running = contextlib.ExitStack()
            self._profile = self._running.enter_context(browser_profile())
        return self._profile

    def share_app(self, url: str) -> None:
        """``url``'s app serves every module of the process: its spare tabs outlive a module."""
        self.shared_apps.add(origin(url))

    def close(self) -> None:
        """Close the browser (if running); the next ``profile`` launches another."""
        if self._running is not None:
            running, self._running, self._profile = self._running, None, None
            running.close()


def new_tab(browser: BrowserProfile, *, height: int = 1000) -> Page:
    """A new tab (its own Streamlit session) with a desktop-sized viewport."""
    return browser.new_page(viewport={"width": VIEWPORT_WIDTH, "height": height})


#: The app's root element, which says whether the page is connected and whether a script run is going on.
APP_ROOT = '[data-testid="stApp"]'
#: The app's sidebar (navigation, connection, the open-alert count).
SIDEBAR = '[data-testid="stSidebar"]'
#: Added to every tab of the profile before its page loads: counts the messages the app's server sends,
#: and notes when the last one came and when the page last sent one (every message the page sends, a
#: script run asked for or a heartbeat, is answered).
COUNT_SERVER_MESSAGES = """(() => {
  window.__serverMessages = 0;
  window.__lastServerMessageAt = 0;
  window.__lastSentAt = 0;
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', () => {
        window.__serverMessages += 1;
        window.__lastServerMessageAt = performance.now();
      });
    }
    send(data) {
      window.__lastSentAt = performance.now();
      return super.send(data);
    }
  };
})();"""
#: In the tab: go to the address given as Streamlit's own Back and Forward do (its ``popstate`` listener
#: runs the page of the new address with its query, in the same session). ``NAVIGATED`` resolves once the
#: server has answered, then sent nothing for ``QUIET_MS``, and no script run is going on. (The run's
#: state alone can't tell: a quick run's start and end may reach the page in one redraw, leaving the
#: state as it was.)
QUIET_MS = 250
NAVIGATE_IN_SESSION = """([url, rootSelector, timeoutMs, quietMs]) => {
  const root = document.querySelector(rootSelector);
  const before = window.__serverMessages;
  const started = performance.now();
  window.__navigated = new Promise((resolve, reject) => {
    const poll = setInterval(() => {
      const now = performance.now();
      const count = window.__serverMessages;
      const state = root.getAttribute('data-test-script-state');
      if (count > before && now - window.__lastServerMessageAt >= quietMs && state === 'notRunning') {
        clearInterval(poll); resolve();
      } else if (now - started > timeoutMs) {
        clearInterval(poll);
        reject(new Error(`no script run ended after going to ${url} (${count - before} messages, ${state})`));
      }
    }, 50);
  });
  history.pushState(null, '', url);
  dispatchEvent(new PopStateEvent('popstate'));
}"""
NAVIGATED = "() => window.__navigated"


def go_to(page: Page, url: str, *, ready: str = "h1") -> None:
    """Navigate ``page`` to ``url`` and return once ``ready`` is there and the script run has ended."""
    go_to_each([page], url, ready=ready)


def go_to_each(pages: Iterable[Page], url: str, *, ready: str = "h1") -> None:
    """``go_to`` in several tabs at once: every tab starts loading before any is waited for, so their
    script runs overlap instead of queueing.

    A tab already showing this app goes there within its Streamlit session, as a person following a
    link inside the app does, instead of loading the whole front end again (several seconds of the
    machine's processor per load, against a fraction of one). A tab elsewhere loads the address.
    """
    opened = list(pages)
    in_session = [page for page in opened if _shows_app_of(page, url)]
    for page in opened:
        if page in in_session:
            page.evaluate(NAVIGATE_IN_SESSION, [url, APP_ROOT, TIMEOUT_MS, QUIET_MS])
        else:
            page.goto(url, wait_until="domcontentloaded")
    for page in in_session:
        page.evaluate(NAVIGATED)
    for page in opened:
        page.locator(ready).first.wait_for(timeout=TIMEOUT_MS)
        settled(page)


def origin(url: str) -> str:
    """``url``'s scheme, host and port."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def _shows_app_of(page: Page, url: str) -> bool:
    """Whether ``page`` shows the app served at ``url``'s origin, connected to its server."""
    if origin(page.url) != origin(url):
        return False
    connected = page.locator(f'{APP_ROOT}[data-test-connection-state="CONNECTED"]').count() == 1
    return connected and _hears_the_server(page)


def _hears_the_server(page: Page) -> bool:
    """Whether ``page`` runs ``COUNT_SERVER_MESSAGES`` (every tab of the profile does; a browser context of
    a test's own only if it added the script)."""
    return bool(page.evaluate("() => window.__serverMessages !== undefined"))


#: In the tab: resolves once what the page last sent has been answered, the server has then sent nothing
#: for ``QUIET_MS`` and no script run is going on, and at least ``SETTLE_GRACE_MS`` after the call. (A
#: click's rerun request leaves the page a moment after the click, in a timer of Streamlit's own: the
#: grace lets it go, so it counts as sent. The quiet time is the one ``NAVIGATED`` keeps: with 120 ms, a
#: download clicked on a first visit to the Reports page once found its file gone, a later run of the
#: page having begun after the quiet time.)
SETTLE_GRACE_MS = 60
SETTLE = """([rootSelector, timeoutMs, graceMs, quietMs]) => new Promise((resolve, reject) => {
  const root = document.querySelector(rootSelector);
  const started = performance.now();
  const poll = setInterval(() => {
    const now = performance.now();
    // A page just loaded has had no answer yet: its first script run is still to come.
    const answered = window.__serverMessages > 0 && window.__lastServerMessageAt >= window.__lastSentAt;
    const quiet = now - window.__lastServerMessageAt >= quietMs;
    const state = root && root.getAttribute('data-test-script-state');
    if (now - started >= graceMs && answered && quiet && state === 'notRunning') {
      clearInterval(poll); resolve();
    } else if (now - started > timeoutMs) {
      clearInterval(poll);
      reject(new Error(`the script run did not end (${state}, answered: ${answered})`));
    }
  }, 20);
})"""


def settled(page: Page, *, linger_ms: int = 0) -> None:
    """Wait until Streamlit has finished the script run the page last asked for: what the page sent has
    been answered, the server has gone quiet and the run's state is "not running" (``SETTLE``). Nothing
    is waited for once that holds, and a machine slow to answer is waited for, where a fixed pause
    would be too long for one and too short for the other.

    A tab opened without ``COUNT_SERVER_MESSAGES`` (a browser context of its own) can't say what it
    sent: there a fixed 300 ms gives a run asked for time to start before its status widget is read.

    ``linger_ms`` gives components and iframes time to draw after the run, for checks that read the
    whole page rather than one element.

    Brings the tab to the front first, as a person looks at the tab they wait on: Chromium draws the
    profile's other tabs only now and then, so a table there may keep a stale width for a second.
    """
    page.bring_to_front()
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    while True:
        try:
            if _hears_the_server(page):
                page.evaluate(SETTLE, [APP_ROOT, TIMEOUT_MS, SETTLE_GRACE_MS, QUIET_MS])
            else:
                page.wait_for_timeout(300)
            break
        except PlaywrightError as error:
            # The page loaded another address meanwhile (a sign-in landing on its deep link): wait on that.
            if "context was destroyed" not in error.message or time.monotonic() > deadline:
                raise
            page.locator(APP_ROOT).wait_for(timeout=TIMEOUT_MS)
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
    page.bring_to_front()  # the tab in front is drawn at once (see ``settled``)
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
