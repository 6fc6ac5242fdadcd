"""The one cached build of a report in the app: the Reports page's preview and a share link's page read
the same entry of the history query cache, so a report is drawn once per process, and a new comment or
day drops it at once (every history write of the account empties that cache, here and in replicas).

Its PDF is printed once too, when someone first asks for it ("Download PDF" hands Streamlit
``report_pdf``'s function, called on the click, never on a page's run): every later click, in any
session of the process, gets the same bytes, and clicks at the same moment wait for the one print under
way. The PDF is kept under the account, the report's name and a digest of the HTML it is printed from,
so it is always the print of the preview the person sees; a new build of the report (the query cache
dropped it: a new snapshot, a comment, a minute gone by) drops its earlier PDF. PDFs are bounded by their
bytes (``PDF_BYTES``). They stay in the process, as the preview does: sessions are sticky to a replica,
and sharing them through Redis would save at most one print per replica for a megabyte a report.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import TYPE_CHECKING

from components.common.bounded_cache import BoundedCache
from components.core.history import store as history
from services.reports.branding import Branding
from services.reports.document import BuiltReport, build_report
from services.reports.render import shared_renderer
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
        built = build_report(store, account, site, period, branding=branding, renderer=shared_renderer())
        _pdfs.pop_where(lambda key: key[:2] == (account, subject))  # an earlier build's PDF is stale
        return built

    return history.cached_read(account, f"report:{subject}:{hash(branding)}", build)


def report_pdf(account: str, built: BuiltReport) -> Callable[[], bytes]:
    """What "Download PDF" calls on a click: ``built``'s PDF, printed by the first click in the process
    and kept (``PdfUnavailable`` when it cannot be made here, as ``BuiltReport.pdf``)."""
    subject = _subject(built.site, built.period)

    def pdf() -> bytes:
        digest = hashlib.sha256(built.html.encode()).hexdigest()
        return _pdfs.once((account, subject, digest), built.pdf)

    return pdf


def forget_pdfs() -> None:
    """Forget every kept PDF (tests and benchmarks start from none)."""
    _pdfs.pop_where(lambda key: True)
