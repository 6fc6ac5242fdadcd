"""Debian's headless Chromium as the benchmarks and the browser tests launch it: one path, one list of
launch arguments, so a figure measured in ``bench/`` and a browser test see the same browser.

Playwright drives this system browser (never one it downloads). It is imported only when a browser is
launched, so importing this module costs nothing.
"""

from __future__ import annotations

import contextlib
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Playwright

#: Debian's ``chromium`` package; ``.ci/run`` installs it when it is missing.
EXECUTABLE = "/usr/bin/chromium"
#: Headless and quiet: no GPU, no QUIC, and none of the background traffic a first run would start.
LAUNCH_ARGS: tuple[str, ...] = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)


def _launch_on(playwright: Playwright) -> Browser:
    """Debian's Chromium with ``LAUNCH_ARGS``, started by ``playwright``."""
    return playwright.chromium.launch(executable_path=EXECUTABLE, args=list(LAUNCH_ARGS))


@contextlib.contextmanager
def launch() -> Iterator[Browser]:
    """A running Chromium for the duration of the block, closed when it ends."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = _launch_on(playwright)
        try:
            yield browser
        finally:
            browser.close()


@dataclass
class ProfileChromium:
    """A Chromium with a profile on disk (``profile``), and a plain one beside it on demand
    (``plain``; Playwright's sync API runs one driver per thread, so they share it)."""

    profile: BrowserContext
    playwright: Playwright
    _plain: Browser | None = None

    def plain(self) -> Browser:
        """The plain Chromium, as ``launch`` starts it (on the first call), closed with the profile's."""
        if self._plain is None:
            self._plain = _launch_on(self.playwright)
        return self._plain

    def close(self) -> None:
        if self._plain is not None:
            self._plain.close()
        self.profile.close()


@contextlib.contextmanager
def launch_profile() -> Iterator[ProfileChromium]:
    """A running Chromium with a profile of its own on disk (removed when the block ends): its tabs share
    cookies and the browser's caches, the compiled-script cache included, as a person's browser does.

    A fresh context (``launch``'s ``new_page``) keeps everything in memory and compiles Streamlit's
    front end anew on every page load: its page process then spends about 1.7 times the processor
    time of a load in a profile that has seen the page before (``docs/development.md``, "Tests by
    kind"). The benchmarks keep ``launch``: a first visit is what they measure.
    """
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="chromium-profile-") as folder, sync_playwright() as playwright:
        profile = playwright.chromium.launch_persistent_context(
            folder, executable_path=EXECUTABLE, args=list(LAUNCH_ARGS), accept_downloads=True
        )
        launched = ProfileChromium(profile, playwright)
        try:
            yield launched
        finally:
            launched.close()
