"""The Activity page in AppTest: audit rows recorded through HistoryStore into a temporary SQLite file,
the person set through AppTest's own ``user`` and ``secrets`` (what ``st.user`` and ``st.secrets``
read). An admin sees everyone's changes, an editor or viewer only their own; the filters narrow the
table; the CSV is there; without sign-in the local user is an admin; an unreachable store is said."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from client.settings import key_fingerprint
from components.core.history import store as history
from sandbox import DEMO_KEY, SandboxServer
from store import AuditEvent, HistoryStore
from tests.apptest.app_pages import open_page, shown_text

ACCOUNT = key_fingerprint(DEMO_KEY)
PAGE = "views/activity.py"
NOW = datetime.now(UTC).replace(microsecond=0)
ACCESS = {
    "admins": ["boss@acme.com"],
    "editors": ["ann@acme.com"],
    "viewers": ["@acme.com"],
    "contact": "it@acme.com",
}


@pytest.fixture
def store(own_store: HistoryStore) -> HistoryStore:
    """A store of this test's own, the one the app opens, holding a few changes by three people."""
    events = [
        AuditEvent("ann@acme.com", "editor", ACCOUNT, "add_tracked_keyword", "web analytics", "sent",
                   at=NOW - timedelta(days=3)),
        AuditEvent("ann@acme.com", "editor", ACCOUNT, "approve_exchange", "partner.com",
                   "refused_by_service", 409, "Already proposed.", "Swap links?",
                   at=NOW - timedelta(days=1)),
        AuditEvent("bob@acme.com", "viewer", ACCOUNT, "remove_tracked_keyword", "crm", "refused_by_role",
                   at=NOW - timedelta(hours=2)),
        AuditEvent("boss@acme.com", "admin", ACCOUNT, "run_gsc_audit", "acme.com", "failed",
                   message="The service did not answer in time.", at=NOW - timedelta(hours=1)),
        AuditEvent("eve@other.com", "admin", "another-account", "submit_site", "other.com", "sent"),
    ]  # fmt: skip
    for event in events:
        own_store.audit.record(event)
    return own_store


def _open(email: str | None) -> AppTest:
    """The Activity page for ``email`` signed in (None: sign-in off, the local user)."""
    return open_page(PAGE, email=email, access=ACCESS)


def _rows(at: AppTest) -> pd.DataFrame:
    assert not at.exception, [e.value for e in at.exception]
    found = [frame.value for frame in at.dataframe if "outcome" in frame.value.columns]
    assert found, f"no activity table; page says {shown_text(at)!r}"
    return found[0]


def _downloads(at: AppTest) -> list[Any]:
    return [e for e in at.get("download_button") if "CSV" in str(e.proto.label)]


def test_an_admin_sees_everyones_changes_in_the_account_in_plain_words(store: HistoryStore) -> None:
    at = _open("boss@acme.com")
    rows = _rows(at)
    assert set(rows["person"]) == {"ann@acme.com", "bob@acme.com", "boss@acme.com"}  # not another account
    assert rows["target"].tolist() == ["acme.com", "crm", "partner.com", "web analytics"]  # newest first
    assert set(rows["operation"]) == {
        "Add tracked keyword",
        "Send exchange proposal",
        "Remove tracked keyword",
        "Run Search Console audit",
    }
    assert set(rows["outcome"]) == {"Sent", "Refused by the service", "Refused: editors only", "Failed"}
    assert "Every person's changes" in shown_text(at)
    assert at.multiselect(key="activity_people").options == ["ann@acme.com", "bob@acme.com", "boss@acme.com"]
    assert _downloads(at), "no CSV download under the table"
    assert not [b for b in at.button if "delete" in b.label.lower() or "edit" in b.label.lower()]


def test_an_editor_sees_only_their_own_changes_and_no_person_filter(store: HistoryStore) -> None:
    at = _open("ann@acme.com")
    rows = _rows(at)
    assert set(rows["person"]) == {"ann@acme.com"}
    assert len(rows) == 2
    assert "Your own changes" in shown_text(at)
    assert not [m for m in at.multiselect if m.key == "activity_people"]
    assert _downloads(at)


def _shown_columns(at: AppTest) -> list[str]:
    """The columns the page's table draws (the CSV has them all)."""
    return next(list(f.proto.column_order) for f in at.dataframe if "outcome" in f.value.columns)


def test_the_table_leaves_to_the_csv_what_would_not_fit_a_laptop(store: HistoryStore) -> None:
    admin = _open("boss@acme.com")
    assert _shown_columns(admin) == ["at", "person", "operation", "target", "outcome", "status", "message"]
    editor = _open("ann@acme.com")  # their own rows: no Person column; the service's 409 keeps Status
    assert _shown_columns(editor) == ["at", "operation", "target", "outcome", "status", "message"]
    editor.multiselect(key="activity_outcomes").select("Sent").run()  # no row with a status left
    assert _shown_columns(editor) == ["at", "operation", "target", "outcome", "message"]
    assert "role" in _rows(editor).columns  # handed to the CSV all the same


def test_a_viewer_sees_their_own_refused_change(store: HistoryStore) -> None:
    rows = _rows(_open("bob@acme.com"))
    assert rows["target"].tolist() == ["crm"]
    assert rows["outcome"].tolist() == ["Refused: editors only"]


def test_the_filters_narrow_the_table(store: HistoryStore) -> None:
    at = _open("boss@acme.com")
    at.multiselect(key="activity_people").select("ann@acme.com").run()
    assert set(_rows(at)["person"]) == {"ann@acme.com"}
    at.multiselect(key="activity_outcomes").select("Refused by the service").run()
    rows = _rows(at)
    assert rows["target"].tolist() == ["partner.com"] and rows["status"].tolist() == [409]
    assert "1 of 4 changes" in shown_text(at)
    at.multiselect(key="activity_people").unselect("ann@acme.com")
    at.multiselect(key="activity_outcomes").unselect("Refused by the service")
    at.multiselect(key="activity_operations").select("Remove tracked keyword").run()
    assert _rows(at)["target"].tolist() == ["crm"]
    at.multiselect(key="activity_operations").unselect("Remove tracked keyword")
    today = NOW.date()  # the rows' own days, set at import: the suite may reach this after midnight
    at.date_input(key="activity_days").set_value((today - timedelta(days=4), today - timedelta(days=2))).run()
    assert _rows(at)["target"].tolist() == ["web analytics"]
    at.date_input(key="activity_days").set_value(
        (today - timedelta(days=30), today - timedelta(days=20))
    ).run()
    assert "No activity matches these filters" in shown_text(at)


def test_without_sign_in_the_local_user_sees_every_row_of_the_account(store: HistoryStore) -> None:
    rows = _rows(_open(None))
    assert len(rows) == 4


def test_the_empty_log_says_what_will_appear_here(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, live_env: SandboxServer
) -> None:
    monkeypatch.setenv("DASHBOARD_DATABASE_URL", f"sqlite:///{tmp_path / 'empty.sqlite3'}")
    at = _open("ann@acme.com")
    assert not at.exception, [e.value for e in at.exception]
    text = shown_text(at)
    assert "No activity yet" in text and "Every change you make" in text and "exchange proposals" in text
    assert not at.dataframe


def test_an_unreachable_store_is_said_in_plain_words(
    live_env: SandboxServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DASHBOARD_DATABASE_URL", "postgresql+psycopg://u:secret@127.0.0.1:1/x")
    at = _open("boss@acme.com")
    assert not at.exception, [e.value for e in at.exception]
    assert history.UNAVAILABLE in shown_text(at)
    assert not re.search(r"\bsecret\b", shown_text(at))  # the database password is never shown
