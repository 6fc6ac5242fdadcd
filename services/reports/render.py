"""Charts to SVG through one long-lived Chromium, and HTML to PDF through WeasyPrint.

Charts: plotly's own exporter, kaleido 1.x, drives the system's Chromium (``/usr/bin/chromium``, or
``BROWSER_PATH``). Starting a browser costs seconds, so a process keeps one renderer
(``kaleido.start_sync_server``) for every chart it draws; calls are serialised (kaleido's sync server
pairs answers with questions in order) and each is bounded by a timeout, because a renderer whose
browser died would otherwise wait forever. MathJax is off and topojson is never fetched: no page here
may reach the network. Nor may the browser itself: Chromium otherwise makes background requests of its
own while it draws (component and update checks, sign-in, optimisation hints, safe browsing lists,
metrics), so it starts with the flags that turn them off (``QUIET_FLAGS``, added to the ones kaleido's
browser library, choreographer, passes).

PDF: WeasyPrint, a print-CSS engine that is a library (no browser, no JavaScript): ``@page`` margins,
page numbers and table headers repeated on every page come from the template's CSS.
"""

from __future__ import annotations

import logging
import os
import shutil
import threading
import warnings
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import plotly.graph_objects as go

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
    """One kaleido server (one Chromium) for this process; ``svg`` draws one figure."""

    def __init__(self, timeout_s: float = CHART_TIMEOUT_S) -> None:
        self.timeout_s = timeout_s
        self._lock = threading.Lock()
        self._started = False
        self._broken: str | None = None

    def _start(self) -> None:
        import kaleido

        path = browser_path()
        if path is None:
            raise RendererUnavailable(missing_browser_words())
        os.environ.setdefault("BROWSER_PATH", path)
        kaleido.start_sync_server(
            mathjax=False, timeout=self.timeout_s, silence_warnings=True, browser_cls=quiet_chromium()
        )
        self._started = True

    def svg(self, figure: go.Figure, width: int, height: int) -> str:
        """The figure as an SVG document; RendererUnavailable when no chart can be drawn here."""
        import kaleido

        with self._lock:
            if self._broken:
                raise RendererUnavailable(self._broken)
            if not self._started:
                self._start()
            options: dict[str, Any] = {"format": "svg", "width": width, "height": height, "scale": 1}
            job: Future[Any] = Future()
            # A daemon thread, not a pool: one stuck in a dead renderer must not keep the process alive.
            threading.Thread(target=_calc, args=(job, kaleido, figure, options), daemon=True).start()
            try:
                image = job.result(timeout=self.timeout_s + 5)
            except FutureTimeout:
                self._broken = (
                    f"The chart renderer (Chromium) gave no answer within {self.timeout_s:.0f} s; "
                    "restart the app or the command to start a new one."
                )
                raise RendererUnavailable(self._broken) from None
            except Exception as exc:
                words = f"A chart could not be drawn: {type(exc).__name__}: {exc}"
                raise RendererUnavailable(words) from None
        return image.decode("utf-8") if isinstance(image, bytes) else str(image)

    def close(self) -> None:
        import kaleido

        with self._lock:
            if self._started and not self._broken:
                kaleido.stop_sync_server(silence_warnings=True)
            self._started = False


def _calc(job: Future[Any], kaleido: Any, figure: go.Figure, options: dict[str, Any]) -> None:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            job.set_result(kaleido.calc_fig_sync(figure, opts=options, topojson=None))
    except BaseException as exc:
        job.set_exception(exc)


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
