"""The report's charts: the History and Market pages' own figures, drawn for paper.

Each section gets the charts a page shows for the same rows (``analysis.figures``), on a white
background at a fixed size that fits an A4 page, with the service's text made inert and the
period's notes as markers.
"""

from __future__ import annotations

import plotly.graph_objects as go

from analysis.figures import history_charts, market_charts
from analysis.figures import history_frames as frames
from analysis.figures.common import inert_figure
from analysis.market.markers import note_markers
from services.reports.content import ReportContent

#: Pixels at 96 per inch: the A4 page's width inside its margins, and a chart's height.
WIDTH = 700
HEIGHT = 320
FONT = {"family": "DejaVu Sans, Verdana, Arial, sans-serif", "size": 12, "color": "#222"}


def _for_paper(fig: go.Figure, height: int = HEIGHT) -> go.Figure:
    fig.update_layout(template="plotly_white", font=FONT, width=WIDTH, height=height, title_font_size=15)
    return inert_figure(fig)


def report_charts(content: ReportContent) -> dict[str, go.Figure]:
    """Chart name → figure, only for sections with something recorded (an empty chart helps nobody on
    paper: the section says in words that nothing was recorded)."""
    markers = note_markers(content.notes)
    charts: dict[str, go.Figure] = {}
    history = content.history
    if not history.empty:
        moves = frames.largest_moves(history)
        charts["ratings"] = history_charts.ratings_trend_chart(history, moves, [content.site], markers)
        if history["referring_domains"].notna().any():
            charts["referring_domains"] = history_charts.metric_trend_chart(
                history, "referring_domains", [content.site], markers
            )
    if not content.churn.totals.empty:
        charts["trust_map"] = history_charts.trust_map_totals_chart(
            content.churn.totals, content.site, markers
        )
    keywords = content.keywords
    if keywords.charted and keywords.rows["position"].notna().any():
        charts["positions"] = history_charts.rank_chart(keywords.rows, keywords.charted, markers)
    visibility = content.visibility
    if visibility.domains:
        charts["visibility"] = market_charts.visibility_chart(
            visibility.lines, visibility.domains, markers=markers
        )
        charts["share_of_voice"] = market_charts.share_over_time_chart(
            visibility.lines, visibility.domains, markers
        )
    return {name: _for_paper(fig) for name, fig in charts.items()}
