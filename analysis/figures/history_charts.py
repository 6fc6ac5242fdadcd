"""History figures: domain trends, Trust Map totals, keyword positions and gaps. Pure: no Streamlit.

Figures carry no colours beyond meaning (DR/TrueDR, up/down, the top-10 band) and, when several
domains share a chart, one colour per domain so a domain reads the same in every panel;
``st.plotly_chart`` with the Streamlit theme applies the light or dark palette around them.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from analysis.figures.common import DOWN, DR_COLOUR, TRUE_DR_COLOUR, UP, empty_figure
from analysis.figures.history_frames import RATINGS, TOP_10, TREND_METRICS, with_days
from analysis.figures.markers import add_markers
from schema.history import SPAM_RISK_FROM

#: One colour per compared domain (the first is yours), readable on a light and a dark background.
#: One colour per line: enough for the Market page's sites and competitors beside its leading domains.
DOMAIN_COLOURS = (
    "#5b8def",
    "#f2a541",
    "#2e9e5b",
    "#d64545",
    "#9b6bd6",
    "#17a2b8",
    "#e377c2",
    "#a0a033",
    "#8c564b",
    "#34495e",
    "#ff6f61",
)
RATING_RANGE = [0, 100]
#: How a day reads in a tooltip.
DAY = "%{x|%b %d, %Y}"
#: Room at the bottom for two-line date ticks ("Oct 20" over "2024") and, under them, the legend.
MARGIN = {"t": 60, "b": 90, "l": 10, "r": 10}
#: The legend along the figure's bottom edge, below the date ticks, never over them.
LEGEND = {"orientation": "h", "yref": "container", "y": 0.02, "yanchor": "bottom", "x": 0, "xanchor": "left"}


def _days(frame: pd.DataFrame) -> np.ndarray:
    """A frame's days as one numpy array: plotly copies a figure's data when it is drawn, and a list of
    thousands of Timestamps copies one object at a time (most of a two-year chart's time)."""
    return pd.to_datetime(frame["day"]).to_numpy(dtype="datetime64[ns]")


def _values(series: pd.Series) -> np.ndarray:
    """A nullable column as a float array, missing as NaN (a gap in the line, never 0)."""
    return pd.to_numeric(series, errors="coerce").astype("Float64").to_numpy(dtype=float, na_value=np.nan)


#: A chart whose recorded days span less than this is ticked by day, on an axis from its first
#: recorded day to its last: no empty days before them, and never a day still to come.
SHORT_SPAN = np.timedelta64(7, "D")
HALF_DAY = pd.Timedelta(hours=12)


def _short_history_readable(fig: go.Figure) -> go.Figure:
    """A line of one or two days is drawn with dots (a lone day is invisible as a line), and a chart
    whose days span less than a week is ticked by day on an axis that ends half a day after the latest
    recorded day (room for its dot): plotly's own range would tick hours, or run into days to come."""
    days: list[np.datetime64] = []
    for trace in fig.data:
        if trace.mode == "lines" and trace.x is not None and len(trace.x) <= 2:
            trace.mode = "lines+markers"
        if trace.mode in ("lines", "lines+markers") and trace.x is not None:
            days.extend(np.asarray(trace.x, dtype="datetime64[ns]"))
    if days and max(days) - min(days) < SHORT_SPAN:
        span = [pd.Timestamp(min(days)) - HALF_DAY, pd.Timestamp(max(days)) + HALF_DAY]
        fig.update_xaxes(range=span, tickformat="%b %d", dtick=86_400_000)
    return fig


def domain_colours(domains: list[str]) -> dict[str, str]:
    return {d: DOMAIN_COLOURS[i % len(DOMAIN_COLOURS)] for i, d in enumerate(domains)}


def _domains_in(history: pd.DataFrame, order: list[str] | None) -> list[str]:
    present = list(dict.fromkeys(history["domain"].astype(str)))
    return [d for d in order if d in present] if order else sorted(present)


def _mark_moves(
    fig: go.Figure,
    moves: pd.DataFrame,
    metric: str,
    colours: dict[str, str] | None = None,
    **cell: int,
) -> None:
    """The largest moves as open rings with their size written next to them.

    With ``colours`` (several domains on one chart) a ring takes the colour of the line it sits on, so
    it is never read as another domain's mark; alone, green is up and red is down.
    """
    part = moves[moves["metric"] == metric]
    if part.empty:
        return
    label = TREND_METRICS[metric]
    fig.add_scatter(
        x=list(pd.to_datetime(part["day"])),
        y=list(part["value"].astype(float)),
        mode="markers+text",
        marker={
            "symbol": "circle-open",
            "size": 16,
            "line": {"width": 2},
            "color": (
                [colours.get(str(d), "gray") for d in part["domain"]]
                if colours
                else [UP if c > 0 else DOWN for c in part["change"]]
            ),
        },
        text=[f"{c:+g}" for c in part["change"]],
        textposition="top center",
        name="Largest moves",
        legendgroup="moves",
        showlegend=metric == "dr" or not cell,
        customdata=list(part["domain"].astype(str)),
        hovertemplate=f"%{{customdata}}: {label} %{{text}} to %{{y}} on %{{x|%b %d, %Y}}<extra></extra>",
        **({"row": cell["row"], "col": cell["col"]} if cell else {}),
    )


def _domain_line(
    fig: go.Figure, frame: pd.DataFrame, domain: str, metric: str, colour: str, hover: str, **place: Any
) -> None:
    """``domain``'s ``metric`` over the days, a line in its colour (``place``: its panel, its legend)."""
    rows = frame[frame["domain"] == domain]
    fig.add_scatter(
        x=_days(rows),
        y=_values(rows[metric]),
        mode="lines",
        name=domain,
        line={"color": colour, "width": 2},
        hovertemplate=hover,
        **place,
    )


def ratings_trend_chart(
    history: pd.DataFrame,
    moves: pd.DataFrame,
    order: list[str] | None = None,
    markers: pd.DataFrame | None = None,
) -> go.Figure:
    """DR and TrueDR over time on their 0–100 scale, the largest moves ringed.

    One domain: its DR and TrueDR as two lines. Several: a DR panel and a TrueDR panel side by side,
    one colour per domain (``order`` first, as given), so your site reads against its competitors.
    """
    title = "DR and TrueDR over time"
    if history.empty:
        return empty_figure(title, "Nothing recorded for these domains in this period yet.", height=380)
    frame = with_days(history)
    domains = _domains_in(frame, order)
    if len(domains) == 1:
        fig = go.Figure()
        for metric, colour in (("dr", DR_COLOUR), ("true_dr", TRUE_DR_COLOUR)):
            fig.add_scatter(
                x=_days(frame),
                y=_values(frame[metric]),
                mode="lines",
                name=TREND_METRICS[metric],
                line={"color": colour, "width": 2},
                hovertemplate=f"{TREND_METRICS[metric]} %{{y}} on %{{x|%b %d, %Y}}<extra></extra>",
            )
            _mark_moves(fig, moves, metric)
        fig.update_layout(
            title=f"{title}: {domains[0]}", yaxis={"title": "Rating (0–100)", "range": RATING_RANGE}
        )
    else:
        colours = domain_colours(domains)
        label_of = TREND_METRICS
        fig = make_subplots(rows=1, cols=2, shared_yaxes=True, subplot_titles=("DR", "TrueDR"))
        for col, metric in enumerate(RATINGS, start=1):
            for domain in domains:
                _domain_line(
                    fig,
                    frame,
                    domain,
                    metric,
                    colours[domain],
                    f"%{{fullData.name}} {label_of[metric]} %{{y}} on {DAY}<extra></extra>",
                    legendgroup=domain,
                    showlegend=col == 1,
                    row=1,
                    col=col,
                )
            _mark_moves(fig, moves, metric, colours, row=1, col=col)
        fig.update_yaxes(range=RATING_RANGE, row=1, col=1, title="Rating (0–100)")
        fig.update_yaxes(range=RATING_RANGE, row=1, col=2)
        fig.update_layout(title=title)
    fig.update_layout(height=460, margin=MARGIN, hovermode="closest", legend=LEGEND)
    return add_markers(_short_history_readable(fig), markers)


#: When one compared domain's typical value is this many times another's, a linear axis flattens the
#: smaller one onto 0 (your 600 visits beside a competitor's 500,000): the axis turns logarithmic.
LOG_SCALE_FROM = 50


def needs_log_scale(frame: pd.DataFrame, metric: str) -> bool:
    """Whether the domains' typical ``metric`` values lie so far apart that a linear axis hides some."""
    values = pd.to_numeric(frame[metric], errors="coerce")
    typical = values.groupby(frame["domain"]).median().dropna()
    typical = typical[typical > 0]
    return len(typical) > 1 and float(typical.max() / typical.min()) >= LOG_SCALE_FROM


def metric_trend_chart(
    history: pd.DataFrame, metric: str, order: list[str] | None = None, markers: pd.DataFrame | None = None
) -> go.Figure:
    """One of trust, traffic or referring domains over time, a line per domain."""
    label = TREND_METRICS[metric]
    title = f"{label} over time"
    frame = with_days(history) if not history.empty else history
    if frame.empty or frame[metric].isna().all():
        return empty_figure(title, f"No {label.lower()} recorded for these domains in this period.")
    domains = _domains_in(frame, order)
    colours = domain_colours(domains)
    fig = go.Figure()
    for domain in domains:
        hover = f"%{{fullData.name}} {label} %{{y:,}} on %{{x|%b %d, %Y}}<extra></extra>"
        _domain_line(fig, frame, domain, metric, colours[domain], hover)
    axis: dict[str, object] = {"title": label, "rangemode": "tozero"}
    if metric == "trust_score":
        axis["range"] = RATING_RANGE
    elif needs_log_scale(frame, metric):
        axis = {"title": f"{label} (log scale)", "type": "log", "dtick": 1}  # 1k, 10k, 100k: no 2s and 5s
    fig.update_layout(title=title, yaxis=axis, height=360, margin=MARGIN, legend=LEGEND)
    return add_markers(_short_history_readable(fig), markers)


def trust_map_totals_chart(
    totals: pd.DataFrame, domain: str, markers: pd.DataFrame | None = None
) -> go.Figure:
    """The Trust Map sample of a site over time: live and lost links, spam-risky domains."""
    title = f"Trust Map of {domain} over time"
    if totals.empty:
        return empty_figure(title, "No Trust Map recorded for this site in this period.")
    frame = with_days(totals)
    fig = go.Figure()
    for column, label, colour in (
        ("live", "Live links", UP),
        ("lost", "Lost links", DOWN),
        ("spam_risky", f"Spam-risky domains (spam score {SPAM_RISK_FROM}+)", "#9b6bd6"),
    ):
        fig.add_scatter(
            x=_days(frame),
            y=_values(frame[column]),
            mode="lines",
            name=label,
            line={"color": colour, "width": 2},
            hovertemplate=f"{label}: %{{y}} on %{{x|%b %d, %Y}}<extra></extra>",
        )
    fig.update_layout(
        title=title,
        yaxis={"title": "Referring domains in the sample", "rangemode": "tozero"},
        height=340,
        margin=MARGIN,
        legend=LEGEND,
    )
    return add_markers(_short_history_readable(fig), markers)


def position_ticks(deepest: float) -> list[int]:
    """Position 1 (the top of the results) and then every 5 places, or every 10 on a deep chart."""
    step = 5 if deepest <= 30 else 10
    return [1, *range(step, int(max(deepest, TOP_10 + 2)) + 2, step)]


def _keyword_lines(fig: go.Figure, rows: pd.DataFrame, keywords: list[str], column: str, said: str) -> None:
    """One line of ``column`` over time per keyword, in the order given; a keyword with no rows has none."""
    for keyword in keywords:
        part = rows[rows["keyword"] == keyword]
        if part.empty:
            continue
        fig.add_scatter(
            x=_days(part),
            y=_values(part[column]),
            mode="lines",
            name=keyword,
            line={"width": 2},
            hovertemplate=f"%{{fullData.name}}: {said} on %{{x|%b %d, %Y}}<extra></extra>",
        )


def rank_chart(rows: pd.DataFrame, keywords: list[str], markers: pd.DataFrame | None = None) -> go.Figure:
    """Google positions over time, position 1 at the top, the top 10 shaded; a day out of the
    results is a gap in the line."""
    title = "Positions over time"
    if rows.empty or rows["position"].isna().all():
        return empty_figure(title, "No position recorded for these keywords in this period.", height=420)
    deepest = float(rows["position"].max())
    fig = go.Figure()
    fig.add_hrect(
        y0=0.5,
        y1=TOP_10 + 0.5,
        fillcolor=UP,
        opacity=0.12,
        line_width=0,
        annotation_text="Top 10",
        annotation_position="top left",
    )
    _keyword_lines(fig, rows, keywords, "position", "position %{y}")
    fig.update_layout(
        title=title,
        yaxis={
            "title": "Position",
            "range": [max(deepest, TOP_10 + 2) + 1, 0.5],
            "tickvals": position_ticks(deepest),
        },
        height=460,
        margin=MARGIN,
        legend=LEGEND,
    )
    return add_markers(_short_history_readable(fig), markers)


def gap_chart(rows: pd.DataFrame, keywords: list[str], markers: pd.DataFrame | None = None) -> go.Figure:
    """Median DR of the top 10 minus your DR, over time: above 0 you are short of the median."""
    title = "Gap to the median DR of the top 10"
    if rows.empty or rows["gap"].isna().all():
        return empty_figure(title, "No gap recorded for these keywords in this period.")
    fig = go.Figure()
    _keyword_lines(fig, rows, keywords, "gap", "gap %{y:+g}")
    fig.add_hline(
        y=0, line_width=1, line_color="gray", annotation_text="At the median", annotation_position="top left"
    )
    fig.update_layout(
        title=title,
        yaxis={"title": "DR points short", "zeroline": False},
        height=360,
        margin=MARGIN,
        legend=LEGEND,
    )
    return add_markers(_short_history_readable(fig), markers)
