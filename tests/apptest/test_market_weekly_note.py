"""The Market page says, under its charts, when the period reaches top 10s kept one day a week
(retention, ``[history] keep_daily_days``), and says nothing of the kind while every day is kept."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from streamlit.testing.v1 import AppTest

from client.settings import key_fingerprint
from components.core.history.store import account_changed
from sandbox import DEMO_KEY
from sandbox.accounts import ACCOUNTS
from sandbox.demo_history import keyword_report_on
from store import HistoryStore
from store.retention import ENV_VAR, daily_from
from tests.apptest.app_pages import open_page

ACCOUNT = key_fingerprint(DEMO_KEY)
MINE = ACCOUNTS[DEMO_KEY].sites[0]
TODAY = datetime.now(UTC).date()
PAGE = "views/market.py"
KEEP = 90
KEYWORD = "web analytics tool"
WEEKLY = "one day a week of the top 10s is kept"


@pytest.fixture
def store(own_store: HistoryStore, monkeypatch: pytest.MonkeyPatch) -> HistoryStore:
    monkeypatch.setenv(ENV_VAR, str(KEEP))
    own_store.watchlist.watch(ACCOUNT, "keyword", KEYWORD, site=MINE)
    for back in range(130):
        day = TODAY - timedelta(days=back)
        own_store.snapshots.record_keyword_report(
            ACCOUNT, keyword_report_on(KEYWORD, day, MINE), day, "job", MINE, KEYWORD
        )
    return own_store


def _captions(at: AppTest) -> list[str]:
    assert not at.exception, [e.value for e in at.exception]
    return [caption.value for caption in at.caption]


def test_the_market_page_says_when_its_period_shows_weekly_points(store: HistoryStore) -> None:
    assert not [c for c in _captions(open_page(PAGE, market_period="All")) if WEEKLY in c]  # all daily yet
    store.retention.prune(daily_from(TODAY, KEEP))
    account_changed(ACCOUNT)  # as the app does once its cached reads expire after the daily job
    notes = [c for c in _captions(open_page(PAGE, market_period="All")) if WEEKLY in c]
    assert len(notes) == 1 and "(history kept daily for 90 days)" in notes[0]
    assert not [c for c in _captions(open_page(PAGE, market_period="90 days")) if WEEKLY in c]  # all daily


def test_the_history_pages_keyword_positions_say_it_too_and_its_other_tabs_do_not(
    store: HistoryStore,
) -> None:
    store.retention.prune(daily_from(TODAY, KEEP))
    account_changed(ACCOUNT)
    notes = [
        c for c in _captions(open_page("views/history.py", history_tab="Keyword positions")) if WEEKLY in c
    ]
    assert len(notes) == 1
    assert not [c for c in _captions(open_page("views/history.py", history_tab="Watchlist")) if WEEKLY in c]
