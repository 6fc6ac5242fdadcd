"""Figures of my sites, site details, monitor, AI visibility and Search Console. Pure: no Streamlit.

Colours carry meaning only (DR/TrueDR, up/down, yours/theirs); ``st.plotly_chart`` with the
Streamlit theme supplies the rest, so the charts follow the app's light or dark mode.
"""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from analysis.figures.common import (
    DOWN,
    DR_COLOUR,
    NEUTRAL,
    TRUE_DR_COLOUR,
    UP,
    dr_true_dr_bars,
    empty_figure,
    floats,
)
from client.growth_models import TrueDrReport

CLICKS_COLOUR = "#5b8def"
IMPRESSIONS_COLOUR = "#a05bef"


def ratings_bars(frame: pd.DataFrame, *, title: str, name_column: str = "domain") -> go.Figure:
    """DR next to TrueDR per site; a missing TrueDR (pending review) leaves its bar out, not at 0."""
    return dr_true_dr_bars(
        frame, title=title, empty_message="No ratings yet.", name_column=name_column, height=340
    )


def trends_chart(frame: pd.DataFrame) -> go.Figure:
    """Weekly DR and TrueDR on their whole 0–100 scale (top), traffic in a panel of its own (bottom).

    On a zoomed axis a one-point move filled the chart, and a second y-axis for traffic on the same
    panel gave both odd ticks; each panel now has one scale, and the ratings' is the real one.
    """
    title = "Ratings and traffic over time"
    if frame.empty:
        return empty_figure(title, "The service reported no trend for this site yet.")
    has_traffic = bool(frame["traffic"].notna().any())
    fig = make_subplots(
        rows=2 if has_traffic else 1,
        cols=1,
        shared_xaxes=True,
        row_heights=[0.6, 0.4] if has_traffic else None,
        vertical_spacing=0.14,
        subplot_titles=("DR and TrueDR", "Traffic") if has_traffic else None,
    )
    for column, label, colour in (("dr", "DR", DR_COLOUR), ("true_dr", "TrueDR", TRUE_DR_COLOUR)):
        if frame[column].notna().any():
            fig.add_scatter(
                x=frame["date"],
                y=floats(frame[column]),
                name=label,
                mode="lines+markers",
                line={"color": colour},
                hovertemplate=f"{label} %{{y:.0f}}<extra></extra>",
                row=1,
                col=1,
            )
    fig.update_yaxes(title_text="Rating (0–100)", range=[0, 100], dtick=20, row=1, col=1)
    if has_traffic:
        fig.add_scatter(
            x=frame["date"],
            y=floats(frame["traffic"]),
            name="Traffic",
            mode="lines+markers",
            line={"color": NEUTRAL},
            hovertemplate="%{y:,.0f} visits<extra></extra>",
            row=2,
            col=1,
        )
        fig.update_yaxes(title_text="Monthly visits", rangemode="tozero", tickformat=",d", row=2, col=1)
    fig.update_layout(
        title=title, height=480 if has_traffic else 340, margin={"t": 60, "b": 30}, hovermode="x unified"
    )
    return fig


def truedr_waterfall(report: TrueDrReport) -> go.Figure:
    """From DR to TrueDR, one step per signal: which evidence lifts it and which holds it back."""
    title = "How TrueDR is built from DR"
    steps = [s for s in report.breakdown if s.impact is not None]
    if report.dr is None or report.true_dr is None or not steps:
        return empty_figure(title, "No breakdown yet: TrueDR is computed after the site is reviewed.")
    labels = ["DR", *[s.label or s.signal for s in steps], "TrueDR"]
    values = [float(report.dr), *[float(s.impact or 0) for s in steps], float(report.true_dr)]
    fig = go.Figure(
        go.Waterfall(
            x=labels,
            y=values,
            measure=["absolute", *["relative"] * len(steps), "total"],
            text=[f"{report.dr}", *[f"{v:+.1f}" for v in values[1:-1]], f"{report.true_dr}"],
            textposition="outside",
            increasing={"marker": {"color": UP}},
            decreasing={"marker": {"color": DOWN}},
            totals={"marker": {"color": TRUE_DR_COLOUR}},
            connector={"line": {"color": NEUTRAL, "width": 1}},
            hovertemplate="%{x}: %{text}<extra></extra>",
        )
    )
    low = min(report.dr, report.true_dr)
    fig.update_layout(
        title=title,
        yaxis={
            "title": "Rating points",
            "range": [max(0, low - 15), min(100, max(report.dr, report.true_dr) + 12)],
        },
        height=360,
        showlegend=False,
        margin={"t": 50, "b": 30},
    )
    return fig


def monitor_chart(frame: pd.DataFrame, *, period: str) -> go.Figure:
    """DR and TrueDR changes per site: green up, red down."""
    title = f"Rating changes ({period})"
    if frame.empty or not (frame["dr_change"].notna().any() or frame["true_dr_change"].notna().any()):
        return empty_figure(title, "No changes reported.")
    fig = go.Figure()
    for column, label, pattern in (("dr_change", "DR", ""), ("true_dr_change", "TrueDR", "/")):
        values = floats(frame[column])
        fig.add_bar(
            name=label,
            x=list(frame["domain"].astype(str)),
            y=values,
            marker_color=[UP if v >= 0 else DOWN for v in values],
            marker_pattern_shape=pattern,
            hovertemplate=f"%{{x}} {label}: %{{y:+g}}<extra></extra>",
        )
    fig.add_hline(y=0, line_width=1, line_color="gray")
    fig.update_layout(title=title, barmode="group", yaxis_title="Change (points)", height=320)
    return fig


def platforms_chart(frame: pd.DataFrame) -> go.Figure:
    """Share of answers that mention the site, per assistant."""
    title = "Mentioned in answers, by assistant"
    if frame.empty:
        return empty_figure(title, "No run yet: start one to see how assistants answer.")
    fig = go.Figure(
        go.Bar(
            x=list(frame["platform"].astype(str)),
            y=floats(frame["score"]),
            marker_color=TRUE_DR_COLOUR,
            text=[f"{m}/{a}" for m, a in zip(frame["mentioned"], frame["answers"], strict=True)],
            textposition="outside",
            hovertemplate="%{x}: %{y:.1f}% (%{text} answers)<extra></extra>",
        )
    )
    fig.update_layout(title=title, yaxis={"title": "% of answers", "range": [0, 105]}, height=320)
    return fig


def history_chart(frame: pd.DataFrame) -> go.Figure:
    title = "AI-visibility score by run"
    if frame.empty:
        return empty_figure(title, "No runs yet.")
    fig = go.Figure(
        go.Scatter(x=frame["at"], y=floats(frame["score"]), mode="lines+markers", line={"color": DR_COLOUR})
    )
    fig.update_layout(title=title, yaxis={"title": "Score (0–100)", "range": [0, 100]}, height=320)
    return fig


def brands_chart(frame: pd.DataFrame) -> go.Figure:
    """Brands the assistants name, yours highlighted."""
    title = "Brands named in the answers"
    if frame.empty:
        return empty_figure(title, "No answers yet.")
    top = frame.head(10).iloc[::-1]
    colours = [TRUE_DR_COLOUR if yours else NEUTRAL for yours in top["yours"].fillna(False)]
    fig = go.Figure(
        go.Bar(
            x=floats(top["mentions"]),
            y=list(top["brand"].astype(str)),
            orientation="h",
            marker_color=colours,
            hovertemplate="%{y}: %{x} mentions<extra></extra>",
        )
    )
    fig.update_layout(title=title, xaxis_title="Mentions", height=340, margin={"l": 10})
    return fig


def gsc_series_chart(frame: pd.DataFrame) -> go.Figure:
    """Daily clicks (left axis) and impressions (right axis)."""
    title = "Clicks and impressions per day"
    if frame.empty:
        return empty_figure(title, "No Search Console data for this range.")
    fig = make_subplots(specs=[[{"secondary_y": True}]])
    fig.add_scatter(
        x=frame["date"],
        y=floats(frame["clicks"]),
        name="Clicks",
        mode="lines",
        line={"color": CLICKS_COLOUR},
    )
    fig.add_scatter(
        x=frame["date"],
        y=floats(frame["impressions"]),
        name="Impressions",
        mode="lines",
        line={"color": IMPRESSIONS_COLOUR},
        secondary_y=True,
    )
    fig.update_yaxes(title_text="Clicks", secondary_y=False, rangemode="tozero")
    fig.update_yaxes(title_text="Impressions", secondary_y=True, rangemode="tozero")
    fig.update_layout(title=title, height=340, hovermode="x unified", margin={"t": 50, "b": 30})
    return fig
