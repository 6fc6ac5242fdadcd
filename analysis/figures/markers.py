"""Markers on time charts: a dotted line on a note's day (a band over a Google update's days) and, at
the top of the plot, a small label whose hover says the whole note; the legend names each kind of line
("Note", "Google update"), the key a printed chart needs without a hover. Pure: no Streamlit.

The markers frame is ``analysis.market.markers``' (day, end_day, kind, label, text, …). Text is shown as
its characters (escaped), never as markup: a note is free text and so is a keyword.
"""

from __future__ import annotations

import html
from datetime import timedelta

import pandas as pd
import plotly.graph_objects as go

from analysis.figures.common import NEUTRAL, legend_entry

#: One colour per kind of marker, readable on a light and a dark background.
MARKER_COLOURS = {"note": "#e377c2", "google_update": "#9b6bd6", "keyword_set": NEUTRAL}
KIND_WORDS = {"note": "Note", "google_update": "Google update", "keyword_set": "Keywords changed"}


def add_markers(fig: go.Figure, markers: pd.DataFrame | None) -> go.Figure:
    """``fig`` with ``markers`` drawn on every panel (the figure is changed and returned)."""
    if markers is None or markers.empty:
        return fig
    for row in markers.itertuples(index=False):
        colour = MARKER_COLOURS.get(str(row.kind), NEUTRAL)
        start = pd.Timestamp(row.day)
        end = None if row.end_day is None or pd.isna(row.end_day) else pd.Timestamp(row.end_day)
        if end is not None and end > start:
            fig.add_vrect(
                x0=start,
                x1=end + timedelta(days=1),
                fillcolor=colour,
                opacity=0.08,
                line_width=0,
                layer="below",
            )
        fig.add_vline(x=start, line={"color": colour, "dash": "dot", "width": 1})
        when = f"{start:%b %d, %Y}" + (f" – {end:%b %d, %Y}" if end is not None and end > start else "")
        fig.add_annotation(
            x=start,
            y=1,
            xref="x",
            yref="paper",
            yanchor="bottom",
            text=html.escape(str(row.label), quote=False),
            hovertext=html.escape(
                f"{KIND_WORDS.get(str(row.kind), 'Note')}, {when}: {row.text}", quote=False
            ),
            showarrow=False,
            font={"size": 10, "color": colour},
            textangle=0,
        )
    for kind in dict.fromkeys(str(kind) for kind in markers["kind"]):
        fig.add_trace(marker_key(kind))
    return fig


def marker_key(kind: str) -> go.Scatter:
    """The legend's entry for one kind of marker: its dotted line and its name."""
    line = {"color": MARKER_COLOURS.get(kind, NEUTRAL), "dash": "dot", "width": 1}
    return legend_entry(KIND_WORDS.get(kind, "Note"), line)
