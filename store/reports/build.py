"""One report, built: gather the facts, draw the charts, write the HTML; print it to PDF on demand.

``build_report`` is what the Reports page, ``python -m store report``, the scheduled ``reports`` job
and the share link all call, so each shows the same report.
"""

from __future__ import annotations

from dataclasses import dataclass

from store.history import HistoryStore
from store.reports.branding import Branding
from store.reports.period import Period
from store.reports.render import ChartRenderer, PdfUnavailable, html_to_pdf


class ReportProblem(ValueError):
    """A report that cannot be made; the message says why in one plain line."""


class UnknownSite(ReportProblem):
    """The site is not one of the account's own sites."""


class EmptyPeriod(ReportProblem):
    """Nothing about the site is recorded in the period."""


@dataclass(frozen=True)
class BuiltReport:
    site: str
    period: Period
    html: str
    #: Why the charts are not images (no Chromium here): the PDF cannot be made, the HTML still can.
    charts_missing: str | None = None

    @property
    def file_stem(self) -> str:
        return f"report-{self.site}-{self.period.slug}"

    def pdf(self) -> bytes:
        """The PDF; PdfUnavailable saying what is missing when it cannot be made here."""
        if self.charts_missing:
            raise PdfUnavailable(self.charts_missing)
        return html_to_pdf(self.html)


def build_report(
    store: HistoryStore,
    account: str,
    site: str,
    period: Period,
    *,
    branding: Branding,
    renderer: ChartRenderer | None,
) -> BuiltReport:
    """The report of ``site`` (one of the account's own sites) for ``period``, from the history store
    only (no API call); UnknownSite or EmptyPeriod when there is nothing to report."""
    from store.reports.content import gather
    from store.reports.document import write_report

    content = gather(store, account, site, period)
    return write_report(content, branding, renderer)
