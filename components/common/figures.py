"""What every chart shares: the colours that carry meaning and the one empty figure. Pure.

Figures carry no colours of their own beyond meaning (up/down, DR/TrueDR): ``st.plotly_chart`` with
the Streamlit theme applies the app's light or dark palette.
"""

from __future__ import annotations

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
