"""Domain overview figures: a lookup's changes and the compare chart. Pure: no Streamlit, no network.

Figures carry no colours of their own beyond meaning (up/down, DR/TrueDR): ``st.plotly_chart`` with
the Streamlit theme applies the app's light or dark palette.
"""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

from analysis.figures.common import DOWN, UP, dr_true_dr_bars, empty_figure


def changes_chart(changes: pd.DataFrame) -> go.Figure:
    """Weekly and monthly DR/TrueDR changes as bars, green up and red down."""
    title = "Rating changes"
    if changes.empty:
        return empty_figure(title, "The service reported no changes for this site.")
    fig = go.Figure()
    for period in ("weekly", "monthly"):
        part = changes[changes["period"] == period]
        if part.empty:
            continue
        values = part["change"].astype(float)
        fig.add_bar(
            name=period.capitalize(),
            x=part["metric"].astype(str),
            y=values,
            marker_color=[UP if v >= 0 else DOWN for v in values],
            marker_pattern_shape="" if period == "weekly" else "/",
            text=[f"{v:+g}" for v in values],
            textposition="outside",
            hovertemplate=f"%{{x}} {period} change: %{{y:+g}}<extra></extra>",
        )
    fig.update_layout(
        title=title,
        barmode="group",
        yaxis_title="Change (rating points)",
        height=320,
        legend_title_text="Period",
        margin={"t": 50, "b": 30},
    )
    fig.add_hline(y=0, line_width=1, line_color="gray")
    return fig


def compare_chart(frame: pd.DataFrame) -> go.Figure:
    """DR next to TrueDR for each compared domain (failed lookups are left out)."""
    return dr_true_dr_bars(
        frame,
        title="DR and TrueDR by domain",
        empty_message="No domain could be looked up.",
        height=360,
        margin={"t": 50, "b": 30},
    )
