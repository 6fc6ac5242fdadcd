"""Coach frames → plotly figures. Pure functions: no Streamlit, no network.

Colours carry meaning only (DR/TrueDR, risk groups, confidence); the Streamlit theme does the rest.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import plotly.graph_objects as go

from analysis.coach.frames import GROUPS, SPAM_GROUP
from analysis.coach.rules import INFLATED_GAP, SPAM_FLAG, Analysis
from analysis.figures.common import DOWN, DR_COLOUR, TRUE_DR_COLOUR, UP, empty_figure

EFFORT_ORDER = ("low", "medium", "high")
CONFIDENCE_COLOURS = {"high": "#2e9e5b", "medium": "#f2a541"}
#: Horizontal nudge within an effort column, by confidence, so neighbours stay readable.
CONFIDENCE_OFFSET = {"high": -0.12, "medium": 0.12}
#: Marker diameter in px: a floor that fits the "#n" label, growing with priority.
MARKER_BASE = 26
MARKER_PER_PRIORITY = 2
GROUP_COLOURS = {SPAM_GROUP: DOWN, "Lost": "#9a9a9a", "Nofollow": "#f2a541", "Live follow": UP}


def scores_chart(analysis: Analysis) -> go.Figure:
    """DR and TrueDR on the 0–100 scale, with the gap between them spelled out."""
    title = "DR and TrueDR"
    scores = (("DR", analysis.dr, DR_COLOUR), ("TrueDR", analysis.true_dr, TRUE_DR_COLOUR))
    bars = [(label, value, colour) for label, value, colour in scores if value is not None]
    if not bars:
        return empty_figure(title, "The service reported neither DR nor TrueDR.", height=200)
    fig = go.Figure(
        go.Bar(
            x=[v for _, v, _ in bars],
            y=[label for label, _, _ in bars],
            orientation="h",
            marker_color=[c for _, _, c in bars],
            text=[str(v) for _, v, _ in bars],
            textposition="outside",
            hovertemplate="%{y}: %{x}<extra></extra>",
        )
    )
    gap = analysis.gap
    subtitle = "gap unknown" if gap is None else f"TrueDR − DR = {gap:+d}"
    fig.update_layout(
        title={"text": f"{title} <span style='font-size:0.8em'>({subtitle})</span>"},
        xaxis={"range": [0, 105], "title": "Rating (0–100)"},
        yaxis={"autorange": "reversed"},
        height=200,
        margin={"t": 50, "b": 40, "l": 70},
        showlegend=False,
    )
    if gap is not None and gap <= INFLATED_GAP and analysis.dr is not None:
        fig.add_vline(
            x=analysis.dr + INFLATED_GAP,
            line_dash="dot",
            line_color=DOWN,
            annotation_text=f"DR − {abs(INFLATED_GAP)}: inflated below",
            annotation_position="top",
            annotation_font_size=11,
        )
    return fig


def impact_effort_chart(actions: pd.DataFrame) -> go.Figure:
    """Each action by effort (x) and impact score (y); a bigger marker is a higher priority.

    Effort is categorical; high- and medium-confidence actions sit slightly apart within a column so
    two actions of the same effort and close impact do not hide each other.
    """
    title = "Impact and effort of each action"
    if actions.empty:
        return empty_figure(title, "No actions.")
    fig = go.Figure()
    for confidence, part in actions.groupby("confidence", sort=False):
        offset = CONFIDENCE_OFFSET.get(str(confidence), 0.0)
        fig.add_scatter(
            name=f"{confidence} confidence",
            x=[EFFORT_ORDER.index(str(e)) + offset if e in EFFORT_ORDER else None for e in part["effort"]],
            y=part["impact_score"].astype(float),
            mode="markers+text",
            text=[f"#{r}" for r in part["rank"]],
            textposition="middle center",
            textfont={"color": "white"},
            marker={
                "size": (MARKER_BASE + part["priority"].astype(float) * MARKER_PER_PRIORITY).tolist(),
                "color": CONFIDENCE_COLOURS.get(str(confidence), DR_COLOUR),
                "line": {"width": 1, "color": "white"},
            },
            customdata=part[["action", "priority", "effort"]].astype(str).to_numpy(),
            hovertemplate=(
                "%{customdata[0]}<br>effort %{customdata[2]}, impact %{y}, priority %{customdata[1]}"
                "<extra></extra>"
            ),
        )
    effort_axis = {
        "title": "Effort",
        "tickvals": list(range(len(EFFORT_ORDER))),
        "ticktext": list(EFFORT_ORDER),
        "range": [-0.5, len(EFFORT_ORDER) - 0.5],
    }
    impact_axis = {"title": "Impact score (heuristic)", "range": [0, 11]}
    return _scatter_layout(fig, title, effort_axis, impact_axis, legend="Confidence")


def link_mix_chart(mix: pd.DataFrame) -> go.Figure:
    """How the mapped referring domains split into live follow, nofollow, lost and spam-flagged."""
    title = "Referring domains in the Trust Map"
    if mix.empty or int(mix["domains"].fillna(0).sum()) == 0:
        return empty_figure(title, "The Trust Map lists no referring domains.")
    fig = go.Figure(
        go.Bar(
            x=mix["kind"].astype(str),
            y=mix["domains"].astype(float),
            marker_color=[GROUP_COLOURS.get(str(k), DR_COLOUR) for k in mix["kind"]],
            text=[str(int(v)) for v in mix["domains"].fillna(0)],
            textposition="outside",
            hovertemplate="%{x}: %{y}<extra></extra>",
        )
    )
    fig.update_layout(
        title=title, yaxis_title="Referring domains", height=320, showlegend=False, margin={"t": 50, "b": 40}
    )
    return fig


def spam_chart(referring: pd.DataFrame) -> go.Figure:
    """DR against spam score for every mapped domain; the dotted line is the spam flag."""
    title = "Spam score against DR"
    rows = referring[referring["dr"].notna() & referring["spam_score"].notna()]
    if rows.empty:
        return empty_figure(title, "No referring domain has both a DR and a spam score.")
    fig = go.Figure()
    for group in GROUPS:
        part = rows[rows["group"] == group]
        if part.empty:
            continue
        fig.add_scatter(
            name=group,
            x=part["dr"].astype(float),
            y=part["spam_score"].astype(float),
            mode="markers",
            marker={"color": GROUP_COLOURS[group], "size": 9, "opacity": 0.85},
            text=part["domain"].astype(str),
            hovertemplate="%{text}<br>DR %{x}, spam score %{y}<extra></extra>",
        )
    fig.add_hline(y=SPAM_FLAG, line_dash="dot", line_color=DOWN)
    dr_axis = {"title": "DR of the referring domain", "range": [-2, 102]}
    spam_axis = {"title": "Spam score", "range": [-2, 102]}
    return _scatter_layout(fig, title, dr_axis, spam_axis, legend="Group")


def plan_chart(plan: pd.DataFrame) -> go.Figure:
    """The 30/60/90-day plan as a timeline, one bar per phase."""
    title = "90-day plan"
    if plan.empty:
        return empty_figure(title, "No plan.")
    starts = plan["start_day"].astype(float) - 1
    lengths = plan["end_day"].astype(float) - starts
    fig = go.Figure(
        go.Bar(
            x=lengths,
            base=starts,
            y=plan["days"].astype(str),
            orientation="h",
            text=plan["step"].astype(str),
            textposition="inside",
            insidetextanchor="start",
            marker_color=[DR_COLOUR, TRUE_DR_COLOUR, UP][: len(plan)],
            hovertemplate="%{y}: %{text}<extra></extra>",
        )
    )
    fig.update_layout(
        title=title,
        xaxis={"title": "Day", "range": [0, 90], "dtick": 30},
        yaxis={"autorange": "reversed"},
        height=240,
        showlegend=False,
        margin={"t": 50, "b": 40, "l": 90},
    )
    return fig


def _scatter_layout(
    fig: go.Figure, title: str, xaxis: dict[str, Any], yaxis: dict[str, Any], *, legend: str
) -> go.Figure:
    """The frame both Coach scatters share (actions by effort, domains by spam): the same height and
    margins, and a titled legend, since their colours carry meaning (confidence, risk group)."""
    fig.update_layout(
        title=title,
        xaxis=xaxis,
        yaxis=yaxis,
        height=360,
        legend_title_text=legend,
        margin={"t": 50, "b": 40},
    )
    return fig
