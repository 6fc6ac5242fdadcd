"""The Reports page's Sharing tab in AppTest (Live mode against the session sandbox, history in a file
of the test's own): an editor creates a share link (shown once, and it opens its report), sees it listed
and revokes it; creates a spreadsheet feed (its file written at once, its IMPORTDATA formula shown) and
revokes it (the file gone); every change is audited. A viewer sees the controls disabled with the reason,
and a click forged past them changes nothing and is audited as refused."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from streamlit.testing.v1 import AppTest

from client.settings import key_fingerprint
from sandbox import DEMO_KEY
from services.reports.feeds import FEEDS_DIR_ENV
from store import HistoryStore
from store.reports.links import REVOKED, LinkRefused
from store.reports.period import parse_month
from tests.apptest.app_pages import as_read, button, shown_text, signed_in

ACCOUNT = key_fingerprint(DEMO_KEY)
SITE = "example.com"
PERIOD = parse_month("2026-10")
ADDRESS = "https://dash.team.example"
ACCESS = {"editors": ["ann@acme.com"], "viewers": ["@acme.com"], "contact": "it@acme.com"}
REASON = "Editors only: you can read everything here; ask it@acme.com to change things."


@pytest.fixture
def store(own_store: HistoryStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> HistoryStore:
    monkeypatch.setenv(FEEDS_DIR_ENV, str(tmp_path / "feeds"))
    monkeypatch.setenv("DASHBOARD_URL", ADDRESS)
    return own_store


def _sharing_tab() -> None:
    from components.core.cache.connection import current_connection
    from components.core.history import store as history
    from components.core.history.source import StoreSource
    from components.reports.widgets.sharing import sharing_tab
    from store.reports.period import parse_month

    conn = current_connection()
    store = history.history_store()
    assert store is not None
    sharing_tab(conn, StoreSource(store, conn.fingerprint), "example.com", parse_month("2026-10"))


def _tab(email: str | None = None) -> AppTest:
    at = AppTest.from_function(_sharing_tab, default_timeout=60)
    if email is not None:
        signed_in(at, email, ACCESS)
    return at.run()


def _submit(at: AppTest, label: str) -> AppTest:
    (found,) = [b for b in at.get("form_submit_button") if b.label == label]
    return found.click().run()


def test_an_editor_creates_a_share_link_that_opens_its_report_then_revokes_it(store: HistoryStore) -> None:
    at = _submit(_tab("ann@acme.com"), "Create share link")
    assert not at.exception, [e.value for e in at.exception]
    assert any("shown only once" in s.value for s in at.success)
    (shown,) = [c.value for c in at.code]
    assert shown.startswith(f"{ADDRESS}/?report=")
    token = parse_qs(urlsplit(shown).query)["report"][0]
    link = store.report_links.open_report_link(token, audit=False)
    assert (link.site, link.period, (link.expires_at - link.created_at).days) == (SITE, PERIOD, 30)
    assert "**October 2026** · Works · created by ann@acme.com on " in as_read(shown_text(at))

    at = button(at, "Revoke").click().run()
    assert "revoked" in as_read(shown_text(at))
    assert "Revoke" not in [b.label for b in at.button]
    with pytest.raises(LinkRefused, match=REVOKED):
        store.report_links.open_report_link(token)
    rows = store.audit.events(ACCOUNT)
    assert rows[["person", "role", "operation", "outcome"]].values.tolist() == [
        ["ann@acme.com", "editor", "revoke_share_link", "done"],
        ["ann@acme.com", "editor", "create_share_link", "done"],
    ]
    assert rows["target"].iloc[1] == "example.com, October 2026 (30 days)"
    assert not rows.astype(str).apply(lambda column: column.str.contains(token)).any().any()


def test_an_editor_creates_a_feed_shown_as_a_formula_then_revokes_it(
    store: HistoryStore, tmp_path: Path
) -> None:
    at = _submit(_tab(), "Create feed")  # the local user (sign-in off) may change things
    assert not at.exception, [e.value for e in at.exception]
    (feed,) = store.feeds.entries(ACCOUNT, SITE)
    url = f"{ADDRESS}/app/static/feeds/{feed.token}.csv"
    assert [c.value for c in at.code] == [f'=IMPORTDATA("{url}")']
    assert (tmp_path / "feeds" / f"{feed.token}.csv").exists()

    at = button(at, "Revoke").click().run()
    assert not (tmp_path / "feeds" / f"{feed.token}.csv").exists()
    assert not at.code
    assert [(f.live, f.revoked_by) for f in store.feeds.entries(ACCOUNT, SITE)] == [(False, "local")]
    assert store.audit.events(ACCOUNT)["operation"].tolist() == ["revoke_feed", "create_feed"]


def test_a_keyword_group_is_offered_for_a_feed(store: HistoryStore) -> None:
    store.groups.set_keyword_tags(ACCOUNT, "crm software", ["crm"])
    at = _tab()
    choices = at.selectbox[1].options
    assert choices[0] == "The site's daily figures"
    assert "Positions of the keyword group “crm”" in choices
    at.selectbox[1].select("crm")
    at = _submit(at, "Create feed")
    assert [f.keyword_group for f in store.feeds.entries(ACCOUNT, SITE)] == ["crm"]


def test_a_viewer_sees_the_controls_disabled_and_a_forged_click_changes_nothing(store: HistoryStore) -> None:
    store.report_links.create_report_link(ACCOUNT, SITE, PERIOD, "ann@acme.com")
    at = _tab("bob@acme.com")
    assert not at.exception, [e.value for e in at.exception]
    controls = [*at.get("form_submit_button"), *at.button]
    assert {b.label for b in controls} == {"Create share link", "Create feed", "Revoke"}
    assert all(b.disabled and b.help == REASON for b in controls)
    assert REASON in as_read(shown_text(at))

    forged = next(b for b in at.get("form_submit_button") if b.label == "Create share link")
    forged._value = True  # what a hand-made message from the browser would do
    at = at.run()
    assert not at.code
    assert len(store.report_links.entries(ACCOUNT, SITE)) == 1
    assert store.feeds.entries(ACCOUNT) == []
