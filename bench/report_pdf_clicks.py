""" "Download PDF" clicked ``CLICKS`` times in each of ``SESSIONS`` sessions at once, all against the same
report, against one print of that report measured in the same run.

The demo key's history as the app seeds it, in a temporary SQLite file the app's history door opens;
the report of its first site for last month. Each session is a thread that reads the report as the
Reports page and a share link's page do (``components.reports.built.cached_report``: the query cache's
one build) and then clicks: it calls what the page hands ``st.download_button`` as the PDF
(``report_pdf``), as Streamlit does on a click. The printer (WeasyPrint's ``html_to_pdf``) is counted.
The baseline: one print of the same HTML, timed first (after an untimed one: the process's first
print also loads WeasyPrint's fonts). Figures: prints made (before this change, one per
click: ``CLICKS`` × ``SESSIONS``), and the clicks' wall time as a ratio against one print. Targets: one
print; the clicks take ≤ 1.5 × one print.

    .venv/bin/python -m bench.report_pdf_clicks
"""

from __future__ import annotations

import logging
import os
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from bench.harness import Figures
from client.settings import key_fingerprint
from components.core.history.store import seed_demo_history
from components.reports import built as built_reports
from rigs.processes import DEMO_KEY
from services.reports import document
from services.reports.branding import Branding
from services.reports.render import html_to_pdf
from store import HistoryStore
from store.config import ENV_VAR
from store.reports.period import last_month
from store.watchlist import own_sites

TODAY = date(2026, 11, 26)
SESSIONS = 4
CLICKS = 3
TARGET = 1.5


@dataclass
class CountedPrinter:
    """WeasyPrint's printer, its prints counted."""

    prints: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def __call__(self, html: str) -> bytes:
        with self.lock:
            self.prints += 1
        return html_to_pdf(html)


def main() -> int:
    logging.getLogger("streamlit").setLevel(logging.ERROR)  # no script run here: Streamlit says so
    figures = Figures()
    account = key_fingerprint(DEMO_KEY)
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{Path(folder) / 'h.sqlite3'}"
        os.environ[ENV_VAR] = url
        with HistoryStore.open(url) as store:
            seed_demo_history(store, account, DEMO_KEY, TODAY)
            site = own_sites(store.watchlist.entries(account))[0]
        period = last_month(TODAY)

        def view() -> document.BuiltReport:
            from components.core.history.store import history_store

            opened = history_store()
            assert opened is not None
            return built_reports.cached_report(opened, account, site, period, Branding())

        built = view()  # the page's first view builds it (charts drawn), as before this change
        html_to_pdf(built.html)  # WeasyPrint's first print in a process loads its fonts: not timed
        started = time.perf_counter()
        size = len(html_to_pdf(built.html))
        one_print = time.perf_counter() - started

        printer = CountedPrinter()
        document.html_to_pdf = printer  # counted for the rest of the run
        built_reports.forget_pdfs()

        def session() -> None:
            download = built_reports.report_pdf(account, view())
            for _ in range(CLICKS):
                assert len(download()) == size

        sessions = [threading.Thread(target=session) for _ in range(SESSIONS)]
        started = time.perf_counter()
        for thread in sessions:
            thread.start()
        for thread in sessions:
            thread.join()
        clicks = time.perf_counter() - started

    figures.show("report_pdf_prints", printer.prints, f"prints for {CLICKS * SESSIONS} clicks")
    figures.show("report_pdf_one_print", one_print, "s")
    name = f"report_pdf_{CLICKS}_clicks_in_{SESSIONS}_sessions"
    figures.show(name, clicks, "s", baseline=one_print, base="one print")
    figures.target("report_pdf_printed_once", printer.prints == 1, f"{printer.prints} print(s)")
    figures.target(
        "report_pdf_clicks_vs_one_print", clicks <= TARGET * one_print, f"{clicks / one_print:.2f} ≤ {TARGET}"
    )
    return figures.exit_code()


if __name__ == "__main__":
    sys.exit(main())
