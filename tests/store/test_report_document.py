"""The report as a reader gets it: the PDF's text (read back by poppler's ``pdftotext``) and the HTML,
built from the sandbox's demo history with one real Chromium drawing the charts.

What a client would check: the site, the month and who it is from on the cover; the summary's numbers
are the history's first and last recorded values; every section with data has its chart; a brand
replaces every word of this app's name; text the service sent, a note or a comment can never become
markup in the HTML or the PDF.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from datetime import date
from html.parser import HTMLParser
from pathlib import Path

import pandas as pd
import pytest

from client.settings import key_fingerprint
from components.core.history.store import seed_demo_history
from sandbox import DEMO_KEY, SandboxConfig, SandboxServer
from sandbox.faults import HOSTILE_SCRIPT
from services.alerts.evaluate import evaluate_alerts
from services.cli import Lines, record_snapshot
from services.reports import document, next_steps
from services.reports.branding import APP_NAME, Branding, branding_from
from services.reports.content import gather
from services.reports.document import BuiltReport, EmptyPeriod, UnknownSite, build_report, write_report
from services.reports.render import ChartRenderer, PdfUnavailable, RendererUnavailable, shared_renderer
from store import HistoryStore
from store.notes import Note
from store.reports.period import Period, parse_month

ACCOUNT = key_fingerprint(DEMO_KEY)
TODAY = date(2026, 11, 26)
MONTH = parse_month("2026-10")
SITE = "acme-widgets.com"
SECTIONS = (
    "Summary",
    "Authority over time",
    "Links: Trust Map changes",
    "Keyword positions",
    "Visibility and share of voice",
    "Alerts",
)


class Elements(HTMLParser):
    """Every element, attribute name and attribute value a browser would build from a page."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.attributes: list[str] = []
        self.values: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.attributes += [name for name, _ in attrs]
        self.values += [value or "" for _, value in attrs]


def pdf_text(pdf: bytes, tmp_path: Path) -> str:
    path = tmp_path / "report.pdf"
    path.write_bytes(pdf)
    done = subprocess.run(
        ["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def pdf_title(pdf: bytes, tmp_path: Path) -> str:
    path = tmp_path / "title.pdf"
    path.write_bytes(pdf)
    done = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, timeout=60)
    return next(line for line in done.stdout.splitlines() if line.startswith("Title:"))


@pytest.fixture(scope="module")
def demo_store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HistoryStore]:
    url = f"sqlite:///{tmp_path_factory.mktemp('report') / 'history.sqlite3'}"
    with HistoryStore.open(url) as store:
        seed_demo_history(store, ACCOUNT, DEMO_KEY, TODAY)
        evaluate_alerts(store, ACCOUNT, days=60)
        yield store


@pytest.fixture
def undrawn_store(tmp_path: Path) -> Iterator[HistoryStore]:
    """The demo history where no report chart was drawn yet (a drawn chart is read back, not drawn)."""
    with HistoryStore.open(f"sqlite:///{tmp_path / 'history.sqlite3'}") as store:
        seed_demo_history(store, ACCOUNT, DEMO_KEY, TODAY)
        yield store


@pytest.fixture(scope="module")
def report(demo_store: HistoryStore) -> BuiltReport:
    return build_report(demo_store, ACCOUNT, SITE, MONTH, branding=Branding(), renderer=shared_renderer())


def test_the_pdf_names_the_site_the_month_and_its_sender_and_has_every_section(
    report: BuiltReport, tmp_path: Path
) -> None:
    text = pdf_text(report.pdf(), tmp_path)
    assert SITE in text and "October 2026" in text and APP_NAME in text
    for title in SECTIONS:
        assert title in text, title
    assert "Page 2 of" in text  # page numbers from the print CSS


def first_cells(html: str) -> list[list[str]]:
    """The text of each body row's first cell, table by table."""
    tables = html.split("<tbody>")[1:]
    return [re.findall(r"<tr><td[^>]*>([^<]*)</td>", table.split("</tbody>")[0]) for table in tables]


def test_an_agencys_keyword_lists_are_cut_to_the_first_and_the_report_says_of_how_many(
    demo_store: HistoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At 5,000 keywords every one printed made a PDF of 331 pages: the tables keep the best placed and the
    nearest outlooks, say how many there were and where every one is listed."""
    monkeypatch.setattr(document, "KEYWORDS_LISTED", 2)
    monkeypatch.setattr(next_steps, "OUTLOOKS_LISTED", 1)
    content = gather(demo_store, ACCOUNT, SITE, MONTH)
    html = write_report(content, Branding(), None).html
    tables = first_cells(html)
    keywords = content.keywords.summary["keyword"].tolist()
    assert len(keywords) > 2 and keywords[:2] in tables and keywords[:3] not in tables
    assert f"The 2 best placed of the {len(keywords)} keywords tracked for {SITE}" in html
    assert "Keyword positions tab lists every one" in html
    assert content.next is not None and content.next.projected > 1
    nearest = content.next.outlooks["keyword"].tolist()
    assert [nearest] == [cells for cells in tables if set(cells) & {nearest[0]}]
    assert f"The 1 nearest of the {content.next.projected} keywords watched" in html


def test_a_short_keyword_list_is_printed_whole_without_a_word_on_cutting(demo_store: HistoryStore) -> None:
    html = write_report(gather(demo_store, ACCOUNT, SITE, MONTH), Branding(), None).html
    assert "best placed of the" not in html and "nearest of the" not in html


def test_the_summary_gives_the_first_and_last_recorded_values_in_words(
    demo_store: HistoryStore, report: BuiltReport, tmp_path: Path
) -> None:
    history = demo_store.queries.domain_history(ACCOUNT, [SITE], MONTH.start)
    history = history[pd.to_datetime(history["day"]).dt.date <= MONTH.end].sort_values("day")
    text = " ".join(pdf_text(report.pdf(), tmp_path).split())
    for column, label in (("dr", "DR"), ("trust_score", "Trust"), ("referring_domains", "Referring domains")):
        first, last = int(history[column].dropna().iloc[0]), int(history[column].dropna().iloc[-1])
        said = (
            f"{label} held at {last:,}."
            if first == last
            else f"{label} {'rose' if last > first else 'fell'} from {first:,} to {last:,}"
        )
        assert said in text, said


def test_every_section_with_data_has_its_chart_drawn_as_an_image(report: BuiltReport, tmp_path: Path) -> None:
    for chart in ("ratings", "referring_domains", "trust_map", "positions", "visibility", "share_of_voice"):
        start = report.html.index(f'data-chart="{chart}"')
        assert "<svg" in report.html[start : start + 300], chart
    text = pdf_text(report.pdf(), tmp_path)
    for title in (
        "DR and TrueDR over time",
        "Positions over time",
        "Visibility over time",
        "Share of voice over time",
    ):
        assert title in text, title
    assert report.charts_missing is None


def test_a_brand_replaces_every_word_of_the_apps_name(demo_store: HistoryStore, tmp_path: Path) -> None:
    logo = tmp_path / "logo.svg"
    logo.write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="40" height="20"/></svg>'
    )
    branding = branding_from(
        {
            "brand": "Acme Digital",
            "logo": str(logo),
            "accent": "#aa3366",
            "footer": "Confidential: for Acme's client",
        }
    )
    built = build_report(demo_store, ACCOUNT, SITE, MONTH, branding=branding, renderer=shared_renderer())
    pdf = built.pdf()
    text = pdf_text(pdf, tmp_path)
    assert "Acme Digital" in text and "Confidential: for Acme's client" in text
    assert APP_NAME not in text and APP_NAME not in built.html and APP_NAME not in pdf_title(pdf, tmp_path)
    assert "data:image/svg+xml;base64," in built.html and "#aa3366" in built.html


def test_an_unusable_brand_setting_is_named() -> None:
    with pytest.raises(ValueError, match="accent"):
        branding_from({"accent": "red; } body { display: none"})
    with pytest.raises(ValueError, match="logo"):
        branding_from({"logo": "/nowhere/logo.png"})


def test_an_editors_comment_is_printed(demo_store: HistoryStore, tmp_path: Path) -> None:
    demo_store.report_comments.set_report_comment(
        ACCOUNT, SITE, MONTH, "October: the new guides went live.", "ed@example.com"
    )
    try:
        built = build_report(
            demo_store, ACCOUNT, SITE, MONTH, branding=Branding(), renderer=shared_renderer()
        )
        assert "October: the new guides went live." in pdf_text(built.pdf(), tmp_path)
    finally:
        demo_store.report_comments.set_report_comment(ACCOUNT, SITE, MONTH, "", "ed@example.com")


def test_hostile_service_text_a_note_and_a_comment_stay_text(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'hostile.sqlite3'}"
    with HistoryStore.open(url) as store:
        seed_demo_history(store, ACCOUNT, DEMO_KEY, TODAY)
        with SandboxServer(SandboxConfig(), host="127.0.0.1", port=0) as sandbox:
            for operation in ("sites", "lookup", "tracked_keywords", "trust_map", "keyword_report"):
                sandbox.state.add_fault(operation, "hostile", key=DEMO_KEY)
            said: list[str] = []
            record_snapshot(
                store,
                sandbox.base_url,
                DEMO_KEY,
                date(2026, 10, 30),
                timeout_s=20,
                lines=Lines(said.append, said.append),
            )
        store.notes.add_note(ACCOUNT, Note(date(2026, 10, 12), f"{HOSTILE_SCRIPT} launch"), "ed@example.com")
        store.report_comments.set_report_comment(
            ACCOUNT, SITE, MONTH, f'{HOSTILE_SCRIPT}<img src=x onerror="alert(1)">', "ed@example.com"
        )
        built = build_report(store, ACCOUNT, SITE, MONTH, branding=Branding(), renderer=shared_renderer())
        elements = Elements()
        elements.feed(built.html)
        assert {"script", "a", "iframe", "object"}.isdisjoint(elements.tags)
        assert elements.tags.count("img") == 0  # no logo without a brand; a hostile <img> is text
        assert not [name for name in elements.attributes if name.startswith("on")]
        assert not [value for value in elements.values if "javascript:" in value.lower()]
        assert "&lt;script&gt;window.__pwned = 1&lt;/script&gt;" in built.html  # shown, as characters
        assert HOSTILE_SCRIPT in pdf_text(built.pdf(), tmp_path)


def test_an_unknown_site_or_an_empty_month_says_so(demo_store: HistoryStore) -> None:
    with pytest.raises(UnknownSite, match="not one of your sites"):
        build_report(demo_store, ACCOUNT, "nobody.example", MONTH, branding=Branding(), renderer=None)
    with pytest.raises(EmptyPeriod, match="January 2020"):
        build_report(demo_store, ACCOUNT, SITE, parse_month("2020-01"), branding=Branding(), renderer=None)


def test_without_chromium_the_html_still_works_and_the_pdf_says_what_is_missing(
    undrawn_store: HistoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BROWSER_PATH", "/nowhere/chromium")
    built = build_report(undrawn_store, ACCOUNT, SITE, MONTH, branding=Branding(), renderer=ChartRenderer())
    assert 'data-chart="ratings"' in built.html and "Plotly.newPlot" in built.html
    with pytest.raises(PdfUnavailable, match="Chromium"):
        built.pdf()


def test_a_renderer_whose_browser_died_says_so_and_the_next_chart_starts_a_new_one(tmp_path: Path) -> None:
    # In a process of its own: the browser is killed under the renderer between two charts, as an
    # out-of-memory kill or a crash would; the chart after that fails in words, bounded, never hangs,
    # and the one after it is drawn by a new browser.
    script = """
import os, signal, sys, time
import plotly.graph_objects as go
from services.reports.render import ChartRenderer, RendererUnavailable
renderer = ChartRenderer(timeout_s=20)
print(renderer.svg(go.Figure(go.Bar(y=[1])), 300, 200)[:4])
os.kill(renderer._page.subprocess.pid, signal.SIGKILL)
time.sleep(1)
started = time.monotonic()
try:
    renderer.svg(go.Figure(go.Bar(y=[2])), 300, 200)
    print("drawn by a dead browser")
except RendererUnavailable as exc:
    print("refused:", exc, round(time.monotonic() - started))
print(renderer.svg(go.Figure(go.Bar(y=[3])), 300, 200)[:4])
renderer.close()
"""
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=240,
        env={**os.environ, "PYTHONPATH": str(root)},
    )
    assert done.returncode == 0, done.stdout + done.stderr[-2000:]
    first, refused, again = done.stdout.strip().splitlines()[-3:]
    assert first == "<svg" and again == "<svg"
    assert refused.startswith("refused: ") and int(refused.rsplit(" ", 1)[1]) <= 30, refused


def test_a_period_reads_as_people_write_it() -> None:
    assert MONTH.words == "October 2026" and MONTH.slug == "2026-10"
    assert Period(date(2026, 10, 3), date(2026, 10, 17)).words == "3–17 October 2026"
    assert Period(date(2026, 9, 28), date(2026, 10, 4)).words == "28 September – 4 October 2026"


@pytest.fixture
def demo_url(demo_store: HistoryStore, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> str:
    monkeypatch.setenv("VERIFIEDDR_API_KEY", DEMO_KEY)
    monkeypatch.chdir(tmp_path)
    return demo_store.url


def test_the_report_command_writes_the_pdf_and_prints_its_path_last(
    demo_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from services.cli import main

    assert main(["report", "--site", SITE, "--month", "2026-10", "--database-url", demo_url]) == 0
    path = Path(capsys.readouterr().out.splitlines()[-1])
    assert path.name == f"report-{SITE}-2026-10.pdf"
    assert "October 2026" in pdf_text((tmp_path / path).read_bytes(), tmp_path)
    html = tmp_path / "october.html"
    assert (
        main(
            [
                "report",
                "--site",
                SITE,
                "--month",
                "2026-10",
                "--output",
                str(html),
                "--database-url",
                demo_url,
            ]
        )
        == 0
    )
    assert capsys.readouterr().out.splitlines()[-1] == str(html)
    page = html.read_text()
    assert "<svg" in page[page.index('data-chart="ratings"') :][:300]  # charts as images here too


@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        (["--site", "nobody.example"], "nobody.example is not one of your sites"),
        (["--site", SITE, "--month", "2020-01"], f"Nothing about {SITE} is recorded in January 2020."),
        (["--site", SITE, "--month", "October"], "is not a month written YYYY-MM"),
        (["--site", SITE, "--output", "report.docx"], "ends in .pdf or .html"),
    ],
)
def test_the_report_command_refuses_in_one_line_with_exit_2(
    demo_url: str, arguments: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from services.cli import main

    assert main(["report", *arguments, "--database-url", demo_url]) == 2
    captured = capsys.readouterr()
    assert said in captured.err and captured.out == "" and "Traceback" not in captured.err
    assert len([line for line in captured.err.splitlines() if not line.startswith("Building")]) == 1


class _DiesAfterOneChart(ChartRenderer):
    """A renderer whose Chromium draws one chart and then is gone (what a crashed browser looks like)."""

    def __init__(self) -> None:
        super().__init__()
        self.calls = 0

    def svg(self, figure: object, width: int, height: int) -> str:
        self.calls += 1
        if self.calls > 1:
            raise RendererUnavailable("The chart renderer (Chromium) stopped.")
        return '<svg xmlns="http://www.w3.org/2000/svg"></svg>'


def test_a_renderer_lost_halfway_leaves_the_other_charts_interactive_and_says_why_there_is_no_pdf(
    undrawn_store: HistoryStore,
) -> None:
    renderer = _DiesAfterOneChart()
    built = build_report(undrawn_store, ACCOUNT, SITE, MONTH, branding=Branding(), renderer=renderer)
    first, second = (
        built.html.split('data-chart="ratings"')[1],
        built.html.split('data-chart="referring_domains"')[1],
    )
    assert first.lstrip('">').startswith("<svg")
    assert built.html.count("Plotly.newPlot") >= 2 and built.html.count("plotly.js v") == 1  # plotly.js once
    assert "<svg" not in second[:200]
    with pytest.raises(PdfUnavailable, match="stopped"):
        built.pdf()
