"""What every chart shares: the colours that carry meaning, the one empty figure, DR/TrueDR bars. Pure.

Figures carry no colours of their own beyond meaning (up/down, DR/TrueDR): ``st.plotly_chart`` with
the Streamlit theme applies the app's light or dark palette.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import plotly.graph_objects as go

UP = "#2e9e5b"
DOWN = "#d64545"
DR_COLOUR = "#5b8def"
TRUE_DR_COLOUR = "#f2a541"
NEUTRAL = "#8c8c8c"


def empty_figure(title: str, message: str, height: int = 260) -> go.Figure:
    """A titled, axis-free figure that says why there is nothing to draw (instead of a blank chart)."""
    fig = go.Figure()
    fig.update_layout(
        title=title,
        xaxis={"visible": False},
        yaxis={"visible": False},
        annotations=[
            {"text": message, "showarrow": False, "x": 0.5, "y": 0.5, "xref": "paper", "yref": "paper"}
        ],
        height=height,
    )
    return fig


def floats(series: pd.Series) -> list[float]:
    """A nullable column as plain floats for plotly, NA as NaN (a gap in the line, never 0)."""
    return list(series.astype("Float64").to_numpy(dtype=float, na_value=float("nan")))


def dr_true_dr_bars(
    frame: pd.DataFrame, *, title: str, empty_message: str, name_column: str = "domain", **layout: Any
) -> go.Figure:
    """DR next to TrueDR for each row that has either; a missing rating leaves its bar out, never 0.

    The compared domains of the overview and the owner's sites draw the same chart; ``layout``
    carries what each page sizes differently (height, margin).
    """
    rows = frame[frame["dr"].notna() | frame["true_dr"].notna()]
    if rows.empty:
        return empty_figure(title, empty_message)
    fig = go.Figure()
    for column, label, colour in (("dr", "DR", DR_COLOUR), ("true_dr", "TrueDR", TRUE_DR_COLOUR)):
        fig.add_bar(
            name=label,
            x=list(rows[name_column].astype(str)),
            y=floats(rows[column]),
            marker_color=colour,
            hovertemplate=f"%{{x}} {label}: %{{y}}<extra></extra>",
        )
    fig.update_layout(
        title=title, barmode="group", yaxis={"title": "Rating (0–100)", "range": [0, 100]}, **layout
    )
    return fig
