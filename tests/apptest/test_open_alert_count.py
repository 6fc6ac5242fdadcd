"""The sidebar's open-alert count and the Alerts page's Open list in AppTest: one read, one number.

Live mode against the session sandbox, the store a temporary SQLite file. A job run in another process
is played by this test's own ``HistoryStore`` on the same file (the app's cache never hears of its
writes, as with the daily job): until the shared read runs out (``history.QUERY_TTL_S``, a minute)
both places keep the number they had, and after it both show the new one. Time is moved past the TTL
through the query cache's clock, never waited for.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from streamlit.testing.v1 import AppTest

from client.models import TrustMap
from client.settings import key_fingerprint
from components.core.history import source
from components.core.history import store as history
from sandbox import DEMO_KEY
from sandbox.accounts import ACCOUNTS
from services.alerts.evaluate import evaluate_alerts
from store import HistoryStore
from tests.apptest.app_pages import open_page
from tests.store.samples import dofollow_map

ACCOUNT = key_fingerprint(DEMO_KEY)
MINE = ACCOUNTS[DEMO_KEY].sites[0]
TODAY = datetime.now(UTC).date()
PAGE = "views/alerts.py"
STEADY = [(f"steady{n}.com", "live", 30, 5.0) for n in range(5)]


def _sample(*links: tuple[str, str, int, float]) -> TrustMap:
    return dofollow_map(MINE, links)


@pytest.fixture
def store(own_store: HistoryStore) -> HistoryStore:
    """Your site's Trust Map a week ago and today (a strong link lost), its alerts found."""
    own_store.watchlist.watch(ACCOUNT, "domain", MINE, origin="own")
    own_store.snapshots.record_trust_map(
        ACCOUNT, _sample(("strong-partner.com", "live", 70, 2.0), *STEADY), TODAY - timedelta(days=7), "job"
    )
    own_store.snapshots.record_trust_map(
        ACCOUNT, _sample(("strong-partner.com", "lost", 70, 2.0), *STEADY), TODAY, "job"
    )
    assert evaluate_alerts(own_store, ACCOUNT, days=7).new >= 1
    return own_store


def _job_finds_a_new_alert(store: HistoryStore) -> None:
    """What the daily job does in its own process: today's sample now has a spam-risky domain too, and
    the rules find it."""
    today = _sample(("strong-partner.com", "lost", 70, 2.0), ("spammy-links.biz", "live", 12, 85.0), *STEADY)
    store.snapshots.record_trust_map(ACCOUNT, today, TODAY, "job")
    assert evaluate_alerts(store, ACCOUNT, days=7).new >= 1


def _sidebar(at: AppTest) -> int:
    """The number in the sidebar's "N open alerts" link (0 when it shows none)."""
    labels = [link.proto.label for link in at.get("page_link") if link.proto.page == "alerts"]
    return int(labels[0].split()[0]) if labels else 0


def _open_list(at: AppTest) -> int:
    """How many open alerts the page lists (each card has its Acknowledge button)."""
    return sum(1 for b in at.button if str(b.key).startswith("alert_ack_"))


def test_the_sidebar_and_the_open_list_agree_after_a_job_run_and_both_update_within_the_minute(
    store: HistoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert history.QUERY_TTL_S <= 60  # "within one minute"
    at = open_page(PAGE)
    assert not at.exception, [e.value for e in at.exception]
    before = len(store.alerts.entries(ACCOUNT))
    assert _sidebar(at) == _open_list(at) == before

    _job_finds_a_new_alert(store)
    after = len(store.alerts.entries(ACCOUNT))
    assert after > before
    at.run()  # within the minute: both still say what the one shared read found
    assert not at.exception, [e.value for e in at.exception]
    assert _sidebar(at) == _open_list(at) == before

    moved = source.now() + history.QUERY_TTL_S + 1
    monkeypatch.setattr(source, "now", lambda: moved)  # the minute is up
    at.run()
    assert _sidebar(at) == _open_list(at) == after
