"""Debian's headless Chromium as the benchmarks and the browser tests launch it: one path, one list of
launch arguments, so a figure measured in ``bench/`` and a browser test see the same browser.

Playwright drives this system browser (never one it downloads). It is imported only when a browser is
launched, so importing this module costs nothing.
"""

from __future__ import annotations

import contextlib
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
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


@contextlib.contextmanager
def launch() -> Iterator[Browser]:
    """A running Chromium for the duration of the block, closed when it ends."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=EXECUTABLE, args=list(LAUNCH_ARGS))
        try:
            yield browser
        finally:
            browser.close()


@dataclass
class ProfileChromium:
    """A Chromium with a profile on disk (``profile``), and plain ones launched beside it on demand
    (``launch_plain``; Playwright's sync API runs one driver per thread, so they share it)."""

    profile: BrowserContext
    playwright: Playwright
    plain: list[Browser] = field(default_factory=list)

    def launch_plain(self) -> Browser:
        """Another Chromium, as ``launch`` starts it, closed with the profile's."""
        browser = self.playwright.chromium.launch(executable_path=EXECUTABLE, args=list(LAUNCH_ARGS))
        self.plain.append(browser)
        return browser


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
            for browser in launched.plain:
                browser.close()
            profile.close()
