"""The History, Market and Reports pages show the same numbers after a move from SQLite to PostgreSQL.

A team's history (the demo's, as a newcomer's sandbox seeds it, with a keyword group and last month's
report comment) is kept in an SQLite file, moved with the real command (``python -m store copy --to URL``,
in a process of its own, the SQLite file configured as the team's database) into a new PostgreSQL
database, and each page is opened in AppTest once on each database. What a marketer sees must be equal:
the metric cards, every table's values, every chart's data and the page's words; the report's preview
as it prints. The service-level proof (every row, every read) is ``tests/store/test_moving_house.py``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from analysis.market import NON_BRAND
from client.settings import key_fingerprint
from components.core.history import reads as history_reads
from rigs.postgres import PostgresServer
from sandbox import DEMO_KEY, SandboxServer
from sandbox.accounts import ACCOUNTS
from store import HistoryStore
from store.reports.period import last_month
from tests.apptest.app_pages import empty_caches, open_page, shown_text

ROOT = Path(__file__).resolve().parents[2]
ACCOUNT = key_fingerprint(DEMO_KEY)
MINE = sorted(ACCOUNTS[DEMO_KEY].sites)[0]
COMMENT = "November: the pricing guides went live."
TAG = "pricing"


@pytest.fixture(scope="module")
def moved(
    demo_history_file: Path, postgres: PostgresServer, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, str]:
    """The team's SQLite history and its copy in PostgreSQL, made by ``python -m store copy --to URL``."""
    path = tmp_path_factory.mktemp("before-the-move") / "history.sqlite3"
    shutil.copyfile(demo_history_file, path)
    sqlite = f"sqlite:///{path}"
    today = datetime.now(UTC).date()
    with HistoryStore.open(sqlite) as store:
        store.report_comments.set_report_comment(ACCOUNT, MINE, last_month(today), COMMENT, "ann@acme.com")
        keywords = sorted(
            {item.subject for item in store.watchlist.entries(ACCOUNT) if item.kind == "keyword"}
        )
        for keyword in keywords[::2]:
            store.groups.set_keyword_tags(ACCOUNT, keyword, [TAG])
    # A database of this module's own on the test process's server (other tests may share it).
    postgresql = postgres.create_database(f"pages_after_move_{os.getpid()}")
    done = subprocess.run(
        [sys.executable, "-m", "store", "copy", "--to", postgresql],
        cwd=ROOT,
        env={**os.environ, "DASHBOARD_DATABASE_URL": sqlite},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("verified: "), done.stdout
    return {"SQLite": sqlite, "PostgreSQL": postgresql}


def _plain(value: Any) -> Any:
    """A chart's data as compared: floats to 9 significant digits (the databases may sum in another
    order), everything else as it is."""
    if isinstance(value, float):
        return float(f"{value:.9g}")
    if isinstance(value, list):
        return [_plain(item) for item in value]
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    return value


def what_is_shown(at: AppTest) -> dict[str, Any]:
    """What a marketer reads on the page: its metric cards, its tables' values, its charts' data (not
    their layout), its words and a report's preview."""
    assert not at.exception, [e.value for e in at.exception]
    return {
        "metrics": [(m.label, m.value, m.proto.delta) for m in at.metric],
        "tables": [frame.value.reset_index(drop=True) for frame in at.dataframe],
        "charts": [_plain(json.loads(chart.proto.spec)["data"]) for chart in at.get("plotly_chart")],
        "words": shown_text(at),
        "previews": [str(frame.proto.srcdoc) for frame in at.get("iframe")],
    }


def assert_shown_alike(on_sqlite: dict[str, Any], on_postgresql: dict[str, Any]) -> None:
    assert on_postgresql["metrics"] == on_sqlite["metrics"], "the metric cards differ"
    assert len(on_postgresql["tables"]) == len(on_sqlite["tables"]), "not the same tables"
    pairs = zip(on_postgresql["tables"], on_sqlite["tables"], strict=True)
    for number, (moved_table, table) in enumerate(pairs, start=1):
        try:
            pd.testing.assert_frame_equal(moved_table, table, check_dtype=False, rtol=1e-9)
        except AssertionError as exc:
            raise AssertionError(f"table {number} differs: {exc}") from None
    assert on_postgresql["charts"] == on_sqlite["charts"], "the charts' data differ"
    assert on_postgresql["words"] == on_sqlite["words"], "the words differ"
    assert on_postgresql["previews"] == on_sqlite["previews"], "the report's preview differs"


#: Opens a page (a function making its first run) on each database: what each shows, by database.
OnEach = Callable[[Callable[[], AppTest]], dict[str, dict[str, Any]]]


@pytest.fixture
def on_each(
    moved: dict[str, str], live_env: SandboxServer, monkeypatch: pytest.MonkeyPatch
) -> Iterator[OnEach]:
    """Opens a page on each database in turn, the app pointed at it and nothing cached between; the
    reads the app records on its own are written before the next database's turn."""

    def shown(open_: Callable[[], AppTest]) -> dict[str, dict[str, Any]]:
        found = {}
        for kind, url in moved.items():
            monkeypatch.setenv("DASHBOARD_DATABASE_URL", url)
            empty_caches()
            found[kind] = what_is_shown(open_())
            history_reads.wait_for_recording()
        return found

    yield shown
    history_reads.wait_for_recording()


#: Each view a marketer opens, as a page and the address's query: History's four tabs over a year, the
#: Market's tabs over a year, for a keyword group, the non-brand keywords and one site, last month's report.
VIEWS: dict[str, tuple[str, dict[str, str]]] = {
    "history trends": ("views/history.py", {"history_tab": "Domain trends", "history_period": "365 days"}),
    "history churn": ("views/history.py", {"history_tab": "Trust Map churn"}),
    "history positions": (
        "views/history.py",
        {"history_tab": "Keyword positions", "history_period": "365 days"},
    ),
    "history watchlist": ("views/history.py", {"history_tab": "Watchlist"}),
    "market visibility": ("views/market.py", {"market_tab": "Visibility", "market_period": "365 days"}),
    "market share": ("views/market.py", {"market_tab": "Share of voice", "market_period": "365 days"}),
    "market tag": ("views/market.py", {"market_tab": "Visibility", "market_group": TAG}),
    "market non-brand": (
        "views/market.py",
        {"market_tab": "Share of voice", "market_group": NON_BRAND, "market_site": MINE},
    ),
    "market churn": ("views/market.py", {"market_tab": "Top-10 churn"}),
    "market dr": ("views/market.py", {"market_tab": "Top-10 DR", "market_period": "365 days"}),
    "report": ("views/reports.py", {}),
}


@pytest.mark.parametrize("view", list(VIEWS))
def test_each_view_shows_the_same_numbers_on_sqlite_and_after_the_move_on_postgresql(
    on_each: OnEach, view: str
) -> None:
    page, query = VIEWS[view]
    shown = on_each(lambda: open_page(page, **query))
    before = shown["SQLite"]
    # Something to compare: the view shows the history's figures, not an empty state.
    assert before["tables"] or before["previews"], f"{view} shows neither a table nor a report"
    assert all(not table.empty for table in before["tables"]), f"{view} shows an empty table"
    if page == "views/reports.py":
        assert MINE in before["previews"][0] and COMMENT in before["previews"][0]
    assert_shown_alike(before, shown["PostgreSQL"])
