"""The one cached build of a report in the app: the Reports page's preview and a share link's page read
the same entry of the history query cache, so a report is drawn once per process, and a new comment or
day drops it at once (every history write of the account empties that cache, here and in replicas)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from components.core.history import store as history
from services.reports.branding import Branding
from services.reports.document import BuiltReport, build_report
from services.reports.render import shared_renderer
from store.reports.period import Period

if TYPE_CHECKING:
    from store import HistoryStore


def cached_report(
    store: HistoryStore, account: str, site: str, period: Period, branding: Branding
) -> BuiltReport:
    """The report of ``site`` for ``period``, built by this process's one renderer unless the query cache
    holds it; ``ReportProblem`` (never cached) when there is nothing to report."""
    key = f"report:{site}:{period.start}:{period.end}:{hash(branding)}"

    def build() -> BuiltReport:
        return build_report(store, account, site, period, branding=branding, renderer=shared_renderer())

    return history.cached_read(account, key, build)
