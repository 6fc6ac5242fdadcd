"""The team's webhook carries the deployment's own account only, seen from the Alerts page in AppTest.

The app runs in Live mode with the deployment's key (the demo key, from the environment) and a webhook
configured. A person who types their own key into the sidebar and presses "Check now" sees their
alerts on the page, and none of them is queued for the team's webhook; the same button under the
deployment's key queues its alerts as the job does.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import text
from streamlit.testing.v1 import AppTest

from client.models import MapSite, ReferringDomain, TrustMap
from client.settings import key_fingerprint
from components.core.cache.connection import SESSION_KEY_KEY
from sandbox import DEMO_KEY, FREE_KEY
from sandbox.accounts import ACCOUNTS
from store import HistoryStore
from tests.apptest.app_pages import open_page, shown_text

PAGE = "views/alerts.py"
TODAY = datetime.now(UTC).date()


def _trust_maps(store: HistoryStore, key: str) -> str:
    """A week-old and today's Trust Map of the key's first site: a DR 70 link lost. Its account."""
    account, site = key_fingerprint(key), ACCOUNTS[key].sites[0]

    def sample(status: str) -> TrustMap:
        links = [("strong-partner.com", status, 70), *((f"steady{n}.com", "live", 30) for n in range(5))]
        return TrustMap(
            site=MapSite(domain=site, dr=40),
            total_domains=len(links),
            domains=[
                ReferringDomain(domain=d, dr=dr, status=s, spam_score=2.0, link_type="dofollow")
                for d, s, dr in links
            ],
        )

    store.watchlist.watch(account, "domain", site, origin="own")
    store.snapshots.record_trust_map(account, sample("live"), TODAY - timedelta(days=7), "job")
    store.snapshots.record_trust_map(account, sample("lost"), TODAY, "job")
    return account


def _queued(store: HistoryStore, account: str) -> int:
    query = text(
        "SELECT count(*) FROM alert_deliveries d JOIN alerts a ON a.id = d.alert_id "
        "WHERE a.account = :account"
    )
    with store.engine.connect() as conn:
        return int(conn.execute(query, {"account": account}).scalar_one())


def _check_now(at: AppTest) -> AppTest:
    at.button(key="alerts_check_now").click().run()
    assert not at.exception, [e.value for e in at.exception]
    return at


@pytest.fixture(autouse=True)
def _webhook(monkeypatch: pytest.MonkeyPatch) -> None:
    """A team webhook is configured (nothing posts to it here: the app only queues)."""
    monkeypatch.setenv("DASHBOARD_ALERT_WEBHOOK", "http://127.0.0.1:9/services/team-hook")


def test_a_key_entered_in_the_session_sees_its_alerts_but_none_is_queued_for_the_team(
    own_store: HistoryStore,
) -> None:
    mine = _trust_maps(own_store, FREE_KEY)
    at = open_page(PAGE)
    at.sidebar.text_input(key=SESSION_KEY_KEY).input(FREE_KEY).run()
    _check_now(at)
    found = own_store.alerts.entries(mine)
    assert len(found) >= 1 and any("strong-partner.com" in title for title in found["title"])
    [said] = [s.value for s in at.success if "new alert" in s.value]
    assert f"{len(found)} new alert" in said and "webhook" not in said  # no promise it will be sent
    assert "strong-partner.com" in shown_text(at).replace("\\", "")  # on the page, for that key's person
    assert _queued(own_store, mine) == 0  # and not queued for the team's channel


def test_the_deployments_own_key_queues_its_alerts_for_the_team_webhook(own_store: HistoryStore) -> None:
    team = _trust_maps(own_store, DEMO_KEY)
    at = _check_now(open_page(PAGE))
    found = own_store.alerts.entries(team)
    assert len(found) >= 1
    assert _queued(own_store, team) == len(found)
    assert any("The team's webhook gets them" in s.value for s in at.success)
