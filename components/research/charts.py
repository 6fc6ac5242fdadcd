"""Figures of the research pages (Trust Map, bulk DR): DataFrame → plotly figure, nothing else.

Pure functions: no Streamlit, no network. Colours carry meaning only (followed vs not, live vs
lost, spam risk); everything else comes from the Streamlit theme, so the charts follow the app's
light or dark mode.
"""

from __future__ import annotations

import math

import pandas as pd
import plotly.graph_objects as go

from components.common.figures import DR_COLOUR, empty_figure, floats
from components.research.frames.trust_map import SPAM_RISK_FROM

SPAM_COLOUR = "#d64545"
#: Known enum values get fixed colours so a chart means the same on every site; others get grey.
VALUE_COLOURS: dict[str, str] = {
    "dofollow": "#2e9e5b",
    "nofollow": "#8c8c8c",
    "live": "#2e9e5b",
    "lost": "#d64545",
}
OTHER_COLOUR = "#b07cc6"
LISTED_COLOUR = "#2e9e5b"
UNLISTED_COLOUR = "#8c8c8c"
#: Above this many domains a bar per domain is unreadable; the bulk chart shows DR bands instead.
MAX_BARS = 40


def dr_band_chart(bands: pd.DataFrame, *, title: str, unit: str = "referring domains") -> go.Figure:
    """Bars of how many domains fall in each DR band (0–9 … 90–100)."""
    if int(bands["count"].sum()) == 0:
        return empty_figure(title, f"No {unit} with a known DR.", 280)
    fig = go.Figure(
        go.Bar(
            x=bands["band"].astype(str).tolist(),
            y=bands["count"].astype(int).tolist(),
            marker_color=DR_COLOUR,
            hovertemplate=f"DR %{{x}}: %{{y}} {unit}<extra></extra>",
        )
    )
    fig.update_layout(
        title=title,
        xaxis_title="DR band",
        yaxis_title=unit.capitalize(),
        height=320,
        bargap=0.15,
        margin={"t": 50, "b": 40},
    )
    return fig


def _marker_sizes(backlinks: pd.Series) -> list[float]:
    """Marker diameters by backlinks, on a square-root scale (unknown counts get the smallest)."""
    values = backlinks.astype("Float64").fillna(0).astype(float)
    top = max(1.0, float(values.max()) if len(values) else 1.0)
    return [8 + 30 * math.sqrt(max(0.0, v) / top) for v in values]


def importance_scatter(frame: pd.DataFrame) -> go.Figure:
    """Importance against DR, one dot per referring domain: size = backlinks, colour = linkType.

    Spam-risky domains (spamScore ≥ 50) get a red ring and an ``x`` so they stand out whatever
    their colour. Rows without a DR or an importance cannot be placed and are left out.
    """
    title = "Importance vs DR"
    rows = frame[frame["dr"].notna() & frame["importance"].notna()]
    if rows.empty:
        return empty_figure(title, "No referring domain has both a DR and an importance.", 380)
    fig = go.Figure()
    link_types = rows["link_type"].astype("string").fillna("not given")
    for value in sorted(link_types.unique(), key=lambda v: (v not in VALUE_COLOURS, v)):
        part = rows[link_types == value]
        risky = part["spam_risk"].fillna(False).astype(bool).tolist()
        fig.add_scatter(
            name=str(value),
            x=floats(part["dr"]),
            y=floats(part["importance"]),
            mode="markers",
            marker={
                "size": _marker_sizes(part["backlinks"]),
                "color": VALUE_COLOURS.get(str(value), OTHER_COLOUR),
                "opacity": 0.75,
                "symbol": ["x" if r else "circle" for r in risky],
                "line": {
                    "width": [2 if r else 0 for r in risky],
                    "color": SPAM_COLOUR,
                },
            },
            customdata=list(
                zip(
                    part["domain"].astype(str),
                    part["backlinks"].astype("Float64").fillna(float("nan")).astype(float),
                    part["spam_score"].astype("Float64").fillna(float("nan")).astype(float),
                    strict=True,
                )
            ),
            hovertemplate=(
                "%{customdata[0]}<br>DR %{x} · importance %{y}<br>"
                "backlinks %{customdata[1]:,} · spam score %{customdata[2]}<extra>%{fullData.name}</extra>"
            ),
        )
    fig.update_layout(
        title=title,
        xaxis={"title": "DR of the referring domain", "range": [-2, 102]},
        yaxis={"title": "Importance (0–100)", "range": [-2, 102]},
        legend_title_text="Link type",
        height=420,
        margin={"t": 50, "b": 40},
    )
    risky_count = int(rows["spam_risk"].fillna(False).astype(bool).sum())
    if risky_count:
        fig.add_annotation(
            text=f"✕ red ring: spam score ≥ {SPAM_RISK_FROM} ({risky_count})",
            xref="paper",
            yref="paper",
            x=1,
            y=1.06,
            showarrow=False,
            font={"color": SPAM_COLOUR},
            xanchor="right",
        )
    return fig


def breakdown_chart(counts: pd.DataFrame, *, title: str) -> go.Figure:
    """Horizontal bars of how many referring domains have each value (e.g. dofollow / nofollow)."""
    if counts.empty:
        return empty_figure(title, "Nothing to count.", 220)
    values = counts["value"].astype(str).tolist()
    fig = go.Figure(
        go.Bar(
            x=counts["count"].astype(int).tolist(),
            y=values,
            orientation="h",
            marker_color=[VALUE_COLOURS.get(v, OTHER_COLOUR) for v in values],
            text=counts["count"].astype(int).tolist(),
            textposition="auto",
            hovertemplate="%{y}: %{x}<extra></extra>",
        )
    )
    fig.update_layout(
        title=title,
        xaxis_title="Referring domains",
        yaxis={"autorange": "reversed"},
        height=max(200, 90 + 40 * len(values)),
        margin={"t": 50, "b": 40},
    )
    return fig


def bulk_dr_chart(frame: pd.DataFrame, bands: pd.DataFrame) -> go.Figure:
    """DR per checked domain (sorted, coloured by listed), or DR bands when there are many."""
    title = "DR of the checked domains"
    rows = frame[frame["dr"].notna()]
    if rows.empty:
        return empty_figure(title, "No domain could be rated.", 280)
    if len(rows) > MAX_BARS:
        return dr_band_chart(bands, title=f"{title} ({len(rows)} rated, by DR band)", unit="domains")
    rows = rows.sort_values("dr", ascending=True, kind="stable")
    listed = rows["listed"].fillna(False).astype(bool).tolist()
    fig = go.Figure(
        go.Bar(
            x=floats(rows["dr"]),
            y=rows["domain"].astype(str).tolist(),
            orientation="h",
            marker_color=[LISTED_COLOUR if is_listed else UNLISTED_COLOUR for is_listed in listed],
            text=[str(int(v)) for v in floats(rows["dr"])],
            textposition="auto",
            customdata=["listed" if is_listed else "not listed" for is_listed in listed],
            hovertemplate="%{y}: DR %{x} (%{customdata})<extra></extra>",
        )
    )
    fig.update_layout(
        title=f"{title} (green: listed on VerifiedDR)",
        xaxis={"title": "DR (0–100)", "range": [0, 100]},
        height=max(260, 80 + 24 * len(rows)),
        margin={"t": 50, "b": 40},
    )
    return fig
