"""Keyword DataFrames → plotly figures. Pure functions: no Streamlit, no network.

A result whose DR is unknown gets a labelled grey band instead of a bar: a bar of height 0 would
read as "DR 0". Unknown values are never part of a median or minimum drawn here.
"""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

from analysis.figures.common import DR_COLOUR, UP, empty_figure, floats
from analysis.keywords.frames.report import known_median
from analysis.keywords.frames.suggestions import BANDS

MEDIAN_COLOUR = "#7a5cc2"
MIN_COLOUR = "#2a9d8f"
USER_COLOUR = "#f2a541"
UNKNOWN_COLOUR = "#9aa0a6"
BAND_COLOURS = ("#2e9e5b", "#5b8def", "#9aa0a6")
#: A value label on a bar: over 5:1 contrast with both bar colours (DR_COLOUR and UP).
LABEL_ON_BAR = "#0e1117"
#: The shortest bar (in DR, on the 0–105 axis of a 400 px chart) whose label fits inside it.
LABEL_INSIDE_MIN_DR = 10


def plain(text: object) -> str:
    """Text for a chart label: plotly renders a subset of HTML in labels, so no tag can get through."""
    return str(text).replace("<", "‹").replace(">", "›")


def _level(fig: go.Figure, y: float, label: str, colour: str, dash: str) -> None:
    """A horizontal reference line named in the legend (labels on the plot would cover the data).

    Drawn beneath the data: where a line meets a bar, the bar and its value label
    stay on top, so no label is ever struck through.
    """
    fig.add_hline(
        y=y,
        name=f"{label} {y:g}",
        showlegend=True,
        layer="below",
        line={"color": colour, "dash": dash, "width": 2},
    )


def serp_chart(
    serp: pd.DataFrame,
    *,
    median_dr: float | None,
    min_dr: float | None,
    user_dr: int | None = None,
    user_domain: str | None = None,
) -> go.Figure:
    """DR of each top-10 result by position, with the median and minimum DR (and yours) as lines.

    With your DR, results at or below it are drawn in green: those are the pages you out-rate. Each
    bar carries its DR inside its top end, and the lines run beneath the bars, so a line at the height
    of a label never crosses it (a label above its bar would be struck through by a line just over it).
    """
    title = "DR of the top 10 by position"
    if serp.empty:
        return empty_figure(title, "The service returned no results for this keyword.")
    positions = [int(p) for p in serp["position"]]
    drs = floats(serp["dr"])
    known = [(p, d, dom) for p, d, dom in zip(positions, drs, serp["domain"], strict=True) if d == d]
    fig = go.Figure()
    if known:
        beatable = [user_dr is not None and d <= user_dr for _, d, _ in known]
        fig.add_bar(
            x=[p for p, _, _ in known],
            y=[d for _, d, _ in known],
            customdata=[plain(dom) for _, _, dom in known],
            marker_color=[UP if b else DR_COLOUR for b in beatable],
            text=[f"{d:g}" for _, d, _ in known],
            # Inside the top of its bar, in a dark ink that reads on both bar colours in either theme;
            # a bar too short for its label gets it above, at full size.
            textposition=["inside" if d >= LABEL_INSIDE_MIN_DR else "outside" for _, d, _ in known],
            textangle=0,
            constraintext="none",
            insidetextanchor="end",
            insidetextfont={"color": LABEL_ON_BAR},
            cliponaxis=False,
            name="DR of the result",
            hovertemplate="#%{x} %{customdata}: DR %{y}<extra></extra>",
            showlegend=False,
        )
    for position, dr, domain in zip(positions, drs, serp["domain"], strict=True):
        if dr == dr:  # known
            continue
        fig.add_vrect(
            x0=position - 0.4,
            x1=position + 0.4,
            fillcolor=UNKNOWN_COLOUR,
            opacity=0.25,
            line_width=0,
            name=f"{plain(domain)}: DR unknown",
        )
        fig.add_annotation(
            x=position,
            y=50,
            text="DR<br>unknown",
            showarrow=False,
            font={"color": UNKNOWN_COLOUR},
            hovertext=f"#{position} {plain(domain)}: the service could not resolve its DR",
        )
    for y, label, colour, dash in (
        (median_dr, "Median DR", MEDIAN_COLOUR, "dash"),
        (min_dr, "Min DR", MIN_COLOUR, "dot"),
        (user_dr, f"{plain(user_domain)} DR" if user_domain else "Your DR", USER_COLOUR, "solid"),
    ):
        if y is not None:
            _level(fig, float(y), label, colour, dash)
    fig.update_layout(
        title=title,
        xaxis={"title": "Google position", "tickmode": "array", "tickvals": positions, "range": [0.4, 10.6]},
        yaxis={"title": "DR (0–100)", "range": [0, 105]},
        height=400,
        margin={"t": 50, "b": 40},
        bargap=0.25,
        legend={"orientation": "h", "y": -0.2},
    )
    return fig


def distribution_chart(
    distribution: pd.DataFrame,
    summary: pd.DataFrame,
    *,
    user_dr: int | None = None,
    user_domain: str | None = None,
) -> go.Figure:
    """One box with every result per keyword, its median and minimum marked, your DR as a line.

    ``summary`` (the ranking frame) gives the order of keywords and the median and minimum to mark;
    a median the service did not send is computed from the known DRs only.
    """
    title = "DR of the top 10 per keyword"
    keywords = [k for k in summary["keyword"] if (distribution["keyword"] == k).any()]
    if not keywords:
        return empty_figure(title, "No keyword could be researched.")
    fig = go.Figure()
    for keyword in keywords:
        rows = distribution[distribution["keyword"] == keyword]
        fig.add_box(
            x=[plain(keyword)] * len(rows),
            y=floats(rows["dr"]),
            customdata=[plain(d) for d in rows["domain"]],
            name=plain(keyword),
            boxpoints="all",
            jitter=0.4,
            pointpos=0,
            marker_color=DR_COLOUR,
            line_color=DR_COLOUR,
            fillcolor="rgba(91,141,239,0.15)",
            hovertemplate="%{customdata}: DR %{y}<extra>%{x}</extra>",
            showlegend=False,
        )
    medians, minimums = [], []
    for keyword in keywords:
        row = summary[summary["keyword"] == keyword].iloc[0]
        rows = distribution[distribution["keyword"] == keyword]
        median = row["median_dr"] if pd.notna(row["median_dr"]) else known_median(rows["dr"])
        medians.append(float("nan") if median is None or pd.isna(median) else float(median))
        minimums.append(float("nan") if pd.isna(row["min_dr"]) else float(row["min_dr"]))
    labels = [plain(k) for k in keywords]
    for values, name, word, symbol, size, colour in (
        (medians, "Median DR", "median", "diamond", 13, MEDIAN_COLOUR),
        (minimums, "Min DR (entry point)", "min", "triangle-up", 12, MIN_COLOUR),
    ):
        fig.add_scatter(
            x=labels,
            y=values,
            mode="markers",
            name=name,
            marker={"symbol": symbol, "size": size, "color": colour, "line": {"width": 1}},
            hovertemplate=f"%{{x}}: {word} DR %{{y}}<extra></extra>",
        )
    if user_dr is not None:
        _level(
            fig,
            float(user_dr),
            f"{plain(user_domain)} DR" if user_domain else "Your DR",
            USER_COLOUR,
            "solid",
        )
    fig.update_layout(
        title=title,
        yaxis={"title": "DR (0–100)", "range": [0, 105]},
        xaxis={"title": None},
        height=420,
        margin={"t": 50, "b": 40},
        legend={"orientation": "h", "y": -0.15},
    )
    return fig


def suggestions_chart(frame: pd.DataFrame) -> go.Figure:
    """Search volume against position: top-left points are the high-volume keywords nearest page 1."""
    title = "Search volume vs position"
    rows = frame[frame["position"].notna() & frame["search_volume"].notna()]
    if rows.empty:
        return empty_figure(title, "No suggestion has both a position and a search volume.")
    fig = go.Figure()
    for (label, _, _), colour in zip(BANDS, BAND_COLOURS, strict=True):
        part = rows[rows["band"] == label]
        if part.empty:
            continue
        fig.add_scatter(
            x=floats(part["position"]),
            y=floats(part["search_volume"]),
            customdata=[plain(k) for k in part["keyword"]],
            mode="markers",
            name=label,
            marker={"size": 11, "color": colour, "opacity": 0.85, "line": {"width": 1, "color": "white"}},
            hovertemplate="%{customdata}<br>position %{x}, %{y:,} searches/month<extra></extra>",
        )
    fig.update_layout(
        title=title,
        xaxis={"title": "Google position (lower is better)", "range": [31, 3], "dtick": 3},
        yaxis={"title": "Monthly search volume", "type": "log", "dtick": 1, "tickformat": "~s"},
        height=380,
        margin={"t": 50, "b": 40},
        legend_title_text="Position band",
    )
    return fig
