"""One month's report with every section, built and printed to PDF with a warm renderer, against the
same report with a cold one (Chromium started for it), timed in the same run.

The demo key's history as the app seeds it; the report of its first site for last month: summary,
DR/TrueDR and referring-domain trends, Trust Map churn, keyword positions, visibility and share of
voice, alerts. A warm renderer is what the app and the ``reports`` job keep (one Chromium per process,
started with the first chart). Figures: the warm report's time (build + PDF; median of ``RUNS``) as a
ratio against the cold one. Targets: warm ≤ 10 s on these 2 cores; ≤ 0.9 × the cold report.

    .venv/bin/python -m bench.report_build
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

from bench.harness import Figures
from client.settings import key_fingerprint
from components.core.history.store import seed_demo_history
from rigs.processes import DEMO_KEY
from services.alerts.evaluate import evaluate_alerts
from services.reports.branding import Branding
from services.reports.document import build_report
from services.reports.render import ChartRenderer, shared_renderer
from store import HistoryStore
from store.reports.period import last_month
from store.watchlist import own_sites

TODAY = date(2026, 11, 26)
RUNS = 3
TARGET_S = 10.0


def one_report(store: HistoryStore, account: str, site: str, renderer: ChartRenderer) -> tuple[float, int]:
    start = time.perf_counter()
    built = build_report(store, account, site, last_month(TODAY), branding=Branding(), renderer=renderer)
    pdf = built.pdf()
    return time.perf_counter() - start, len(pdf)


def main() -> int:
    figures = Figures()
    account = key_fingerprint(DEMO_KEY)
    with (
        tempfile.TemporaryDirectory() as folder,
        HistoryStore.open(f"sqlite:///{Path(folder) / 'h.sqlite3'}") as store,
    ):
        seed_demo_history(store, account, DEMO_KEY, TODAY)
        evaluate_alerts(store, account, days=60)
        site = own_sites(store.watchlist.entries(account))[0]
        cold, size = one_report(store, account, site, shared_renderer())  # starts the process's Chromium
        warm = statistics.median(one_report(store, account, site, shared_renderer())[0] for _ in range(RUNS))
    figures.show("report_pdf_size", size / 1000, "kB")
    figures.show("report_cold", cold, "s")
    figures.show("report_warm", warm, "s", baseline=cold, base="a cold renderer")
    figures.target("report_warm_under_10_s", warm <= TARGET_S, f"{warm:.1f} s ≤ {TARGET_S:.0f} s")
    figures.target("report_warm_vs_cold", warm <= 0.9 * cold, f"{warm / cold:.2f} ≤ 0.90 × cold")
    return figures.exit_code()


if __name__ == "__main__":
    sys.exit(main())
