"""The Reports page in AppTest, in Live mode against the session sandbox, its store a temporary SQLite
file holding the demo's history: last month's report of your site previewed as it prints, its PDF and
HTML downloads, an editor's comment saved into it (and audited), a viewer who cannot, and the page's
words when there is nothing to report."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from client.settings import key_fingerprint
from components.core.history.store import seed_demo_history
from sandbox import DEMO_KEY
from sandbox.accounts import ACCOUNTS
from store import HistoryStore
from store.reports.period import last_month
from tests.apptest.app_pages import as_read, open_page, shown_text

ACCOUNT = key_fingerprint(DEMO_KEY)
MINE = sorted(ACCOUNTS[DEMO_KEY].sites)[0]
TODAY = datetime.now(UTC).date()
LAST_MONTH = last_month(TODAY)
PAGE = "views/reports.py"


@pytest.fixture
def store(own_store: HistoryStore) -> HistoryStore:
    seed_demo_history(own_store, ACCOUNT, DEMO_KEY, TODAY)
    return own_store


def preview(at: AppTest) -> str:
    frames = at.get("iframe")
    assert len(frames) == 1, "no preview"
    return str(frames[0].proto.srcdoc)


def downloads(at: AppTest) -> dict[str, bool]:
    return {element.proto.label: element.proto.disabled for element in at.get("download_button")}


def test_the_page_previews_last_months_report_of_your_site_with_both_downloads(store: HistoryStore) -> None:
    at = open_page(PAGE)
    assert not at.exception, [e.value for e in at.exception]
    assert at.selectbox(key="report_site").value == MINE
    page = preview(at)
    assert f"<h1>{MINE}</h1>" in page and f"Monthly report · {LAST_MONTH.words}" in page
    assert 'data-chart="ratings"' in page and "<svg" in page
    assert downloads(at) == {"Download PDF": False, "Download HTML": False}


def test_an_editors_comment_is_saved_audited_and_printed_in_the_report(store: HistoryStore) -> None:
    at = open_page(PAGE)
    (area,) = at.text_area
    area.set_value("October: the <b>guides</b> went live.")
    next(b for b in at.button if b.label == "Save comment").click()
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert "Comment saved" in shown_text(at)
    assert (
        store.report_comments.report_comment(ACCOUNT, MINE, LAST_MONTH)
        == "October: the <b>guides</b> went live."
    )
    assert "October: the &lt;b&gt;guides&lt;/b&gt; went live." in preview(at)  # its words, inert
    assert store.audit.events(ACCOUNT, operation="comment_report")["outcome"].tolist() == ["done"]


def test_a_viewer_reads_and_downloads_the_report_but_cannot_comment(store: HistoryStore) -> None:
    access = {"editors": ["ann@acme.com"], "viewers": ["@acme.com"], "contact": "it@acme.com"}
    at = open_page(PAGE, email="bob@acme.com", access=access)
    assert not at.exception, [e.value for e in at.exception]
    reason = "Editors only: you can read everything here; ask it@acme.com to change things."
    save = next(b for b in at.button if b.label == "Save comment")
    assert save.disabled and save.help == reason and at.text_area[0].disabled
    assert as_read(shown_text(at)).count(reason) == 1
    assert MINE in preview(at) and downloads(at)["Download PDF"] is False


def test_another_month_with_nothing_recorded_says_so(store: HistoryStore) -> None:
    at = open_page(PAGE)
    months = at.selectbox(key="report_month").options
    at.selectbox(key="report_month").select_index(len(months) - 1).run()
    assert not at.exception, [e.value for e in at.exception]
    assert "Nothing about" in shown_text(at) and not at.get("iframe")


def test_without_any_site_of_yours_in_the_history_the_page_says_how_they_get_there(
    own_store: HistoryStore,
) -> None:
    at = open_page(PAGE)
    assert not at.exception, [e.value for e in at.exception]
    assert "No site of yours is in the history yet" in shown_text(at) and not at.get("iframe")


def test_when_charts_cannot_be_drawn_the_pdf_button_says_what_is_missing() -> None:
    def page() -> None:
        from components.reports.widgets.preview import downloads
        from services.reports.document import BuiltReport
        from store.reports.period import parse_month

        downloads(
            BuiltReport(
                "acme.com", parse_month("2026-10"), "<p>report</p>", charts_missing="No Chromium here."
            ),
            "account",
        )

    at = AppTest.from_function(page).run()
    assert [b.label for b in at.button if b.disabled] == ["Download PDF"]
    assert "No Chromium here." in shown_text(at)
    assert downloads(at) == {"Download HTML": False}


def test_a_logo_that_runs_script_is_refused_in_words_and_the_report_is_made_without_it(
    store: HistoryStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    logo = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'
    (tmp_path / "logo.svg").write_text(logo)
    (tmp_path / ".streamlit").mkdir()
    (tmp_path / ".streamlit" / "secrets.toml").write_text(
        '[report]\nbrand = "Acme Digital"\nlogo = "logo.svg"\n'
    )
    monkeypatch.chdir(tmp_path)  # the secrets file the app reads its [report] settings from
    at = open_page(PAGE)
    assert not at.exception, [e.value for e in at.exception]
    warnings = [w.value for w in at.warning]
    assert warnings == [
        "[report] logo 'logo.svg' was not used: an SVG logo may not hold <script> elements (they run code "
        "or embed other documents); the report is made without it. Fix `[report]` in the secrets file."
    ]
    page = preview(at)
    assert "Acme Digital" in page and "data:image" not in page and "alert(1)" not in page
    assert downloads(at) == {"Download PDF": False, "Download HTML": False}
