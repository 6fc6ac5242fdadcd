"""Debian's headless Chromium as the benchmarks and the browser tests launch it: one path, one list of
launch arguments, so a figure measured in ``bench/`` and a browser test see the same browser.

Playwright drives this system browser (never one it downloads). It is imported only when a browser is
launched, so importing this module costs nothing.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from playwright.sync_api import Browser

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
