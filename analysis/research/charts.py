"""Figures of the research pages (Trust Map, bulk DR): DataFrame → plotly figure, nothing else.

Pure functions: no Streamlit, no network. Colours carry meaning only (followed vs not, live vs
lost, spam risk); everything else comes from the Streamlit theme, so the charts follow the app's
light or dark mode.
"""

from __future__ import annotations

import math

import pandas as pd
import plotly.graph_objects as go

from analysis.figures.common import DR_COLOUR, empty_figure, floats
from analysis.research.frames.trust_map import SPAM_RISK_FROM

SPAM_COLOUR = "#e5383b"
#: Inside the ring a light red tint: the domain's own bubble still shows through it.
SPAM_FILL = "rgba(229, 56, 59, 0.22)"
#: The spam-risk ring: thick, and never smaller than this diameter, so even a tiny domain's ring shows.
SPAM_RING_WIDTH = 3.5
SPAM_RING_MIN = 22
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


def _hover(rows: pd.DataFrame) -> dict[str, object]:
    """The domain, its backlinks and spam score on hover, for any trace of the scatter."""
    return {
        "customdata": list(
            zip(
                rows["domain"].astype(str),
                rows["backlinks"].astype("Float64").fillna(float("nan")).astype(float),
                rows["spam_score"].astype("Float64").fillna(float("nan")).astype(float),
                strict=True,
            )
        ),
        "hovertemplate": (
            "%{customdata[0]}<br>DR %{x} · importance %{y}<br>"
            "backlinks %{customdata[1]:,} · spam score %{customdata[2]}<extra>%{fullData.name}</extra>"
        ),
    }


def importance_scatter(frame: pd.DataFrame) -> go.Figure:
    """Importance against DR, one bubble per referring domain: size = backlinks, colour = linkType.

    Spam-risky domains (spamScore ≥ 50) also get a thick red ring, drawn last so no bubble covers it
    and wider than their own bubble so it shows around it, in the light and the dark theme alike; the
    legend names the ring and counts them. Rows without a DR or an importance cannot be placed.
    """
    title = "Importance vs DR"
    rows = frame[frame["dr"].notna() & frame["importance"].notna()].reset_index(drop=True)
    if rows.empty:
        return empty_figure(title, "No referring domain has both a DR and an importance.", 380)
    sizes = pd.Series(_marker_sizes(rows["backlinks"]), index=rows.index)
    fig = go.Figure()
    link_types = rows["link_type"].astype("string").fillna("not given")
    for value in sorted(link_types.unique(), key=lambda v: (v not in VALUE_COLOURS, v)):
        part = rows[link_types == value]
        fig.add_scatter(
            name=str(value),
            x=floats(part["dr"]),
            y=floats(part["importance"]),
            mode="markers",
            marker={
                "size": sizes[part.index].tolist(),
                "color": VALUE_COLOURS.get(str(value), OTHER_COLOUR),
                "opacity": 0.6,
                "line": {"width": 0},
            },
            **_hover(part),
        )
    risky = rows[rows["spam_risk"].fillna(False).astype(bool)]
    if not risky.empty:
        fig.add_scatter(
            name=f"Spam risk: score ≥ {SPAM_RISK_FROM} ({len(risky)})",
            x=floats(risky["dr"]),
            y=floats(risky["importance"]),
            mode="markers",
            marker={
                "size": [max(SPAM_RING_MIN, s + 10) for s in sizes[risky.index]],
                "symbol": "circle",
                "color": SPAM_FILL,
                "opacity": 1,
                "line": {"width": SPAM_RING_WIDTH, "color": SPAM_COLOUR},
            },
            **_hover(risky),
        )
    fig.update_layout(
        title=title,
        xaxis={"title": "DR of the referring domain", "range": [-2, 102]},
        yaxis={"title": "Importance (0–100)", "range": [-2, 102]},
        legend_title_text="Referring domains",
        height=420,
        margin={"t": 50, "b": 40},
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
