"""Discovery figures: TrueDR against DR for the sites found. Pure: no Streamlit.

Colours carry meaning only (DR/TrueDR); ``st.plotly_chart`` with the Streamlit theme supplies the rest.
"""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

from analysis.figures.common import DR_COLOUR, NEUTRAL, UP, empty_figure, floats


def discovery_chart(frame: pd.DataFrame) -> go.Figure:
    """TrueDR against DR: sites above the diagonal are worth more than their DR says."""
    title = "TrueDR against DR"
    rows = frame[frame["dr"].notna() & frame["true_dr"].notna()]
    if rows.empty:
        return empty_figure(title, "No site matches these filters.")
    values = floats(rows["dr"]) + floats(rows["true_dr"])
    low, high = max(0.0, min(values) - 6), min(101.0, max(values) + 4)
    fig = go.Figure()
    fig.add_scatter(
        x=[low, high], y=[low, high], mode="lines", name="TrueDR = DR", line={"dash": "dot", "color": NEUTRAL}
    )
    for validated, name, colour in ((True, "Traffic validated", UP), (False, "Not validated", DR_COLOUR)):
        part = rows[rows["traffic_validated"].fillna(False) == validated]
        if part.empty:
            continue
        trust = part["trust_score"].astype("Float64").fillna(50)
        fig.add_scatter(
            x=floats(part["dr"]),
            y=floats(part["true_dr"]),
            mode="markers",
            name=name,
            marker={"color": colour, "size": [6 + t / 8 for t in floats(trust)], "opacity": 0.8},
            text=list(part["domain"].astype(str)),
            customdata=floats(trust),
            hovertemplate="%{text}<br>DR %{x} · TrueDR %{y} · trust %{customdata:.0f}<extra></extra>",
        )
    fig.update_layout(
        title=title,
        xaxis={"title": "DR", "range": [low, high]},
        yaxis={"title": "TrueDR", "range": [low, high]},
        height=380,
        margin={"t": 50, "b": 30},
    )
    return fig
