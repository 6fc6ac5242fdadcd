"""One report, built: gather the facts, draw the charts, write the HTML; print it to PDF on demand.

``build_report`` is what the Reports page, ``python -m store report``, the scheduled ``reports`` job
and the share link all call, so each shows the same report.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from services.reports.branding import Branding
from services.reports.content import gather
from services.reports.document import BuiltReport, write_report
from services.reports.problems import EmptyPeriod, ReportProblem, UnknownSite
from services.reports.render import ChartRenderer
from store.reports.period import Period

if TYPE_CHECKING:  # the store's mixins import the reports: only the type is needed here
    from store.history import HistoryStore

__all__ = ["BuiltReport", "EmptyPeriod", "ReportProblem", "UnknownSite", "build_report"]


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
    return write_report(gather(store, account, site, period), branding, renderer)
