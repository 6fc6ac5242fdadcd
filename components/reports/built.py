"""The one cached build of a report in the app: the Reports page's preview and a share link's page read
the same entry of the history query cache, so a report is drawn once per process, and a new comment or
day drops it at once (every history write of the account empties that cache, here and in replicas).

Its PDF is printed once too, when someone first asks for it ("Download PDF" hands Streamlit
``report_pdf``'s function, called on the click, never on a page's run): every later click, in any
session of the process, gets the same bytes, and clicks at the same moment wait for the one print under
way. The PDF is kept under the account, the report's name and a digest of the HTML it is printed from,
so it is always the print of the preview the person sees; a new build of the report (the query cache
dropped it: a new snapshot, a comment, a minute gone by) drops its earlier PDF only when its HTML
changed. A build from an unchanged history draws no chart again (a chart drawn by any process is kept
in the history store, ``services.reports.drawings``), so its HTML, and the PDF kept for it, stay the
same. A report whose charts no process drew yet starts the chart renderer's browser first thing, in
the background, so its seconds of start-up pass while the history is read. PDFs are bounded by their
bytes (``PDF_BYTES``). They stay in the process, as the preview does: sessions are sticky to a replica,
and sharing them through Redis would save at most one print per replica for a megabyte a report.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from datetime import UTC, datetime, time
from typing import TYPE_CHECKING

from components.common.bounded_cache import BoundedCache
from components.core.history import store as history
from services.reports.branding import Branding
from services.reports.document import BuiltReport, build_report
from services.reports.render import shared_renderer
from store import StoreUnavailable
from store.reports.period import Period

if TYPE_CHECKING:
    from store import HistoryStore

#: How many bytes of printed PDFs the process keeps at most (the least recently downloaded go first; a
#: PDF larger than this alone is printed for each download, as before).
PDF_BYTES = 64 * 1024 * 1024

#: (account, the report's site and period, the digest of its HTML) → its PDF.
_pdfs: BoundedCache[tuple[str, str, str], bytes] = BoundedCache(PDF_BYTES, size_of=len)


def _subject(site: str, period: Period) -> str:
    return f"{site}:{period.start}:{period.end}"


def cached_report(
    store: HistoryStore, account: str, site: str, period: Period, branding: Branding
) -> BuiltReport:
    """The report of ``site`` for ``period``, built by this process's one renderer unless the query cache
    holds it; ``ReportProblem`` (never cached) when there is nothing to report."""
    subject = _subject(site, period)

    def build() -> BuiltReport:
        if not _drawn_before(store, account, site, period):  # its browser starts while the history is read
            shared_renderer().warm()
        built = build_report(store, account, site, period, branding=branding, renderer=shared_renderer())
        printed_from = _digest(built.html)
        _pdfs.pop_where(lambda key: key[:2] == (account, subject) and key[2] != printed_from)  # stale
        return built

    return history.cached_read(account, f"report:{subject}:{hash(branding)}", build)


def report_pdf(account: str, built: BuiltReport) -> Callable[[], bytes]:
    """What "Download PDF" calls on a click: ``built``'s PDF, printed by the first click in the process
    and kept (``PdfUnavailable`` when it cannot be made here, as ``BuiltReport.pdf``)."""
    subject = _subject(built.site, built.period)

    def pdf() -> bytes:
        return _pdfs.once((account, subject, _digest(built.html)), built.pdf)

    return pdf


def _digest(html: str) -> str:
    return hashlib.sha256(html.encode()).hexdigest()


def _drawn_before(store: HistoryStore, account: str, site: str, period: Period) -> bool:
    """Whether some process drew this report's charts already (for a month still running: today), so
    building it needs no browser; when it did not, the page starts one at once, in the background."""
    today = datetime.now(UTC).date()
    since = datetime.combine(today, time.min, UTC) if period.end >= today else None
    try:
        return store.report_charts.was_drawn(account, site, period, since)
    except StoreUnavailable:
        return False


def forget_pdfs() -> None:
    """Forget every kept PDF (tests and benchmarks start from none)."""
    _pdfs.pop_where(lambda key: True)
