"""A report's charts are drawn once for the whole deployment: a chart any process drew is read back from
the history store by every other, so a share link opened on a replica that never drew the report (or
where no browser can start at all) shows the same images and prints the same PDF; a changed history
draws anew; kept charts are forgotten some weeks after they were drawn. On SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import plotly.graph_objects as go
import pytest
from sqlalchemy import create_engine

from client.settings import key_fingerprint
from components.core.history.store import seed_demo_history
from sandbox import DEMO_KEY
from services.reports.branding import Branding
from services.reports.document import build_report
from services.reports.drawings import KeptDrawings, drawing_digest
from services.reports.render import ChartRenderer, shared_renderer
from store import HistoryStore
from store.notes import Note
from store.reports.charts import KEEP_DAYS, ReportCharts
from store.reports.period import parse_month
from tests.store.renderers import CountingRenderer

ACCOUNT = key_fingerprint(DEMO_KEY)
SITE = "example.com"
TODAY = date(2026, 11, 26)
MONTH = parse_month("2026-10")


@pytest.fixture
def demo_store(store: HistoryStore) -> HistoryStore:
    seed_demo_history(store, ACCOUNT, DEMO_KEY, TODAY)
    return store


def test_a_chart_drawn_once_is_read_back_where_no_browser_can_start(
    demo_store: HistoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = build_report(demo_store, ACCOUNT, SITE, MONTH, branding=Branding(), renderer=shared_renderer())
    assert first.charts_missing is None and first.html.count("<svg") >= 5
    monkeypatch.setenv("BROWSER_PATH", "/nowhere/chromium")  # another replica, without a browser
    again = build_report(demo_store, ACCOUNT, SITE, MONTH, branding=Branding(), renderer=ChartRenderer())
    assert again.charts_missing is None and "Plotly.newPlot" not in again.html
    assert again.html == first.html  # the same images, so the same PDF


def test_a_changed_history_draws_the_changed_chart_only(demo_store: HistoryStore) -> None:
    counting = CountingRenderer()
    build_report(demo_store, ACCOUNT, SITE, MONTH, branding=Branding(), renderer=counting)
    charts = counting.drawn
    build_report(demo_store, ACCOUNT, SITE, MONTH, branding=Branding(), renderer=counting)
    assert charts >= 5 and counting.drawn == charts  # nothing changed: nothing drawn
    # A note in the period is a marker on every chart of the report: each is drawn again.
    demo_store.notes.add_note(ACCOUNT, Note(date(2026, 10, 12), "Guides went live", SITE), "ann@acme.com")
    build_report(demo_store, ACCOUNT, SITE, MONTH, branding=Branding(), renderer=counting)
    assert counting.drawn == 2 * charts


def test_kept_charts_belong_to_their_account_and_are_forgotten_after_some_weeks(store: HistoryStore) -> None:
    figure = go.Figure(go.Bar(y=[1]))
    digest = drawing_digest(figure, 300, 200)
    long_ago = datetime.now(UTC) - timedelta(days=KEEP_DAYS + 1)
    kept = store.report_charts
    kept.keep("acct-a", SITE, MONTH, digest, "<svg>old</svg>", now=long_ago)
    kept.keep("acct-a", SITE, MONTH, digest, "<svg>again</svg>", now=long_ago)  # a second drawer: one row
    assert kept.drawn("acct-a", digest) == "<svg>old</svg>"
    assert kept.drawn("acct-b", digest) is None
    assert kept.was_drawn("acct-a", SITE, MONTH) and not kept.was_drawn("acct-a", "other.com", MONTH)
    assert not kept.was_drawn("acct-a", SITE, MONTH, since=datetime.now(UTC) - timedelta(days=1))
    kept.keep("acct-a", SITE, MONTH, "another", "<svg>new</svg>")  # keeping forgets the old ones
    assert store.report_charts.drawn("acct-a", digest) is None
    assert store.report_charts.drawn("acct-a", "another") == "<svg>new</svg>"


def test_a_store_that_cannot_keep_charts_still_gets_its_chart_drawn(tmp_path: Path) -> None:
    class Drawer:
        def svg(self, figure: go.Figure, width: int, height: int) -> str:
            return "<svg>drawn</svg>"

    url = f"sqlite:///{tmp_path / 'gone' / 'history.sqlite3'}"  # a database that cannot be opened
    engine = create_engine(url)
    kept = KeptDrawings(Drawer(), ReportCharts(engine, engine, url), "acct", SITE, MONTH)
    assert kept.svg(go.Figure(go.Bar(y=[1])), 300, 200) == "<svg>drawn</svg>"
