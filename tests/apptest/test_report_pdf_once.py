"""A built report's PDF is printed once and reused: "Download PDF" clicked twice in a session, in two
sessions of one share link, or by two threads at once prints it once; a page that is only viewed
prints nothing; a change to the report (an editor's comment) makes the next download print again, a
snapshot the report does not show does not.

Prints are counted at the boundary, the printer the report calls (``html_to_pdf``, here a quick stand-in
that says which HTML it printed); a click runs what Streamlit runs on one: the function registered
for the button's deferred download."""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable, Iterator
from datetime import UTC, datetime

import pytest
from pydantic import SecretStr
from streamlit.runtime.media_file_manager import MediaFileManager
from streamlit.testing.v1 import AppTest

from client import ApiClient
from client.settings import key_fingerprint
from components.core.cache.connection import Connection
from components.core.history import store as history
from components.core.history.store import seed_demo_history
from components.reports import built as built_reports
from sandbox import DEMO_KEY, SandboxServer
from sandbox.accounts import ACCOUNTS
from services.reports import document
from services.reports.document import BuiltReport
from store import HistoryStore
from store.reports.period import last_month, parse_month
from tests.apptest.app_pages import open_page
from tests.polling import until

ACCOUNT = key_fingerprint(DEMO_KEY)
MINE = sorted(ACCOUNTS[DEMO_KEY].sites)[0]
TODAY = datetime.now(UTC).date()
PAGE = "views/reports.py"


class Printer:
    """Stands in for ``html_to_pdf``: counts prints; with ``hold`` set, each print waits for ``go``."""

    def __init__(self) -> None:
        self.prints = 0
        self.hold = False
        self.started = threading.Event()
        self.go = threading.Event()

    def __call__(self, html: str) -> bytes:
        self.prints += 1
        self.started.set()
        if self.hold:
            assert self.go.wait(30)
        return b"%PDF-1.7 " + hashlib.sha256(html.encode()).hexdigest().encode()


@pytest.fixture
def printer(monkeypatch: pytest.MonkeyPatch) -> Iterator[Printer]:
    counting = Printer()
    monkeypatch.setattr(document, "html_to_pdf", counting)
    built_reports.forget_pdfs()
    yield counting
    built_reports.forget_pdfs()


@pytest.fixture
def clicks(monkeypatch: pytest.MonkeyPatch) -> dict[str, Callable[[], object]]:
    """Every deferred download a run registers, by the id its button carries."""
    registered: dict[str, Callable[[], object]] = {}
    add_deferred = MediaFileManager.add_deferred

    def remembering(
        self: MediaFileManager, data: Callable[[], object], *args: object, **kwargs: object
    ) -> str:
        file_id = add_deferred(self, data, *args, **kwargs)
        registered[file_id] = data
        return file_id

    monkeypatch.setattr(MediaFileManager, "add_deferred", remembering)
    return registered


@pytest.fixture
def store(own_store: HistoryStore) -> HistoryStore:
    seed_demo_history(own_store, ACCOUNT, DEMO_KEY, TODAY)
    return own_store


def download_pdf(at: AppTest, clicks: dict[str, Callable[[], object]]) -> object:
    (button,) = [b for b in at.get("download_button") if b.proto.label == "Download PDF"]
    assert button.proto.deferred_file_id, "the PDF is not made on the click"
    return clicks[button.proto.deferred_file_id]()


def test_two_downloads_in_a_session_print_once_and_a_view_alone_prints_nothing(
    store: HistoryStore, printer: Printer, clicks: dict[str, Callable[[], object]]
) -> None:
    at = open_page(PAGE)
    assert not at.exception, [e.value for e in at.exception]
    at.run()
    assert printer.prints == 0
    first = download_pdf(at, clicks)
    second = download_pdf(at.run(), clicks)
    assert printer.prints == 1 and first == second


def test_two_sessions_of_one_share_link_print_once(
    store: HistoryStore, printer: Printer, clicks: dict[str, Callable[[], object]]
) -> None:
    _, token = store.report_links.create_report_link(ACCOUNT, MINE, last_month(TODAY), "ann@acme.com")
    one, other = open_page(report=token), open_page(report=token)
    assert not one.exception and not other.exception
    assert download_pdf(one, clicks) == download_pdf(other, clicks)
    assert printer.prints == 1


def test_a_snapshot_that_leaves_the_report_unchanged_prints_nothing_and_a_comment_prints_again(
    store: HistoryStore, printer: Printer, clicks: dict[str, Callable[[], object]], live_env: SandboxServer
) -> None:
    at = open_page(PAGE)
    download_pdf(at, clicks)
    conn = Connection("live", live_env.base_url, SecretStr(DEMO_KEY), "test", 5.0)
    with ApiClient(live_env.base_url, DEMO_KEY) as api:  # today's figures: not in last month's report
        history.record_now(conn, "lookup", MINE, api.lookup(MINE))
    download_pdf(at.run(), clicks)  # the report was built again, from a history it does not show
    assert printer.prints == 1
    (area,) = at.text_area
    area.set_value("October: the guides went live.")
    next(b for b in at.button if b.label == "Save comment").click()
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    download_pdf(at, clicks)
    assert printer.prints == 2


def test_two_threads_asking_at_once_wait_for_the_one_print(printer: Printer) -> None:
    built = BuiltReport("acme.com", parse_month("2026-10"), "<p>report</p>")
    pdf = built_reports.report_pdf(ACCOUNT, built)
    printer.hold = True
    got: list[object] = []
    asked = [threading.Thread(target=lambda: got.append(pdf())) for _ in range(3)]
    asked[0].start()
    assert printer.started.wait(30)
    for thread in asked[1:]:
        thread.start()
    printer.go.set()
    for thread in asked:
        thread.join(30)
    assert until(lambda: len(got) == 3)
    assert printer.prints == 1 and len(set(got)) == 1
