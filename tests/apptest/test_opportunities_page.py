"""The Opportunities page in AppTest, in Live mode against the session sandbox, its store a temporary
SQLite file holding the demo's history: one of your sites' keywords ranked with the parts of their
score, the cost of the missing top 10s said before any keyword report is spent and exactly that many
spent by the button, the chosen keywords watched for the site (audited), a viewer who cannot, and a
failed read of the suggestions said in words."""

from __future__ import annotations

from datetime import UTC, datetime

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from client.settings import key_fingerprint
from components.core.history.store import seed_demo_history
from components.opportunities.widgets.choice import SITE_KEY, TARGET_KEY
from components.opportunities.widgets.reads import READ_KEY
from components.opportunities.widgets.table import STRIKING_KEY
from sandbox import DEMO_KEY, SandboxServer
from sandbox.accounts import ACCOUNTS
from store import HistoryStore
from tests.apptest.app_pages import as_read, open_page, shown_text

ACCOUNT = key_fingerprint(DEMO_KEY)
MINE = sorted(ACCOUNTS[DEMO_KEY].sites)[0]
TODAY = datetime.now(UTC).date()
PAGE = "views/opportunities.py"
REPORT_PATH = "/api/v1/keywords"


@pytest.fixture
def store(own_store: HistoryStore) -> HistoryStore:
    seed_demo_history(own_store, ACCOUNT, DEMO_KEY, TODAY)
    return own_store


def _table(at: AppTest) -> pd.DataFrame:
    found = [frame.value for frame in at.dataframe if "score" in frame.value.columns]
    assert found, "no opportunities table"
    return found[0]


def _ranked(table: pd.DataFrame) -> None:
    """Highest score first, keywords without a score last; each score made of its shown parts."""
    scores = table["score"]
    known = scores.notna()
    assert known.any() and list(known) == sorted(known, reverse=True)  # the unscored last
    assert scores[known].is_monotonic_decreasing, scores.tolist()
    parts = table[known]
    expected = 100 * parts["clicks_gained"] / parts["difficulty"].clip(lower=1.0)
    assert (expected - parts["score"]).abs().max() < 1e-6


def test_the_list_is_ranked_with_the_parts_of_its_score_striking_distance_first(store: HistoryStore) -> None:
    at = open_page(PAGE)
    assert not at.exception, [e.value for e in at.exception]
    assert at.selectbox(key=SITE_KEY).value == MINE
    assert at.selectbox(key=TARGET_KEY).value == 3
    table = _table(at)
    _ranked(table)
    assert (table["ctr_target"] == table["ctr_target"].iloc[0]).all()
    at.button(key=READ_KEY).click().run()
    _ranked(_table(at))
    at.toggle(key=STRIKING_KEY).set_value(True).run()
    striking = _table(at)
    assert striking["striking_distance"].all() and len(striking) >= 2
    assert striking["position"].between(4, 20).all()
    assert pd.notna(striking["score"].iloc[0])
    _ranked(striking)
    # Another target: the clicks are counted for reaching it.
    at.selectbox(key=TARGET_KEY).set_value(1).run()
    assert not at.exception, [e.value for e in at.exception]
    first = _table(at)
    assert (first["ctr_target"] > striking["ctr_target"].iloc[0]).all()
    # The watched keywords say when they become winnable, in words.
    at.toggle(key=STRIKING_KEY).set_value(False).run()
    everything = _table(at)
    watched = everything[everything["top10_from"] == "recorded top 10"]
    assert len(watched) and (watched["median_words"] != "").all()
    labels = [b.proto.label for b in at.get("download_button")]
    assert "Download CSV" in labels and "Raw CSV" in labels


def _reports_spent(sandbox: SandboxServer) -> int:
    return sum(1 for _method, path, _query, _key in sandbox.state.request_log if path == REPORT_PATH)


def test_the_cost_is_said_before_any_report_is_spent_and_the_button_spends_exactly_that(
    store: HistoryStore, live_env: SandboxServer
) -> None:
    at = open_page(PAGE)
    assert not at.exception, [e.value for e in at.exception]
    before = _table(at)
    missing = int((before["top10_from"] == "").sum())
    assert missing > 0
    said = f"{missing} keywords have no recorded top 10: {missing} keyword-report calls."
    assert said in as_read(shown_text(at))
    assert _reports_spent(live_env) == 0
    at.button(key=READ_KEY).click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert _reports_spent(live_env) == missing
    after = _table(at)
    assert (after["top10_from"] != "").all()
    assert "keyword-report call" not in shown_text(at)
    at.run()  # a rerun spends nothing again
    assert _reports_spent(live_env) == missing
