"""``python -m store draw-reports`` after the daily snapshot: every own site's last-month and month-so-far
report charts drawn ahead and kept, so the first view of either report anywhere needs no browser (here:
a process where none can start still shows the charts as images), and a second run draws nothing again."""

from __future__ import annotations

from datetime import date

import pytest

from client.settings import key_fingerprint
from components.core.history.store import seed_demo_history
from sandbox import DEMO_KEY
from services.jobs import draw_ahead
from services.reports.branding import Branding
from services.reports.document import build_report
from services.reports.render import ChartRenderer
from store import HistoryStore
from store.watchlist import own_sites
from tests.store.commands import StoreCommand
from tests.store.renderers import CountingRenderer

ACCOUNT = key_fingerprint(DEMO_KEY)
TODAY = date(2026, 11, 26)


def test_the_reports_opened_next_are_drawn_ahead_and_shown_where_no_browser_starts(
    store: HistoryStore, store_url: str, demo_command: StoreCommand, monkeypatch: pytest.MonkeyPatch
) -> None:
    seed_demo_history(store, ACCOUNT, DEMO_KEY, TODAY)
    code, _out, err = demo_command("draw-reports", "--as-of", TODAY.isoformat(), "--database-url", store_url)
    assert code == 0, err
    sites = own_sites(store.watchlist.entries(ACCOUNT))
    periods = draw_ahead.periods_ahead(TODAY)
    assert f"draw-reports: {len(sites) * len(periods)} drawn" in err
    monkeypatch.setenv("BROWSER_PATH", "/nowhere/chromium")  # an app process without a browser
    for site in sites:
        for period in periods:
            assert store.report_charts.was_drawn(ACCOUNT, site, period)
            built = build_report(store, ACCOUNT, site, period, branding=Branding(), renderer=ChartRenderer())
            assert built.charts_missing is None and "Plotly.newPlot" not in built.html, (site, period)
    monkeypatch.undo()
    counting = CountingRenderer()
    assert draw_ahead.draw_ahead(store, ACCOUNT, TODAY, say=lambda _line: None, renderer=counting) == 0
    assert counting.drawn == 0  # nothing changed since: nothing drawn again


def test_without_a_browser_the_job_says_so_and_fails(
    store: HistoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    seed_demo_history(store, ACCOUNT, DEMO_KEY, TODAY)
    monkeypatch.setenv("BROWSER_PATH", "/nowhere/chromium")
    lines: list[str] = []
    assert draw_ahead.draw_ahead(store, ACCOUNT, TODAY, say=lines.append, renderer=ChartRenderer()) == 1
    assert any("charts not drawn" in line and "Chromium" in line for line in lines), lines
    assert lines[-1].startswith("draw-reports: 0 drawn, ")
