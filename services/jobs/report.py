"""``python -m store report``: one site's report for one month, as a PDF (default) or HTML file.

Made from the history store only (no API call). The last line on stdout is the file's path; an
unknown site, an empty period, a bad month or a report that cannot be printed here is one plain line
on stderr and exit code 2. A logo that cannot be used is said on stderr, and the report is made without it.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from services.reports.branding import BrandingError, usable_branding
from services.reports.document import ReportProblem, build_report
from services.reports.render import PdfUnavailable, RendererUnavailable, shared_renderer
from store.history import HistoryStore
from store.reports.period import BadPeriod, Period, last_month, parse_month

FORMATS = (".pdf", ".html")


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser], url_help: str) -> None:
    report = commands.add_parser(
        "report", help="one site's monthly report as a PDF or HTML file (no API call)"
    )
    report.add_argument("--site", required=True, help="one of your sites (as the history records it)")
    report.add_argument("--month", help="the month, YYYY-MM (default: last month)")
    report.add_argument(
        "--output", type=Path, help="FILE.pdf or FILE.html (default: report-SITE-MONTH.pdf here)"
    )
    report.add_argument("--database-url", help=url_help)


def period_of(month: str | None, today: datetime | None = None) -> Period:
    """The month asked for, else last month (UTC); BadPeriod for a month not written YYYY-MM."""
    return parse_month(month) if month else last_month((today or datetime.now(UTC)).date())


def run(
    store: HistoryStore,
    account: str,
    *,
    site: str,
    month: str | None,
    output: Path | None,
    say: Callable[[str], None],
    tell: Callable[[str], None],
) -> int:
    """Build and write the file: 0 with its path told last, 2 with the reason said."""
    try:
        period = period_of(month)
        if output is not None and output.suffix.lower() not in FORMATS:
            raise BadPeriod(f"the output file ends in .pdf or .html, not {output.name!r}")
        branding, logo_refused = usable_branding()
        if logo_refused:
            say(logo_refused + ".")
        as_pdf = output is None or output.suffix.lower() == ".pdf"
        say(f"Building the report of {site} for {period.words}…")
        built = build_report(store, account, site, period, branding=branding, renderer=shared_renderer())
        path = output or Path(f"{built.file_stem}.pdf")
        data = built.pdf() if as_pdf else built.html.encode("utf-8")
    except (ReportProblem, BadPeriod, BrandingError, PdfUnavailable, RendererUnavailable) as exc:
        say(str(exc).rstrip(".") + ".")
        return 2
    try:
        path.write_bytes(data)
    except OSError as exc:
        say(f"The report cannot be written to {path}: {exc.strerror or exc}.")
        return 2
    tell(str(path))
    return 0
