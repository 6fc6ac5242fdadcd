"""Write controls for people who may only read: a viewer sees every write control of the tracked
keywords, link exchanges, My sites, History, AI visibility, Site details and Search Console pages (and
the Watch button) drawn disabled, each saying why, with the reason once beside them; an editor sees
the same controls enabled.

The person is set through AppTest's own ``user`` and ``secrets`` (what ``st.user`` and ``st.secrets``
read), against the session sandbox in Live mode with the demo key."""

from __future__ import annotations

from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from client.settings import key_fingerprint
from sandbox import DEMO_KEY
from sandbox.accounts import ACCOUNTS
from store import HistoryStore
from tests.apptest.app_pages import as_read, open_page, shown_text

ACCOUNT = key_fingerprint(DEMO_KEY)
MINE = ACCOUNTS[DEMO_KEY].sites[0]
RIVAL = "semrush.com"
ACCESS = {"editors": ["ann@acme.com"], "viewers": ["@acme.com"], "contact": "it@acme.com"}
REASON = "Editors only: you can read everything here; ask it@acme.com to change things."

#: (page, its URL query, the labels of its write controls)
PAGES: list[tuple[str, dict[str, str], tuple[str, ...]]] = [
    ("views/tracked-keywords.py", {"site": MINE}, ("Track keyword", "Refresh snapshot", "Remove…")),
    ("views/exchanges.py", {"domain": MINE}, ("Preview (dry run: nothing is sent)",)),
    ("views/my-sites.py", {"sites_tab": "Submit a site"}, ("Submit site",)),
    ("views/history.py", {"history_tab": "Watchlist"}, ("Add to watchlist", "Remove")),
    ("views/overview.py", {"domain": RIVAL}, ("Watch",)),
    (
        "views/ai-visibility.py",
        {"domain": MINE, "ai_tab": "Questions"},
        ("Add question", "Run now", "Replace the questions"),
    ),
    ("views/site.py", {"domain": MINE, "site_tab": "Verify badge"}, ("Verify badge",)),
    ("views/search-console.py", {"domain": MINE, "gsc_tab": "Index audit"}, ("Run a fresh audit",)),
]


@pytest.fixture
def store(own_store: HistoryStore) -> HistoryStore:
    """A store of this test's own, watching a competitor (so the watchlist has one to remove)."""
    own_store.watchlist.watch(ACCOUNT, "domain", "rival-example.com")
    return own_store


def _open(email: str, page: str, query: dict[str, str]) -> AppTest:
    at = open_page(page, email=email, access=ACCESS, **query)
    assert not at.exception, [e.value for e in at.exception]
    return at


def _controls(at: AppTest, labels: tuple[str, ...]) -> dict[str, Any]:
    buttons = [*at.get("form_submit_button"), *at.button]
    found = {b.label: b for b in buttons if b.label in labels}
    assert set(found) == set(labels), f"missing {set(labels) - set(found)}; have {[b.label for b in buttons]}"
    return found


@pytest.fixture(params=PAGES, ids=[p for p, _, _ in PAGES])
def with_controls(request: pytest.FixtureRequest) -> tuple[str, dict[str, str], tuple[str, ...]]:
    """A page with write controls: its file, the query that opens it, and its controls' labels."""
    return request.param


def test_a_viewer_sees_the_write_controls_disabled_with_the_reason(
    store: HistoryStore, with_controls: tuple[str, dict[str, str], tuple[str, ...]]
) -> None:
    page, query, labels = with_controls
    at = _open("bob@acme.com", page, query)
    for label, control in _controls(at, labels).items():
        assert control.disabled, f"{label} is usable by a viewer"
        assert control.help == REASON, f"{label} does not say why: {control.help!r}"
    if page != "views/overview.py":  # the Watch button sits in a toolbar: its tooltip says why
        assert as_read(shown_text(at)).count(REASON) == 1  # said once, near the controls
    # Typed text is never lost: fields stay enabled (Streamlit drops a disabled field's value).
    assert not [field.label for field in at.text_input if field.disabled]


def test_an_editor_sees_them_enabled(
    store: HistoryStore, with_controls: tuple[str, dict[str, str], tuple[str, ...]]
) -> None:
    page, query, labels = with_controls
    at = _open("ann@acme.com", page, query)
    for label, control in _controls(at, labels).items():
        assert not control.disabled, f"{label} is disabled for an editor"
        assert control.help != REASON
    assert "Editors only" not in shown_text(at)
