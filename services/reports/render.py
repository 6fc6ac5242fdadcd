"""Charts to SVG through one long-lived Chromium, and HTML to PDF through WeasyPrint.

Charts: plotly's own exporter, kaleido 1.x, drives the system's Chromium (``/usr/bin/chromium``, or
``BROWSER_PATH``). Starting a browser costs seconds, so a process keeps one renderer (one browser, one
page with plotly.js loaded) for every chart it draws, started early by a page about to draw a report
(``warm``); calls are serialised and each is bounded by a timeout, because a renderer whose browser
died would otherwise wait forever. MathJax is off and topojson is never fetched: no page here may reach
the network. Nor may the browser itself: Chromium otherwise makes background requests of its own while
it draws (component and update checks, sign-in, optimisation hints, safe browsing lists, metrics), so it
starts with the flags that turn them off (``QUIET_FLAGS``, added to the ones kaleido's browser library,
choreographer, passes).

PDF: WeasyPrint, a print-CSS engine that is a library (no browser, no JavaScript): ``@page`` margins,
page numbers and table headers repeated on every page come from the template's CSS.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import logging
import os
import shutil
import threading
import warnings
from collections.abc import Callable, Coroutine
from concurrent.futures import TimeoutError as FutureTimeout
from typing import TYPE_CHECKING, Any, TypeVar

from cachetools import LRUCache

from services.reports.drawings import drawing_digest

if TYPE_CHECKING:
    import plotly.graph_objects as go

T = TypeVar("T")

#: How many charts the renderer's page draws before it is loaded afresh (kaleido reloads it after each).
RELOAD_EVERY = 50
#: How many characters of drawn charts the renderer keeps, to hand back when asked for the same again.
SVG_BYTES = 16 * 1024 * 1024
#: How long one chart may take before the report says the renderer is stuck (kaleido's own bound
#: is the same; ours also covers a renderer whose browser is gone).
CHART_TIMEOUT_S = 60.0
BROWSER_NAMES = ("chromium", "chromium-browser", "google-chrome", "chrome")
#: Chromium's own background requests, off: nothing but the chart page runs in the renderer.
QUIET_FLAGS: tuple[str, ...] = (
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--no-default-browser-check",
    "--no-pings",
    "--disable-default-apps",
    "--disable-domain-reliability",
    "--disable-client-side-phishing-detection",
    "--disable-breakpad",
    "--metrics-recording-only",
    "--safebrowsing-disable-auto-update",
    "--disable-features=OptimizationHints,OptimizationHintsFetching,OptimizationGuideModelDownloading,"
    "OptimizationTargetPrediction,Translate,MediaRouter,AutofillServerCommunication,"
    "CertificateTransparencyComponentUpdater,InterestFeedContentSuggestions,SafeBrowsingEnhancedProtection",
)


class RendererUnavailable(RuntimeError):
    """Charts cannot be drawn as images here; the message says what is missing, in plain words."""


class PdfUnavailable(RuntimeError):
    """The PDF cannot be made here; the message says what is missing, in plain words."""


def browser_path() -> str | None:
    """The Chromium kaleido will drive: ``BROWSER_PATH`` when set, else the first one on the PATH."""
    configured = os.environ.get("BROWSER_PATH", "").strip()
    if configured:
        return configured if os.access(configured, os.X_OK) else None
    for name in BROWSER_NAMES:
        found = shutil.which(name)
        if found:
            return found
    return None


def missing_browser_words() -> str:
    return (
        "Charts in a PDF are drawn by Chromium, which this machine does not have: install it "
        "(Debian: apt-get install chromium) or set BROWSER_PATH to a Chrome or Chromium program."
    )


def quiet_chromium() -> type[Any]:
    """choreographer's Chromium launcher, starting the browser with ``QUIET_FLAGS`` too (choreographer
    takes no extra arguments of its own, so its command line is extended here; a flag it already
    passes is not repeated)."""
    from choreographer.browsers.chromium import Chromium

    class QuietChromium(Chromium):
        def get_cli(self) -> list[str]:
            cli = list(super().get_cli())
            return cli + [flag for flag in QUIET_FLAGS if flag not in cli]

    return QuietChromium


class ChartRenderer:
    """One Chromium (one kaleido page) for this process; ``svg`` draws one figure.

    kaleido runs on asyncio, so the renderer keeps its own event loop on a daemon thread and hands it
    each chart. kaleido's own long-lived server would do the same, but it reloads its page (plotly.js
    parsed again) after every chart: two thirds of a chart's time here. This one reloads it after
    ``RELOAD_EVERY`` charts. A chart that fails or gives no answer within the timeout closes the
    browser; the next chart starts a new one. A chart already drawn at the same size is not drawn again
    (``SVG_BYTES`` of them are kept): a report rebuilt from an unchanged history costs no chart, and its
    HTML (and so its kept PDF) stays the same.
    """

    def __init__(self, timeout_s: float = CHART_TIMEOUT_S) -> None:
        self.timeout_s = timeout_s
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._page: Any = None
        self._drawn: LRUCache[str, str] = LRUCache(SVG_BYTES, getsizeof=len)

    def warm(self) -> None:
        """Start the browser now, in the background, so the first chart does not wait for it (a page
        that will draw a report calls this first thing). A browser that cannot start here is named by
        the first ``svg`` instead."""

        def start() -> None:
            with self._lock, contextlib.suppress(RendererUnavailable):
                self._started()

        threading.Thread(target=start, name="chart-renderer-start", daemon=True).start()

    def svg(self, figure: go.Figure, width: int, height: int) -> str:
        """The figure as an SVG document; RendererUnavailable when no chart can be drawn here."""
        drawing = drawing_digest(figure, width, height)
        options: dict[str, Any] = {"format": "svg", "width": width, "height": height, "scale": 1}
        with self._lock:
            kept = self._drawn.get(drawing)
            if kept is not None:
                return kept
            page = self._started()
            image = self._run(lambda: page.calc_fig(figure, opts=options, topojson=None), self.timeout_s + 5)
            text = image.decode("utf-8") if isinstance(image, bytes) else str(image)
            if len(text) <= SVG_BYTES:
                self._drawn[drawing] = text
            return text

    def _started(self) -> Any:
        """The open kaleido page, its browser started when there is none; under ``_lock``."""
        if self._page is not None:
            return self._page
        path = browser_path()
        if path is None:
            raise RendererUnavailable(missing_browser_words())
        os.environ.setdefault("BROWSER_PATH", path)
        if self._loop is None:
            self._loop = asyncio.new_event_loop()
            threading.Thread(target=self._loop.run_forever, name="chart-renderer", daemon=True).start()
            atexit.register(self.close)
        self._page = self._run(lambda: _open_page(self.timeout_s), self.timeout_s)
        return self._page

    def _run(self, work: Callable[[], Coroutine[Any, Any, T]], within_s: float) -> T:
        """``work`` on the renderer's loop, within ``within_s``; RendererUnavailable, the browser
        closed, when it fails or gives no answer in time."""
        assert self._loop is not None
        running = asyncio.run_coroutine_threadsafe(work(), self._loop)
        try:
            return running.result(timeout=within_s)
        except FutureTimeout:
            running.cancel()
            words = (
                f"The chart renderer (Chromium) gave no answer within {within_s:.0f} s; "
                "the next chart starts a new one."
            )
        except Exception as exc:
            words = f"A chart could not be drawn: {type(exc).__name__}: {exc}"
        self._close_page()
        raise RendererUnavailable(words)

    def _close_page(self) -> None:
        page, self._page = self._page, None
        if page is None or self._loop is None:
            return
        try:
            asyncio.run_coroutine_threadsafe(page.close(), self._loop).result(timeout=10)
        except Exception:  # a browser that will not close is ended
            with contextlib.suppress(Exception):
                page.subprocess.kill()

    def close(self) -> None:
        """Stop the browser (and the loop that drove it); a later chart starts another."""
        with self._lock:
            self._close_page()
            loop, self._loop = self._loop, None
            if loop is not None:
                loop.call_soon_threadsafe(loop.stop)


async def _open_page(timeout_s: float) -> Any:
    """kaleido's page on a new quiet Chromium, reloaded after ``RELOAD_EVERY`` charts rather than each."""
    import kaleido

    class ReusedPage(kaleido.Kaleido):
        drawn_since_reload = 0

        async def _return_kaleido_tab(self, tab: Any) -> None:
            self.drawn_since_reload += 1
            if self.drawn_since_reload >= RELOAD_EVERY:
                self.drawn_since_reload = 0
                await tab.reload()
            await self.tabs_ready.put(tab)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        page = ReusedPage(n=1, mathjax=False, timeout=timeout_s, browser_cls=quiet_chromium())
        try:
            await page.open()
        except BaseException:
            with contextlib.suppress(Exception):
                await page.close()
            raise
    return page


_shared: ChartRenderer | None = None
_shared_lock = threading.Lock()


def shared_renderer() -> ChartRenderer:
    """The process's one renderer (made on first use; its Chromium starts with the first chart)."""
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = ChartRenderer()
        return _shared


def html_to_pdf(html: str) -> bytes:
    """The report's HTML printed to PDF (A4, its own ``@page`` CSS); PdfUnavailable when WeasyPrint or
    its system libraries (Pango) are missing."""
    try:
        from weasyprint import HTML
    except (ImportError, OSError) as exc:
        raise PdfUnavailable(
            "PDFs are printed by WeasyPrint, which cannot start here "
            f"({type(exc).__name__}): install the requirements and Debian's libpango-1.0-0."
        ) from None
    # WeasyPrint warns of every CSS property of plotly's SVG it does not print (fill-opacity: 1…):
    # noise in a cron mail, never news to a reader.
    logging.getLogger("weasyprint").setLevel(logging.ERROR)
    logging.getLogger("fontTools").setLevel(logging.ERROR)
    pdf = HTML(string=html, base_url=None).write_pdf()
    if pdf is None:  # only when a target is given; kept for the type checker
        raise PdfUnavailable("WeasyPrint returned no PDF.")
    return bytes(pdf)
