"""Reads that spend quota units are writes: the Bulk DR checker, reading a site-check report and an
unlisted site's DR on Domain overview (GET /dr and GET /site-check, one unit per call) go through the one
write path, in AppTest against the session sandbox (Live mode) with each test's own audit log.

A viewer's click forged past the disabled control spends nothing and leaves a "refused" row; so does a
click by someone taken off every access list since the page opened (the tracked-keyword write too: its
click is only recorded for a later run, which the sign-in gate never reaches). An editor's click spends
once, leaves one "sent" row naming the subjects and the units, and a rerun spends nothing. A link fills
the page in but never spends by itself, also when the answer it once showed has expired."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from client.settings import key_fingerprint
from sandbox import DEMO_KEY, SandboxServer
from sandbox.accounts import ACCOUNTS
from sandbox.data import SUSPICIOUS_SITE, is_listed
from store import HistoryStore
from tests.apptest.app_pages import as_read, button, empty_caches, open_page, shown_text

ACCOUNT = key_fingerprint(DEMO_KEY)
QUOTA = 1000
ACCESS = {"editors": ["ann@acme.com"], "viewers": ["@acme.com"], "contact": "it@acme.com"}
#: The same lists once Ann has left: on no list at all (her domain is no longer a viewers' entry).
ACCESS_WITHOUT_ANN = {"editors": [], "viewers": ["bob@acme.com"], "contact": "it@acme.com"}
REASON = "Editors only: you can read everything here; ask it@acme.com to change things."
BULK = ("stripe.com", "github.com", "example.com")
UNLISTED = next(d for d in (f"research{i}.com" for i in range(400)) if not is_listed(d))
MINE = ACCOUNTS[DEMO_KEY].sites[0]


@dataclass(frozen=True)
class Spend:
    """One quota-spending control: its page and link, its button, where its calls go, its audit name."""

    page: str
    query: dict[str, str]
    label: str
    path: str
    operation: str
    subjects: tuple[str, ...]

    @property
    def units(self) -> int:
        return len(self.subjects)


SPENDS = [
    Spend(
        "views/bulk-dr.py",
        {"bulk_domains": "\n".join(BULK)},
        "Check 3 domains (spends 3 quota units)",
        "/dr/",
        "bulk_dr",
        BULK,
    ),
    Spend(
        "views/site-check.py",
        {"domain": SUSPICIOUS_SITE},
        "Read the report (spends 1 quota unit)",
        "/site-check/",
        "site_check",
        (SUSPICIOUS_SITE,),
    ),
    Spend(
        "views/overview.py",
        {"domain": UNLISTED},
        "Check its DR (spends 1 quota unit)",
        "/dr/",
        "dr",
        (UNLISTED,),
    ),
]
IDS = [s.operation for s in SPENDS]


@pytest.fixture
def store(own_store: HistoryStore) -> HistoryStore:
    """An empty history database of this test's own: the one the app writes its audit rows to."""
    return own_store


def _calls(server: SandboxServer, path: str) -> int:
    return sum(1 for _, logged, _, _ in server.state.request_log if path in logged)


def _spent(server: SandboxServer) -> int:
    return QUOTA - server.state.quota_remaining(DEMO_KEY, QUOTA)


def _rows(store: HistoryStore) -> pd.DataFrame:
    rows = store.audit.events(ACCOUNT)
    assert not rows.astype(str).apply(lambda column: column.str.contains(DEMO_KEY)).any().any()
    return rows


def _the_audit_row(store: HistoryStore, spend: Spend, who: tuple[str, str, str]) -> pd.Series:
    """The one audit row of the account: ``spend``'s operation on each of its subjects, by (person, role,
    outcome) ``who``."""
    rows = _rows(store)
    assert len(rows) == 1
    row = rows.iloc[0]
    person, role, outcome = who
    assert (row["person"], row["role"], row["operation"], row["outcome"]) == (
        person,
        role,
        spend.operation,
        outcome,
    )
    assert all(subject in row["target"] for subject in spend.subjects)
    return row


def _open(spend: Spend, email: str) -> AppTest:
    at = open_page(spend.page, email=email, access=ACCESS, **spend.query)
    assert not at.exception, [e.value for e in at.exception]
    return at


def _forged_click(at: AppTest, label: str) -> AppTest:
    """Trigger a button as a forged message from the browser would, past its ``disabled`` flag."""
    control: Any = button(at, label)
    control._value = True  # AppTest's click() refuses a disabled button; a hand-made message does not
    return at.run()


@pytest.mark.parametrize("spend", SPENDS, ids=IDS)
def test_a_viewer_sees_the_quota_control_disabled_with_the_reason(
    store: HistoryStore, live_env: SandboxServer, spend: Spend
) -> None:
    at = _open(spend, "bob@acme.com")
    control = button(at, spend.label)
    assert control.disabled, f"{spend.label} is usable by a viewer"
    assert control.help == REASON
    assert as_read(shown_text(at)).count(REASON) == 1  # said once, beside the control
    assert _calls(live_env, spend.path) == 0


@pytest.mark.parametrize("spend", SPENDS, ids=IDS)
def test_a_viewers_forged_click_spends_nothing_and_is_audited_as_refused(
    store: HistoryStore, live_env: SandboxServer, spend: Spend
) -> None:
    at = _forged_click(_open(spend, "bob@acme.com"), spend.label)
    assert not at.exception, [e.value for e in at.exception]
    assert _calls(live_env, spend.path) == 0 and _spent(live_env) == 0
    assert any(w.value.startswith("Editors only") for w in at.warning)
    row = _the_audit_row(store, spend, ("bob@acme.com", "viewer", "refused_by_role"))
    assert row["message"] == REASON
    assert "no quota unit spent" in row["detail"].lower()


@pytest.mark.parametrize("spend", SPENDS, ids=IDS)
def test_a_click_by_someone_taken_off_every_list_is_refused_and_audited(
    store: HistoryStore, live_env: SandboxServer, spend: Spend
) -> None:
    at = _open(spend, "ann@acme.com")
    control = button(at, spend.label)
    assert not control.disabled
    at.secrets["access"] = ACCESS_WITHOUT_ANN  # meanwhile, the lists change; her page is still open
    control.click()
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert _calls(live_env, spend.path) == 0 and _spent(live_env) == 0
    assert "No access yet" in [t.value for t in at.title]
    rows = _rows(store)
    assert len(rows) == 1
    row = rows.iloc[0]
    assert (row["person"], row["operation"], row["outcome"]) == (
        "ann@acme.com",
        spend.operation,
        "refused_by_role",
    )
    assert row["role"] is None or pd.isna(row["role"])
    assert "access list" in row["message"]


def test_a_tracked_keyword_click_by_someone_taken_off_every_list_is_audited(
    store: HistoryStore, live_env: SandboxServer
) -> None:
    at = open_page("views/tracked-keywords.py", email="ann@acme.com", access=ACCESS, site=MINE)
    assert not at.exception, [e.value for e in at.exception]
    at.text_input(key="track").input("left the team keyword")
    at.secrets["access"] = ACCESS_WITHOUT_ANN
    button(at, "Track keyword").click()
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert not [line for line in live_env.state.request_log if line[0] == "POST"]
    rows = _rows(store)
    assert rows[["person", "operation", "target", "outcome"]].values.tolist() == [
        ["ann@acme.com", "add_tracked_keyword", "left the team keyword", "refused_by_role"]
    ]
    assert "access list" in rows.iloc[0]["message"]


@pytest.mark.parametrize("spend", SPENDS, ids=IDS)
def test_an_editors_click_spends_once_with_one_audit_row_naming_the_units(
    store: HistoryStore, live_env: SandboxServer, spend: Spend
) -> None:
    at = _open(spend, "ann@acme.com")
    assert _calls(live_env, spend.path) == 0  # the link filled the page in; it spent nothing
    button(at, spend.label).click()
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert _calls(live_env, spend.path) == spend.units and _spent(live_env) == spend.units
    at.run()  # a rerun: nothing is asked or spent again
    assert _calls(live_env, spend.path) == spend.units and _spent(live_env) == spend.units
    row = _the_audit_row(store, spend, ("ann@acme.com", "editor", "sent"))
    plural = "s" if spend.units != 1 else ""
    assert f"{spend.units} quota unit{plural} spent" in row["detail"]
    # What the service's quota header said was left, as the last answer to arrive said it (a bulk
    # run's answers arrive side by side, so not necessarily the one that spent the last unit).
    left = re.search(r"\(([\d,]+) left\)", row["detail"])
    assert left is not None and QUOTA - spend.units <= int(left.group(1).replace(",", "")) < QUOTA


@pytest.mark.parametrize("spend", SPENDS[1:], ids=IDS[1:])
def test_a_page_opened_again_after_its_answer_expired_asks_before_spending(
    store: HistoryStore, live_env: SandboxServer, spend: Spend
) -> None:
    at = _open(spend, "ann@acme.com")
    button(at, spend.label).click()
    at.run()
    assert _calls(live_env, spend.path) == 1
    empty_caches()  # the answer has expired (15 minutes later)
    at.run()  # the same session opens the same link again
    assert not at.exception, [e.value for e in at.exception]
    assert _calls(live_env, spend.path) == 1, "the page spent a unit nobody clicked for"
    assert not button(at, spend.label).disabled
