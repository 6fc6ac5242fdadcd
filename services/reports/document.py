"""The report's one HTML document: facts in plain words, tables, and the charts as inline SVG.

The same document is the HTML download, the page's preview, the share link's page and, printed by
WeasyPrint, the PDF. Jinja2 escapes every value (the service's text included), so nothing the API
says can become markup; the charts are SVG drawn by Chromium, whose text is escaped the same way.
Without Chromium the charts are interactive plotly (the HTML still works; the PDF says what is
missing).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd
import plotly.graph_objects as go
from markupsafe import Markup

from analysis.wording import (
    NO_VALUE,
    counted,
    direction,
    named_first,
    say_day,
    signed_whole,
    text_or_dash,
    whole_number,
)
from services.reports.branding import Branding
from services.reports.charts import HEIGHT, WIDTH, report_charts
from services.reports.content import (
    KEYWORDS_LISTED,
    LINKS_LISTED,
    NAMES_LISTED,
    EmptyPeriod,
    ReportContent,
    ReportProblem,
    SummaryRow,
    UnknownSite,
    gather,
)
from services.reports.drawings import DrawsCharts, KeptDrawings
from services.reports.render import PdfUnavailable, RendererUnavailable, html_to_pdf
from services.templates import html_templates
from store.history import HistoryStore
from store.reports.period import Period

TEMPLATE = "report.html.j2"
_ENVIRONMENT = html_templates(Path(__file__).parent)


@dataclass(frozen=True)
class BuiltReport:
    site: str
    period: Period
    html: str
    #: Why the charts are not images (no Chromium here): the PDF cannot be made, the HTML still can.
    charts_missing: str | None = None
    #: The editor's comment printed in it (the page's comment box starts from it).
    comment: str | None = None

    @property
    def file_stem(self) -> str:
        return f"report-{self.site}-{self.period.slug}"

    def pdf(self) -> bytes:
        """The PDF; PdfUnavailable saying what is missing when it cannot be made here."""
        if self.charts_missing:
            raise PdfUnavailable(self.charts_missing)
        return html_to_pdf(self.html)


def change_words(row: SummaryRow) -> str:
    """ "DR rose from 41 to 44 (+3)." — what a reader takes from one figure's first and last day."""
    if row.first is None or row.last is None:
        return f"{row.label}: not recorded in this period."
    if round(row.first) == round(row.last):
        return f"{row.label} held at {whole_number(row.last, NO_VALUE)}."
    verb = "rose" if row.last > row.first else "fell"
    change = signed_whole(row.last - row.first)
    if row.first:
        percent = (row.last - row.first) / abs(row.first) * 100
        change += f", {percent:+.1f} %" if abs(percent) < 1 else f", {percent:+.0f} %"
    first, last = whole_number(row.first, NO_VALUE), whole_number(row.last, NO_VALUE)
    return f"{row.label} {verb} from {first} to {last} ({change})."


def _css_text(text: str) -> Markup:
    """Text inside a CSS string (the page footer): no quote, backslash or tag can end it."""
    safe = "".join(ch if ch.isprintable() and ch not in '"\\<>' else f"\\{ord(ch):x} " for ch in text)
    return Markup(safe)  # noqa: S704 - escaped above for the CSS string it goes in


def _svg(name: str, fig: go.Figure, renderer: DrawsCharts) -> Markup:
    svg = renderer.svg(fig, WIDTH, HEIGHT)
    return Markup(f'<figure class="chart" data-chart="{name}">{svg}</figure>')  # noqa: S704 - SVG from plotly


def _interactive(name: str, fig: go.Figure, with_plotly_js: bool) -> Markup:
    div = fig.to_html(full_html=False, include_plotlyjs="inline" if with_plotly_js else False)
    return Markup(f'<figure class="chart" data-chart="{name}">{div}</figure>')  # noqa: S704


def draw_charts(content: ReportContent, renderer: DrawsCharts | None) -> tuple[dict[str, Markup], str | None]:
    """Each chart as markup, and why they are not all images (no renderer, or it cannot draw here):
    from the first chart it cannot draw on, charts are interactive plotly, plotly.js included once."""
    missing_why = None if renderer is not None else "Charts were not drawn as images for this copy."
    drawn: dict[str, Markup] = {}
    for name, fig in report_charts(content).items():
        if renderer is not None and missing_why is None:
            try:
                drawn[name] = _svg(name, fig, renderer)
                continue
            except RendererUnavailable as exc:
                missing_why = str(exc)
        first = not any("<script" in markup for markup in drawn.values())
        drawn[name] = _interactive(name, fig, with_plotly_js=first)
    return drawn, missing_why if drawn else None


def _links(frame: pd.DataFrame) -> list[dict[str, str]]:
    return [
        {
            "domain": str(row.referring_domain),
            "dr": whole_number(row.dr, NO_VALUE),
            "spam": whole_number(row.spam_score, NO_VALUE),
            "status": "" if pd.isna(row.status) else str(row.status),
            "day": say_day(row.day) if "day" in frame else "",
        }
        for row in frame.itertuples()
    ]


def _link_table(title: str, frame: pd.DataFrame, what: str, *, by_day: bool = False) -> dict[str, Any]:
    """A link table of the report: its first ``LINKS_LISTED`` rows, and how many there were when cut."""
    cut = f"The {LINKS_LISTED} strongest of {len(frame)} {what}." if len(frame) > LINKS_LISTED else ""
    return {"title": title, "rows": _links(frame.head(LINKS_LISTED)), "by_day": by_day, "cut": cut}


def _churn(content: ReportContent) -> tuple[str, list[dict[str, Any]]]:
    """The Trust Map section's words and tables: gained and lost when the period has two maps or more,
    and the new spam-risky domains whenever a map of the period has one before it to compare with."""
    churn = content.churn
    spam_line = f"a spam score of {whole_number(churn.spam_from, NO_VALUE)} or more"
    spam = _link_table(
        f"New referring domains with {spam_line}",
        churn.new_spam_risky,
        f"new referring domains with {spam_line}",
        by_day=True,
    )
    if churn.first_day is None or churn.first_day == churn.last_day:
        return "", [spam] if spam["rows"] else []
    said = (
        f"Between {say_day(churn.first_day)} and {say_day(churn.last_day)}, the Trust Map sample gained the "
        f"referring domains with a live link on {say_day(churn.last_day)} that had none on "
        f"{say_day(churn.first_day)}, and lost those with a live link then that are lost or gone from the "
        f"sample now. New referring domains with {spam_line} (the team's spam alert threshold) are counted "
        f"as their alert counts them: each Trust Map against the one before it, on the day it showed them."
    )
    if churn.not_counted:
        said += f" {churn.not_counted}"
    tables = [
        _link_table("Strongest referring domains gained", churn.gained, "referring domains gained"),
        _link_table("Strongest referring domains lost", churn.lost, "referring domains lost"),
        spam,
    ]
    return said, tables


def _keywords(content: ReportContent) -> tuple[list[dict[str, str]], list[str]]:
    summary = content.keywords.summary
    if summary.empty or "position" not in summary:
        return [], []
    listed = summary.head(KEYWORDS_LISTED)
    rows = [
        {
            "keyword": str(row.keyword),
            "position": whole_number(row.position, NO_VALUE),
            "change": signed_whole(row.change),
            "direction": direction(row.change),
            "best": whole_number(row.best_position, NO_VALUE),
            "top10": f"{row.days_in_top_10} of {row.days_recorded}",
        }
        for row in listed.itertuples()
    ]
    words = [] if len(listed) == len(summary) else [_cut_keywords(content, len(listed), len(summary))]
    words += [
        f"Change is in places, from each keyword's first recorded day in {content.period.words} to its "
        f"last (+ is up the ranking), like the summary's.",
    ]
    entered, left = content.keywords.entered_top_10, content.keywords.left_top_10
    words.append(
        f"Entered the top 10: {named_first(entered, NAMES_LISTED)}."
        if entered
        else "No keyword entered the top 10."
    )
    words.append(
        f"Left the top 10: {named_first(left, NAMES_LISTED)}." if left else "No keyword left the top 10."
    )
    return rows, words


def _cut_keywords(content: ReportContent, shown: int, total: int) -> str:
    """Which keywords the table lists when it cannot list them all, and where every one is."""
    return (
        f"The {shown} best placed of the {counted(total, 'keyword')} tracked for {content.site}, by their "
        f"last recorded position in {content.period.words}; the History page's Keyword positions tab lists "
        f"every one, with its CSV."
    )


def _keywords_measured(content: ReportContent) -> tuple[str, str]:
    """What the keyword section and the visibility section each measure, said whether or not anything
    was recorded: the tracked keywords, then the watched ones (two lists a team keeps apart)."""
    site = content.site
    tracked = (
        f"The keywords tracked for {site} (the Tracked keywords page); the visibility below measures the "
        f"keywords watched for it (the Market page)."
    )
    watched = (
        f"This section measures {content.visibility.keyword_set or f'the keywords watched for {site}'} "
        f"(the Market page), not the tracked keywords above."
    )
    return tracked, watched


def _visibility(content: ReportContent) -> tuple[list[dict[str, str]], str]:
    latest = content.visibility.latest
    if latest.empty:
        return [], ""
    rows = [
        {"domain": str(r.domain), "visibility": f"{r.visibility:.1f} %", "share": f"{r.share_of_voice:.1f} %"}
        for r in latest.itertuples()
    ]
    own = latest[latest["domain"] == content.site]
    share = f"{own['share_of_voice'].iloc[0]:.1f} %" if not own.empty else "none"
    said = (
        f"On {say_day(latest['day'].iloc[0])}, {content.site}'s share of voice in the top 10s of "
        f"{content.visibility.keyword_set} was {share}, against the domains below."
    )
    return rows, said


def _next(content: ReportContent) -> dict[str, Any] | None:
    """The "What's next" section: the opportunities and the watched keywords' outlooks, in words."""
    steps = content.next
    if steps is None or steps.empty:
        return None
    shown = len(steps.opportunities)
    which = f"{shown} of {steps.scored}" if shown < steps.scored else f"{shown}"
    scored = (
        f"The {which} tracked keywords of {content.site} worth the most clicks for the DR "
        f"they ask, if each reached position {steps.target}: the opportunity score is the monthly volume × "
        f"the click-through rate gained ÷ the DR points the site lacks against the top 10's median (at "
        f"least 1), under the team's click curve."
        if shown
        else ""
    )
    return {
        "scored": scored,
        "opportunities": [
            {
                "keyword": str(row.keyword),
                "position": whole_number(row.position, NO_VALUE),
                "volume": whole_number(row.volume, NO_VALUE),
                "gained": whole_number(row.clicks_gained, NO_VALUE),
                "lacking": whole_number(row.difficulty, NO_VALUE),
                "score": whole_number(row.score, NO_VALUE),
            }
            for row in steps.opportunities.itertuples()
        ],
        "outlooks": [
            {"keyword": str(row.keyword), "median": str(row.median_when), "lowest": str(row.lowest_when)}
            for row in steps.outlooks.itertuples()
        ],
        "outlooks_cut": (
            f"The {len(steps.outlooks)} nearest of the {counted(steps.projected, 'keyword')} watched; the "
            f"Market page's When winnable tab lists every one, with its CSV."
            if len(steps.outlooks) < steps.projected
            else ""
        ),
    }


def _alerts(frame: pd.DataFrame) -> list[dict[str, str]]:
    return [
        {
            "day": say_day(r.day),
            "title": str(r.title),
            "before": text_or_dash(r.before),
            "after": text_or_dash(r.after),
        }
        for r in frame.itertuples()
    ]


def _notes(frame: pd.DataFrame) -> list[dict[str, str]]:
    return [{"day": say_day(r.day), "text": str(r.text), "by": str(r.created_by)} for r in frame.itertuples()]


def render_html(content: ReportContent, branding: Branding, charts: dict[str, Markup]) -> str:
    """The report's HTML document."""
    summary_said = any(row.first is not None for row in content.summary)
    churn_said, churn_tables = _churn(content)
    keyword_rows, keyword_words = _keywords(content)
    visibility_rows, visibility_said = _visibility(content)
    keywords_measured, visibility_measures = _keywords_measured(content)
    period = content.period
    return _ENVIRONMENT.get_template(TEMPLATE).render(
        site=content.site,
        brand=branding.signed_by,
        logo=branding.logo,
        accent=branding.accent,
        footer=branding.footer,
        footer_css=_css_text(f"{branding.footer or branding.signed_by} · {content.site} · {period.words}"),
        period_words=period.words,
        period_span=f"{say_day(period.start)} – {say_day(period.end)}",
        comment=content.comment,
        summary_said=summary_said,
        summary_words=[change_words(row) for row in content.summary],
        first_day=say_day(content.first_day) if content.first_day else "First day",
        last_day=say_day(content.last_day) if content.last_day else "Last day",
        summary=[
            {
                "label": row.label,
                "first": whole_number(row.first, NO_VALUE),
                "last": whole_number(row.last, NO_VALUE),
                "change": signed_whole(row.change),
                "direction": direction(row.change),
            }
            for row in content.summary
        ],
        charts=charts,
        churn_said=churn_said,
        churn_tables=churn_tables,
        keywords=keyword_rows,
        keyword_words=keyword_words,
        keywords_measured=keywords_measured,
        visibility_measures=visibility_measures,
        visibility=visibility_rows,
        visibility_said=visibility_said,
        visibility_weekly=content.visibility.weekly_note,
        next=_next(content),
        alerts=_alerts(content.alerts),
        notes=_notes(content.notes),
    )


def write_report(content: ReportContent, branding: Branding, renderer: DrawsCharts | None) -> BuiltReport:
    charts, charts_missing = draw_charts(content, renderer)
    html = render_html(content, branding, charts)
    return BuiltReport(
        content.site, content.period, html, charts_missing=charts_missing, comment=content.comment
    )


def build_report(
    store: HistoryStore,
    account: str,
    site: str,
    period: Period,
    *,
    branding: Branding,
    renderer: DrawsCharts | None,
) -> BuiltReport:
    """The report of ``site`` (one of the account's own sites) for ``period``, from the history store
    only (no API call); UnknownSite or EmptyPeriod when there is nothing to report. The Reports page,
    ``python -m store report``, the scheduled ``reports`` job and the share link all call it, so each
    shows the same report. A chart any of them drew before is read back from the store, not drawn again
    (``services.reports.drawings``)."""
    kept = None if renderer is None else KeptDrawings(renderer, store.report_charts, account, site, period)
    return write_report(gather(store, account, site, period), branding, kept)


__all__ = [
    "BuiltReport",
    "EmptyPeriod",
    "ReportProblem",
    "UnknownSite",
    "build_report",
    "write_report",
]
