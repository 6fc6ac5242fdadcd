"""``python -m store draw-reports``: draw the charts of every own site's reports a person is likeliest to
open next (last month's and this month's so far), ahead of the first view, so the Reports page and a
share link show them without starting a browser in the app (``services.reports.drawings`` keeps them
for every process). Run it after the daily snapshot; a chart already drawn is not drawn again.

Exit codes (``services.jobs.exit_codes``): 0 every report drawn or with nothing to report yet; 1 a report
could not be drawn (no browser here, or a chart that failed: each named); 3 the database.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date

from services.jobs.exit_codes import EXIT_FAILED, EXIT_OK
from services.reports.branding import Branding
from services.reports.document import ReportProblem, build_report
from services.reports.render import ChartRenderer, shared_renderer
from store.history import HistoryStore
from store.reports.period import Period, last_month
from store.watchlist import own_sites


def periods_ahead(today: date) -> list[Period]:
    """The reports opened most: last month's (the page's default, the month a schedule sends) and this
    month's so far, as the Reports page names them on ``today``."""
    return [last_month(today), Period(today.replace(day=1), today)]


def draw_ahead(
    store: HistoryStore,
    account: str,
    today: date,
    *,
    say: Callable[[str], None],
    renderer: ChartRenderer | None = None,
) -> int:
    """Draw (and keep) the charts of ``account``'s own sites' reports for ``periods_ahead(today)``; the
    exit code."""
    drawing = renderer or shared_renderer()
    drawn, failed = 0, 0
    for site in own_sites(store.watchlist.entries(account)):
        for period in periods_ahead(today):
            try:
                built = build_report(store, account, site, period, branding=Branding(), renderer=drawing)
            except ReportProblem:
                continue  # nothing recorded for it yet: nothing to draw
            if built.charts_missing:
                say(f"{site}, {period.words}: charts not drawn: {built.charts_missing}")
                failed += 1
                continue
            drawn += 1
    say(f"draw-reports: {drawn} drawn{f', {failed} not drawn' if failed else ''}")
    return EXIT_FAILED if failed else EXIT_OK


__all__ = ["draw_ahead", "periods_ahead"]
