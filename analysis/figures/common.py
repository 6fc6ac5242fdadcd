"""What every chart shares: the colours that carry meaning, the one empty figure, DR/TrueDR bars, and
``inert_figure``, which keeps the service's text in a chart's data from becoming links or formatting. Pure.

Figures carry no colours of their own beyond meaning (up/down, DR/TrueDR): ``st.plotly_chart`` with
the Streamlit theme applies the app's light or dark palette.
"""

from __future__ import annotations

import html
import re
from typing import Any

import numpy as np
import pandas as pd
import plotly.graph_objects as go

UP = "#2e9e5b"
DOWN = "#d64545"
DR_COLOUR = "#5b8def"
TRUE_DR_COLOUR = "#f2a541"
NEUTRAL = "#8c8c8c"


#: Trace properties a chart shows as text: axis categories, labels, hover text, legend names.
CHART_TEXT = ("x", "y", "text", "hovertext", "customdata", "labels", "parents", "name")
#: The one tag the app's own chart labels use (a line break); every other ``<``, ``>`` and ``&`` is text.
_LINE_BREAK = re.compile(r"(<br\s*/?>)", re.IGNORECASE)


def _inert_text(value: Any) -> Any:
    """``value`` with every string in it shown as its characters by plotly (which draws a subset of HTML,
    links among it, in a chart's text); numbers and other values stay as they are."""
    if isinstance(value, str):
        parts = _LINE_BREAK.split(value)  # the line breaks at odd places
        return "".join(part if i % 2 else html.escape(part, quote=False) for i, part in enumerate(parts))
    if isinstance(value, (list, tuple)):
        return type(value)(_inert_text(item) for item in value)
    if isinstance(value, np.ndarray) and value.dtype.kind in "OUS":
        return np.array([_inert_text(item) for item in value.ravel()], dtype=object).reshape(value.shape)
    return value


def inert_figure(fig: Any) -> Any:
    """``fig`` with the text of its traces' data (the service's names, titles and messages) drawn as text:
    no link, image or formatting the app did not put there. Applied to every built chart (``data.figure``
    and the Trust Map's), so a chart builder need not remember it."""
    if not isinstance(fig, go.Figure):
        return fig
    for trace in fig.data:
        for prop in CHART_TEXT:
            value = getattr(trace, prop, None)
            if value is not None:
                trace[prop] = _inert_text(value)
    return fig


def legend_entry(name: str, line: dict[str, Any]) -> go.Scatter:
    """A legend entry and nothing drawn: the key of what a chart draws otherwise (a marker's line, the
    lines one entry stands for)."""
    return go.Scatter(
        x=[None], y=[None], mode="lines", name=name, line=line, hoverinfo="skip", showlegend=True
    )


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
