"""The one write path's role check and audit log, in AppTest against the session sandbox (Live mode),
with the history (and so the audit log) in a temporary SQLite file of each test's own.

An editor's write lands once and leaves one ``sent`` row naming what it was about; a double click
leaves no second row; a refusal by the service keeps its status and words; a viewer's write (even one
forged past the disabled control) is refused with "Editors only", never reaches the service, and is
audited; watchlist changes are checked and audited the same way, as "done" (they send nothing to the
service) or "no_change" (watching what is watched already); an unusable history database never stops a
write. The API key is never in a row."""

from __future__ import annotations

import logging
from pathlib import Path

import httpx
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from client.inputs import slug_for
from client.settings import key_fingerprint
from components.core.nav import pages
from sandbox import DEMO_KEY, SandboxServer
from sandbox.accounts import ACCOUNTS
from store import HistoryStore
from tests.apptest.app_pages import as_read, button, open_page, shown_text, signed_in

ACCOUNT = key_fingerprint(DEMO_KEY)
TRACKED = pages.TRACKED_KEYWORDS.file
SITE = ACCOUNTS[DEMO_KEY].sites[0]
SLUG = slug_for(SITE)
KEYWORDS_PATH = f"/api/v1/sites/{SLUG}/keywords"
NEW_KEYWORD = "audited keyword probe"
ACCESS = {"admins": ["boss@acme.com"], "editors": ["ann@acme.com"], "viewers": ["@acme.com"]}


@pytest.fixture
def store(own_store: HistoryStore) -> HistoryStore:
    """An empty history database of this test's own: the one the app writes its audit rows to."""
    return own_store


def _posts(server: SandboxServer, path: str = KEYWORDS_PATH) -> int:
    """POSTs the sandbox received on ``path``, as its own /_sandbox/stats reports them."""
    stats = httpx.get(f"{server.base_url}/_sandbox/stats", timeout=5).json()
    return sum(row["count"] for row in stats["requests"] if row["method"] == "POST" and row["path"] == path)


def _rows(store: HistoryStore) -> pd.DataFrame:
    rows = store.audit.events(ACCOUNT)
    assert not rows.astype(str).apply(lambda column: column.str.contains(DEMO_KEY)).any().any()
    return rows


def _add_on_the_page(at: AppTest, keyword: str = NEW_KEYWORD) -> AppTest:
    at.text_input(key="track").input(keyword)
    return button(at, "Track keyword").click().run()


def _signed_in(at: AppTest, email: str) -> AppTest:
    return signed_in(at, email, ACCESS)


def test_the_local_admins_add_lands_once_with_one_sent_row(
    store: HistoryStore, live_env: SandboxServer
) -> None:
    at = _add_on_the_page(open_page(TRACKED, domain=SITE))
    assert not at.exception
    assert any("Now tracking" in s.value for s in at.success)
    at = _add_on_the_page(at)  # a second submit right after: answered from the first
    assert any("not sent again" in i.value for i in at.info)
    assert _posts(live_env) == 1
    rows = _rows(store)
    assert len(rows) == 1
    row = rows.iloc[0]
    assert (row["person"], row["role"], row["account"]) == ("local", "admin", ACCOUNT)
    assert (row["operation"], row["target"], row["outcome"]) == ("add_tracked_keyword", NEW_KEYWORD, "sent")
    assert pd.isna(row["status"]) and row["detail"] == f"for {SLUG}"


def _two_clicks_before_the_first_is_sent() -> None:
    """Two clicks on one write arrive before the run that sends it."""
    import streamlit as st

    from client.inputs import slug_for
    from components.core.cache.connection import current_connection
    from components.core.writes.writes import request_write, run_requested_write, show_flash
    from sandbox import DEMO_KEY
    from sandbox.accounts import ACCOUNTS

    if "clicked" not in st.session_state:
        st.session_state["clicked"] = True
        slug = slug_for(ACCOUNTS[DEMO_KEY].sites[0])
        for _ in range(2):
            request_write(
                "probe", "add_tracked_keyword", slug, "double click probe", target="double click probe"
            )
    show_flash("probe")
    run_requested_write(current_connection(), "probe")


def test_a_double_click_writes_one_row(store: HistoryStore, live_env: SandboxServer) -> None:
    at = AppTest.from_function(_two_clicks_before_the_first_is_sent, default_timeout=30).run()
    at.run()
    assert not at.exception
    assert _posts(live_env) == 1
    assert _rows(store)[["target", "outcome"]].values.tolist() == [["double click probe", "sent"]]


def test_a_refusal_by_the_service_keeps_its_status_and_words(
    store: HistoryStore, live_env: SandboxServer
) -> None:
    fault = {"operation": "add_tracked_keyword", "fault": 402, "times": 1}
    assert httpx.post(f"{live_env.base_url}/_sandbox/faults", json=fault, timeout=5).status_code == 201
    at = _add_on_the_page(open_page(TRACKED, domain=SITE))
    assert not at.exception
    assert _posts(live_env) == 1
    row = _rows(store).iloc[0]
    assert (row["outcome"], row["status"], row["target"]) == ("refused_by_service", 402, NEW_KEYWORD)
    assert "quota" in row["message"].lower()


def test_a_write_that_breaks_off_in_transport_is_audited_as_failed(
    store: HistoryStore, live_env: SandboxServer
) -> None:
    live_env.state.add_fault("add_tracked_keyword", "drop", times=1)
    at = _add_on_the_page(open_page(TRACKED, domain=SITE))
    assert not at.exception
    row = _rows(store).iloc[0]
    assert (row["outcome"], row["target"]) == ("failed", NEW_KEYWORD)
    assert pd.isna(row["status"]) and row["message"]


def _forged_write() -> None:
    """A write sent by a script as if a (disabled) control had been triggered anyway."""
    from client.inputs import slug_for
    from components.core.cache.connection import current_connection
    from components.core.writes.writes import flash, show_flash, write_once
    from sandbox import DEMO_KEY
    from sandbox.accounts import ACCOUNTS

    slug = slug_for(ACCOUNTS[DEMO_KEY].sites[0])
    flash("forged", write_once(current_connection(), "add_tracked_keyword", slug, "forged keyword"))
    show_flash("forged")


def test_a_viewers_write_is_refused_never_sent_and_audited(
    store: HistoryStore, live_env: SandboxServer
) -> None:
    at = _signed_in(AppTest.from_function(_forged_write, default_timeout=30), "val@acme.com").run()
    assert not at.exception
    assert any(w.value.startswith("Editors only") for w in at.warning)
    assert _posts(live_env) == 0
    row = _rows(store).iloc[0]
    assert (row["person"], row["role"], row["outcome"]) == ("val@acme.com", "viewer", "refused_by_role")
    assert (row["operation"], row["target"]) == ("add_tracked_keyword", "forged keyword")
    assert row["message"].startswith("Editors only")


def _forged_click(at: AppTest, label: str) -> AppTest:
    """Trigger a button drawn disabled, as a hand-made message from the browser would (AppTest's own
    click() refuses; Streamlit itself drops the click before any callback)."""
    found = [b for b in [*at.get("form_submit_button"), *at.button] if b.label == label]
    assert found and found[0].disabled, f"no disabled {label!r} button"
    found[0]._value = True
    return at.run()


@pytest.mark.parametrize(
    ("page", "query", "label", "control"),
    [
        (TRACKED, {"domain": SITE}, "Track keyword", "Track keyword (form track_form)"),
        (
            "views/my-sites.py",
            {"sites_tab": "Submit a site"},
            "Submit site",
            "Submit site (form submit_site_form)",
        ),
        ("views/alerts.py", {}, "Check now", "alerts_check_now"),
    ],
    ids=["tracked-keywords", "my-sites", "alerts"],
)
def test_a_viewers_forged_click_on_a_disabled_control_is_refused_and_audited(
    store: HistoryStore, live_env: SandboxServer, page: str, query: dict[str, str], label: str, control: str
) -> None:
    at = open_page(page, email="val@acme.com", access=ACCESS, **query)
    assert not at.exception, [e.value for e in at.exception]
    requests_before = len(live_env.state.request_log)
    at = _forged_click(at, label)
    assert not at.exception, [e.value for e in at.exception]
    assert not [r for r in live_env.state.request_log[requests_before:] if r[0] != "GET"]
    rows = _rows(store)
    assert rows[["person", "role", "operation", "target", "outcome"]].values.tolist() == [
        ["val@acme.com", "viewer", "disabled_control", control, "refused_by_role"]
    ]
    assert rows.iloc[0]["message"].startswith("Editors only")


def test_taking_an_editor_off_the_list_refuses_their_next_write(
    store: HistoryStore, live_env: SandboxServer
) -> None:
    at = _signed_in(AppTest.from_function(_forged_write, default_timeout=30), "ann@acme.com").run()
    assert _posts(live_env) == 1
    at.secrets["access"] = {**ACCESS, "editors": []}  # Ann is now only a viewer (by her domain)
    at.run()
    assert _posts(live_env) == 1
    assert _rows(store)[["person", "role", "outcome"]].values.tolist() == [
        ["ann@acme.com", "viewer", "refused_by_role"],
        ["ann@acme.com", "editor", "sent"],
    ]


def _watch(subject: str) -> None:
    import streamlit as st

    from components.core.cache.connection import current_connection
    from components.core.history import store as history
    from components.core.writes.writes import audited_store_write

    conn = current_connection()
    changed = audited_store_write(
        conn, "watch", subject, lambda: history.set_watched(conn, "domain", subject, True), changed=bool
    )
    st.write(f"changed: {changed}")


def test_watchlist_changes_are_checked_and_audited(store: HistoryStore, live_env: SandboxServer) -> None:
    viewer = _signed_in(
        AppTest.from_function(_watch, args=("rival.com",), default_timeout=30), "val@acme.com"
    )
    assert "changed: None" in shown_text(viewer.run())
    assert not store.watchlist.is_watched(ACCOUNT, "domain", "rival.com")
    editor = _signed_in(
        AppTest.from_function(_watch, args=("rival.com",), default_timeout=30), "ann@acme.com"
    )
    assert "changed: True" in shown_text(editor.run())
    assert store.watchlist.is_watched(ACCOUNT, "domain", "rival.com")
    assert _rows(store)[["person", "operation", "target", "outcome"]].values.tolist() == [
        ["ann@acme.com", "watch", "rival.com", "done"],  # kept here: nothing went to the service
        ["val@acme.com", "watch", "rival.com", "refused_by_role"],
    ]


def _unwatch(subject: str) -> None:
    import streamlit as st

    from components.core.cache.connection import current_connection
    from components.core.history import store as history
    from components.core.writes.writes import audited_store_write

    conn = current_connection()
    changed = audited_store_write(
        conn, "unwatch", subject, lambda: history.set_watched(conn, "domain", subject, False), changed=bool
    )
    st.write(f"changed: {changed}")


def test_a_watchlist_change_that_changes_nothing_is_audited_as_no_change(
    store: HistoryStore, live_env: SandboxServer
) -> None:
    store.watchlist.watch(ACCOUNT, "domain", "moz.com")
    watch = AppTest.from_function(_watch, args=("moz.com",), default_timeout=30)
    assert "changed: False" in shown_text(watch.run())  # watched already
    unwatch = AppTest.from_function(_unwatch, args=("moz.com",), default_timeout=30)
    assert "changed: True" in shown_text(unwatch.run())
    assert "changed: False" in shown_text(unwatch.run())  # not watched any more
    assert _rows(store)[["operation", "target", "outcome"]].values.tolist() == [
        ["unwatch", "moz.com", "no_change"],
        ["unwatch", "moz.com", "done"],
        ["watch", "moz.com", "no_change"],
    ]


def test_watch_pressed_after_someone_else_watched_it_says_so_and_is_audited_as_no_change(
    store: HistoryStore, live_env: SandboxServer
) -> None:
    at = open_page("views/overview.py", domain="moz.com")
    assert not at.exception, [e.value for e in at.exception]
    store.watchlist.watch(ACCOUNT, "domain", "moz.com")  # meanwhile, from another session
    button(at, "Watch").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert "moz.com was already watched" in as_read(shown_text(at))
    at = open_page("views/history.py", history_tab="Watchlist")
    at.text_input(key="history_add_text").input("moz.com")
    at.button(key="FormSubmitter:history_add-Add to watchlist").click().run()
    assert "moz.com was already watched" in as_read(shown_text(at))
    assert _rows(store)[["operation", "target", "outcome"]].values.tolist() == [
        ["watch", "moz.com", "no_change"],
        ["watch", "moz.com", "no_change"],
    ]


def test_an_unusable_history_database_never_stops_a_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, live_env: SandboxServer, caplog: pytest.LogCaptureFixture
) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the database's folder should be")
    monkeypatch.setenv("DASHBOARD_DATABASE_URL", f"sqlite:///{blocker}/history.sqlite3")
    with caplog.at_level(logging.WARNING, logger="components.core.writes.write_audit"):
        at = _add_on_the_page(open_page(TRACKED, domain=SITE))
    assert not at.exception
    assert any("Now tracking" in s.value for s in at.success)
    assert _posts(live_env) == 1
    logged = [r.getMessage() for r in caplog.records if r.name == "components.core.writes.write_audit"]
    assert any("audit row for add_tracked_keyword (sent) not written" in line for line in logged)
    assert not any(DEMO_KEY in line for line in logged)
