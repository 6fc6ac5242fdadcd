"""The report's print layout, read back from the PDF page by page (poppler's ``pdftotext`` and
``pdffonts``), as a client holding the printed report meets it.

The demo's October for acme-widgets.com, with an editor's note on a chart day (and one more watched
competitor, ranking for none of the site's keywords), is printed twice for
the whole module: without a comment, and with one of several lines (which moves every later section
down the pages, so tables and headings meet a page's foot in other places). What a reader would
notice: a cover that is mostly blank, a heading at the bottom of a page with its chart over the leaf,
one table row alone on a page, a footer in another typeface than the body, and chart lines without a
key.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from html.parser import HTMLParser
from pathlib import Path

import pytest

from client.settings import key_fingerprint
from components.core.history.store import seed_demo_history
from sandbox import DEMO_KEY
from services.alerts.evaluate import evaluate_alerts
from services.reports.branding import Branding
from services.reports.charts import report_charts
from services.reports.content import ReportContent, gather
from services.reports.document import build_report
from services.reports.render import shared_renderer
from store import HistoryStore
from store.notes import Note
from store.reports.period import parse_month

ACCOUNT = key_fingerprint(DEMO_KEY)
TODAY = date(2026, 11, 26)
MONTH = parse_month("2026-10")
SITE = "acme-widgets.com"
#: A competitor the team also watches that ranks for none of the site's keywords in the month (the
#: demo's own competitors compete for them): its lines stand at 0.
ABSENT = "medium.com"
NOTE = "Launched the new guides"
COMMENT = "\n".join(f"Point {i} of the month's work with your team." for i in range(1, 11))
#: Each section's heading and the title of the chart it opens with.
FIRST_CHARTS = {
    "Authority over time": "DR and TrueDR over time",
    "Links: Trust Map changes": f"Trust Map of {SITE} over time",
    "Keyword positions": "Positions over time",
    "Visibility and share of voice": "Visibility over time",
}
HEADINGS = {
    "Comment",
    "Summary",
    *FIRST_CHARTS,
    "Alerts",
    "Notes",
    "Strongest referring domains gained",
    "Strongest referring domains lost",
    "New referring domains with a spam score of 50 or more",
}
FOOTER = re.compile(r"Page \d+ of \d+\s*$")


@dataclass(frozen=True)
class Printed:
    content: ReportContent
    html: str
    #: Each page's text lines, whitespace collapsed, blank lines and the page footer left out.
    pages: list[list[str]]
    #: The PDF's fonts, as pdffonts names them.
    fonts: list[str]
    #: Page 1: how far down its text reaches, as a share of the page's height.
    cover_filled: float


def _collapsed(line: str) -> str:
    return " ".join(line.split())


def _run(*command: str) -> str:
    done = subprocess.run(list(command), capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


def _cover_filled(path: Path) -> float:
    boxes = _run("pdftotext", "-bbox", "-f", "1", "-l", "1", str(path), "-")
    page = re.search(r'<page width="[\d.]+" height="([\d.]+)"', boxes)
    assert page is not None, boxes[:200]
    height = float(page.group(1))
    lowest = max(float(y) for y in re.findall(r'yMax="([\d.]+)"', boxes))
    return lowest / height


def _print(store: HistoryStore, path: Path) -> Printed:
    built = build_report(store, ACCOUNT, SITE, MONTH, branding=Branding(), renderer=shared_renderer())
    path.write_bytes(built.pdf())
    pages = [
        [_collapsed(line) for line in page.splitlines() if line.strip() and not FOOTER.search(line)]
        for page in _run("pdftotext", "-layout", str(path), "-").split("\f")
    ]
    fonts = [line.split()[0] for line in _run("pdffonts", str(path)).splitlines()[2:]]
    content = gather(store, ACCOUNT, SITE, MONTH)
    return Printed(content, built.html, [page for page in pages if page], fonts, _cover_filled(path))


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[Printed]]:
    """The report without a comment, then with one."""
    folder = tmp_path_factory.mktemp("print")
    with HistoryStore.open(f"sqlite:///{folder / 'history.sqlite3'}") as store:
        seed_demo_history(store, ACCOUNT, DEMO_KEY, TODAY)
        store.watchlist.watch(ACCOUNT, "domain", ABSENT)  # a competitor in none of the site's top 10s
        evaluate_alerts(store, ACCOUNT, days=60)
        store.notes.add_note(ACCOUNT, Note(date(2026, 10, 12), NOTE), "ed@example.com")
        plain = _print(store, folder / "plain.pdf")
        store.report_comments.set_report_comment(ACCOUNT, SITE, MONTH, COMMENT, "ed@example.com")
        yield [plain, _print(store, folder / "commented.pdf")]


def _page_of(printed: Printed, text: str) -> int:
    return next(
        number for number, lines in enumerate(printed.pages, 1) if any(text in line for line in lines)
    )


def test_the_cover_holds_the_summary_and_uses_its_page(reports: list[Printed]) -> None:
    for printed in reports:
        cover = printed.pages[0]
        assert SITE in cover and "Monthly report · October 2026" in cover
        assert "Summary" in cover
        assert any(re.match(r"DR (rose|fell|held)", line) for line in cover), cover
        assert any(line.startswith("Referring domains ") for line in cover), cover  # the summary's table
        assert printed.cover_filled > 0.6, f"the cover's text ends {printed.cover_filled:.0%} down the page"


def test_no_heading_is_left_at_a_pages_foot_without_what_follows_it(reports: list[Printed]) -> None:
    for printed in reports:
        for number, lines in enumerate(printed.pages, 1):
            assert lines[-1] not in HEADINGS, f"page {number} ends with the heading {lines[-1]!r}"
        for heading, chart in FIRST_CHARTS.items():
            assert _page_of(printed, heading) == _page_of(printed, chart), heading


class _Tables(HTMLParser):
    """Each table's rows in the document: the text of each body row's first two cells."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[list[tuple[str, str]]] = []
        self._in_body = False
        self._cells: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "tbody":
            self._in_body = True
            self.tables.append([])
        elif tag == "tr" and self._in_body:
            self._cells = []
        elif tag == "td" and self._cells is not None:
            self._cells.append("")

    def handle_endtag(self, tag: str) -> None:
        if tag == "tbody":
            self._in_body = False
        elif tag == "tr" and self._cells is not None:
            first, second = (_collapsed(cell) for cell in self._cells[:2])
            self.tables[-1].append((first, second))
            self._cells = None

    def handle_data(self, data: str) -> None:
        if self._cells:
            self._cells[-1] += data


def _row_pages(printed: Printed) -> list[list[int]]:
    """On which page each table row is printed: each row is the next line, in reading order, that starts
    with the first word of its first cell and holds the first word of its second."""
    parser = _Tables()
    parser.feed(printed.html)
    lines = [(number, line) for number, page in enumerate(printed.pages, 1) for line in page]
    at = 0
    found: list[list[int]] = []
    for table in parser.tables:
        pages = []
        for first, second in table:
            starts, holds = first.split()[0] + " ", second.split()[0]
            while not (lines[at][1].startswith(starts) and holds in lines[at][1]):
                at += 1
                assert at < len(lines), f"row {first!r} {second!r} is not in the PDF"
            pages.append(lines[at][0])
            at += 1
        found.append(pages)
    return found


def test_no_page_holds_a_lone_row_of_a_table(reports: list[Printed]) -> None:
    for printed in reports:
        tables = _row_pages(printed)
        assert len(tables) >= 6 and sum(len(rows) for rows in tables) >= 20
        for rows in tables:
            counts = {page: rows.count(page) for page in rows}
            if len(rows) > 1:
                assert min(counts.values()) >= 2, f"a table's rows fall on pages {rows}"


def test_every_text_of_the_pdf_is_in_one_font_family(reports: list[Printed]) -> None:
    fonts = reports[0].fonts
    families = {re.sub(r"^[A-Z]{6}\+", "", font).split("-Bold")[0].split("-Oblique")[0] for font in fonts}
    assert families == {"DejaVu-Sans"}, fonts


def test_the_charts_have_a_key_for_the_note_lines_and_none_for_hidden_zero_lines(
    reports: list[Printed],
) -> None:
    charts = report_charts(reports[0].content)
    for name, fig in charts.items():
        assert fig.layout.shapes, f"{name} draws no line for the note"
        keyed = [trace.name for trace in fig.data if trace.showlegend is not False]
        assert "Note" in keyed, f"{name}: {keyed}"
    for name in ("visibility", "share_of_voice"):
        zero = [
            trace.name
            for trace in charts[name].data
            if trace.y is not None and len(trace.y) and all(value == 0 for value in trace.y)
        ]
        assert zero == [ABSENT], name  # the one compared domain without a top-10 place in the month
        listed = [trace.name for trace in charts[name].data if trace.showlegend is not False]
        assert not set(zero) & set(listed), listed
        assert any(all(domain in entry for domain in zero) for entry in listed), listed
