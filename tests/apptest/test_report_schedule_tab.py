"""The Reports page's schedule tab in AppTest, in Live mode against the session sandbox, its history a
temporary SQLite file of each test's own: an editor sets recipients and review-first and removes the
schedule, approves a report waiting for review; a viewer sees all of it with the controls disabled and
the reason, and a forged approval is refused; every change is audited.

The tab runs in a tiny script (``_tab``), as the Reports page will run it: the page itself lives on
another branch."""

from __future__ import annotations

from datetime import date

import pytest
from streamlit.testing.v1 import AppTest

from client.settings import key_fingerprint
from sandbox import DEMO_KEY
from services.alerts.config import EmailConfig
from services.jobs.reports import reports_pass
from store import HistoryStore
from tests.apptest.app_pages import as_read, button, shown_text, signed_in

ACCOUNT = key_fingerprint(DEMO_KEY)
SITE = "stripe-demo.com"
ACCESS = {"editors": ["ann@acme.com"], "viewers": ["@acme.com"], "contact": "boss@acme.com"}
#: Nothing listens there: review-first reports are never mailed before their approval anyway.
NOWHERE = EmailConfig("127.0.0.1", 9, "none", "reports@example.com", ("digest@example.com",))


@pytest.fixture
def store(own_store: HistoryStore) -> HistoryStore:
    own_store.watchlist.watch(ACCOUNT, "domain", SITE, origin="own")
    return own_store


def _tab(site: str) -> None:
    from components.core.cache.connection import current_connection
    from components.core.history.store import page_source
    from components.reports.widgets.schedule import schedule_tab

    conn = current_connection()
    schedule_tab(conn, page_source(conn), site)


def _forged_approve(send_id: int) -> None:
    """An approval sent by a script as if the (disabled) button had been clicked anyway."""
    import streamlit as st

    from components.core.cache.connection import current_connection
    from components.core.history.store import history_store
    from components.reports.widgets.schedule import approve

    conn = current_connection()
    store = history_store()
    send = store.report_schedules.report_send(conn.fingerprint, send_id) if store is not None else None
    assert send is not None
    st.warning(approve(conn, send))


def _open(email: str, site: str = SITE) -> AppTest:
    at = AppTest.from_function(_tab, args=(site,), default_timeout=30)
    return signed_in(at, email, ACCESS).run()


def _audit(store: HistoryStore) -> list[list[str]]:
    rows = store.audit.events(ACCOUNT).iloc[::-1]
    return rows[["person", "operation", "outcome"]].values.tolist()


def _built_for_review(store: HistoryStore) -> int:
    store.report_schedules.set_report_schedule(ACCOUNT, SITE, "seo@client.com", True, "ann@acme.com")
    run = reports_pass(
        store, NOWHERE, account=ACCOUNT, today=date(2026, 11, 3), build_pdf=lambda *_: b"%PDF-1.7 review me"
    )
    assert run.waiting_review == 1
    [send] = store.report_schedules.report_sends(ACCOUNT)
    return send.id


def test_an_editor_sets_recipients_and_review_first_and_a_typo_is_said_without_saving(
    store: HistoryStore,
) -> None:
    at = _open("ann@acme.com")
    assert not at.exception, [e.value for e in at.exception]
    assert f"No monthly report of {SITE} is scheduled." in as_read(shown_text(at))
    at.text_area(key=f"report_schedule_recipients_{SITE}").input("seo@client.com\nboss at client")
    button(at, "Save schedule").click().run()
    assert "Not saved: 'boss' is not an e-mail address." in [w.value for w in at.warning]
    assert store.report_schedules.report_schedule(ACCOUNT, SITE) is None
    at.text_area(key=f"report_schedule_recipients_{SITE}").input("seo@client.com\nboss@client.com")
    at.checkbox(key=f"report_schedule_review_{SITE}").check()
    button(at, "Save schedule").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert "Schedule saved: each month's report goes to 2 recipients, after an editor approves it here." in [
        s.value for s in at.success
    ]
    schedule = store.report_schedules.report_schedule(ACCOUNT, SITE)
    assert schedule is not None
    assert (schedule.recipients, schedule.review_first, schedule.updated_by) == (
        ("seo@client.com", "boss@client.com"),
        True,
        "ann@acme.com",
    )
    assert "an editor approves each one here before it is sent" in shown_text(at)
    button(at, "Remove schedule").click().run()
    assert store.report_schedules.report_schedule(ACCOUNT, SITE) is None
    assert _audit(store) == [
        ["ann@acme.com", "set_report_schedule", "done"],
        ["ann@acme.com", "remove_report_schedule", "done"],
    ]


def test_an_editor_approves_a_report_waiting_for_review_and_the_approval_is_audited(
    store: HistoryStore,
) -> None:
    send_id = _built_for_review(store)
    at = _open("ann@acme.com")
    assert "October 2026: built" in shown_text(at)
    assert at.get("download_button")  # the PDF to read before approving
    at.button(key=f"report_approve_{send_id}").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert any("Approved: the October 2026 report goes out" in s.value for s in at.success)
    assert store.report_schedules.report_sends(ACCOUNT)[0].state == "pending"
    assert "No report is waiting for review." in shown_text(at)
    assert f"{SITE}, October 2026: to be sent" in as_read(shown_text(at))
    assert [row for row in _audit(store) if row[0] == "ann@acme.com"] == [
        ["ann@acme.com", "approve_report", "done"]
    ]


def test_a_viewer_sees_the_schedule_with_every_control_disabled_and_a_forged_approval_is_refused(
    store: HistoryStore,
) -> None:
    send_id = _built_for_review(store)
    at = _open("val@acme.com")
    assert not at.exception, [e.value for e in at.exception]
    assert "goes to seo@client.com after the month ends" in as_read(shown_text(at))
    assert at.text_area(key=f"report_schedule_recipients_{SITE}").disabled
    approve = at.button(key=f"report_approve_{send_id}")
    assert approve.disabled and "Editors only" in str(approve.help)
    assert not [b for b in at.button if b.label == "Remove schedule"]
    forged = signed_in(
        AppTest.from_function(_forged_approve, args=(send_id,), default_timeout=30), "val@acme.com", ACCESS
    )
    forged.run()
    assert not forged.exception, [e.value for e in forged.exception]
    assert any(w.value.startswith("Editors only") for w in forged.warning)
    assert store.report_schedules.report_sends(ACCOUNT)[0].state == "waiting_review"
    assert ["val@acme.com", "approve_report", "refused_by_role"] in _audit(store)


def test_a_site_not_yours_has_no_schedule(store: HistoryStore) -> None:
    at = _open("ann@acme.com", site="rival.com")
    assert "rival.com is not one of your sites" in as_read(shown_text(at))
    assert not at.get("text_area")
