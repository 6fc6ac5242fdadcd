"""Twelve scheduled reports built in one ``python -m store reports`` run, against the same reports each
built with a renderer of its own.

The demo key's history (as the app seeds it) ends on 3 Nov 2026, with twelve sites marked as its own
(its 3 sites, its 4 competitors and 5 more listed sandbox domains with 180 days of lookups and weekly
Trust Maps), each with a schedule. One pass of ``services.jobs.reports.reports_pass`` builds October's
twelve reports with the reports' own builder, which starts one Chromium (kaleido) with the first chart
and reuses it for every other report, and mails them to a local aiosmtpd server. The baseline, timed
in the same run: ``FRESH`` of those reports each built with a new ``ChartRenderer`` (its own Chromium,
started and stopped), as a job that did not share its renderer would. Figures: the run's time per
report, as a ratio against the fresh renderer's per-report time. Target: ≤ 0.75 × baseline, all
twelve sent.

    .venv/bin/python -m bench.reports_run
"""

from __future__ import annotations

import socket
import sys
import tempfile
import time
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

from aiosmtpd.controller import Controller

from bench.harness import Figures
from client.settings import key_fingerprint
from rigs.processes import DEMO_KEY
from sandbox import data as sandbox_data
from sandbox.demo_history import (
    DEMO_DAYS,
    DEMO_MAP_EVERY_DAYS,
    demo_rows,
    demo_subjects,
    lookup_on,
    trust_map_on,
)
from services.alerts.config import EmailConfig
from services.jobs.reports import reports_pass
from services.reports.branding import load_branding
from services.reports.document import build_report
from services.reports.render import ChartRenderer
from store import HistoryStore
from store.reports.period import last_month

ACCOUNT = key_fingerprint(DEMO_KEY)
TODAY = date(2026, 11, 3)
REPORTS = 12
FRESH = 3
TARGET = 0.75


class _Count:
    def __init__(self) -> None:
        self.messages = 0

    async def handle_DATA(self, _server: object, _session: object, _envelope: object) -> str:
        self.messages += 1
        return "250 accepted"


def _sites() -> list[str]:
    subjects = demo_subjects(DEMO_KEY)
    known = [*subjects.own_sites, *subjects.competitors]
    extra = (
        f"bench-report-{i}.com" for i in range(10_000) if sandbox_data.is_listed(f"bench-report-{i}.com")
    )
    return known + [next(extra) for _ in range(REPORTS - len(known))]


def _seed(store: HistoryStore, sites: list[str]) -> None:
    demo = demo_rows(DEMO_KEY, TODAY)
    for kind, subject, origin, site in demo.watches:
        store.watchlist.watch(ACCOUNT, kind, subject, origin=origin, site=site)
    store.snapshots.seed(
        ACCOUNT, demo.lookups, demo.trust_maps, demo.trackeds, keyword_reports=demo.keyword_reports
    )
    days = [TODAY - timedelta(days=back) for back in range(DEMO_DAYS - 1, -1, -1)]
    extra = [site for site in sites if not store.watchlist.is_watched(ACCOUNT, "domain", site)]
    store.snapshots.seed(
        ACCOUNT,
        [(day, lookup_on(site, day)) for site in extra for day in days],
        [(day, trust_map_on(site, day)) for site in extra for day in days[::-DEMO_MAP_EVERY_DAYS]],
    )
    for site in sites:
        store.watchlist.watch(ACCOUNT, "domain", site, origin="own")
        store.report_schedules.set_report_schedule(ACCOUNT, site, "seo@client.com", False, "bench")


def _fresh_per_report(store: HistoryStore, sites: list[str]) -> float:
    """Seconds per report, each built and printed with a renderer (a Chromium) of its own."""
    branding = load_branding(())
    started = time.perf_counter()
    for site in sites:
        renderer = ChartRenderer()
        try:
            build_report(store, ACCOUNT, site, last_month(TODAY), branding=branding, renderer=renderer).pdf()
        finally:
            renderer.close()
    return (time.perf_counter() - started) / len(sites)


def main() -> int:
    figures = Figures()
    sites = _sites()
    box = _Count()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    controller = Controller(box, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        with tempfile.TemporaryDirectory(prefix="bench-reports-") as folder:
            with HistoryStore.open(f"sqlite:///{Path(folder) / 'history.sqlite3'}") as store:
                _seed(store, sites)
                fresh = _fresh_per_report(store, sites[:FRESH])
                email = EmailConfig(
                    "127.0.0.1",
                    port,
                    "none",
                    "r@example.com",
                    ("d@example.com",),
                )
                started = time.perf_counter()
                run = reports_pass(store, email, account=ACCOUNT, today=TODAY, now=datetime.now(UTC))
                wall = time.perf_counter() - started
    finally:
        controller.stop()
    per_report = wall / max(run.built, 1)
    figures.show("reports_run_wall", wall, "s")
    figures.show("reports_run_built", run.built, "reports")
    figures.show("reports_run_sent", box.messages, "mails")
    figures.show("reports_fresh_renderer_per_report", fresh, "s")
    figures.show("reports_run_per_report", per_report, "s", baseline=fresh, base="a renderer per report")
    figures.target(
        f"Reports run: ≤ {TARGET} × a renderer per report",
        per_report <= TARGET * fresh,
        f"{per_report:.2f} s vs {fresh:.2f} s",
    )
    figures.target(
        "Reports run: all sent",
        run.sent == box.messages == REPORTS,
        f"{run.sent} of {REPORTS}, {run.not_built}",
    )
    return figures.exit_code()


if __name__ == "__main__":
    sys.exit(main())
