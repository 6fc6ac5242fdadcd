"""Market figures: visibility and share of voice over time, the latest shares, and a keyword's top-10
DR over time. Pure: no Streamlit.

One colour per compared domain, the same in every panel (the History page's palette: your site
first); ``st.plotly_chart`` with the Streamlit theme supplies the light or dark background. A domain
at 0 % all period lies under the others on the axis: the legend names such domains together, in one
grey entry, instead of listing colours no reader can find.
"""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

from analysis.figures.common import NEUTRAL, empty_figure, legend_entry
from analysis.figures.history_charts import DAY, LEGEND, MARGIN, domain_colours
from analysis.figures.markers import add_markers

PERCENT_RANGE = [0, 100]
#: The latest shares: this many domains as bars, the rest summed as "others".
SHARE_BARS = 10
OTHERS = "others"


def _line_chart(
    lines: pd.DataFrame, domains: list[str], column: str, title: str, label: str, markers: pd.DataFrame | None
) -> go.Figure:
    if lines.empty:
        return empty_figure(title, "No top 10 is recorded in this period yet.")
    colours = domain_colours(domains)
    at_zero = _at_zero(lines, domains, column)
    fig = go.Figure()
    for domain in domains:
        rows = lines[lines["domain"] == domain]
        fig.add_trace(
            go.Scatter(
                x=pd.to_datetime(rows["day"]).to_numpy(dtype="datetime64[ns]"),
                y=rows[column].to_numpy(dtype=float),
                mode="lines+markers" if len(rows) <= 2 else "lines",
                name=domain,
                line={
                    "color": NEUTRAL if domain in at_zero else colours[domain],
                    "width": 3 if domain == domains[0] else 2,
                },
                showlegend=False if domain in at_zero else None,
                hovertemplate=f"{domain}<br>{DAY}<br>{label} %{{y:.1f}}%<extra></extra>",
            )
        )
    if at_zero:
        fig.add_trace(legend_entry(f"0 % all period: {', '.join(at_zero)}", {"color": NEUTRAL, "width": 2}))
    fig.update_layout(
        title=title, margin=MARGIN, legend=LEGEND, hovermode="closest", yaxis_title=f"{label} (%)"
    )
    fig.update_yaxes(rangemode="tozero")
    return add_markers(fig, markers)


def _at_zero(lines: pd.DataFrame, domains: list[str], column: str) -> list[str]:
    """The domains whose every recorded value of ``column`` is 0: their lines lie on the axis, one
    under the other."""
    values = lines.groupby("domain")[column].agg(
        lambda series: series.notna().any() and (series.fillna(0) == 0).all()
    )
    return [domain for domain in domains if bool(values.get(domain, False))]


def visibility_chart(
    lines: pd.DataFrame, domains: list[str], column: str = "visibility", markers: pd.DataFrame | None = None
) -> go.Figure:
    """Visibility % of each compared domain by day (100: first for every keyword)."""
    label = "Volume-weighted visibility" if column == "weighted_visibility" else "Visibility"
    return _line_chart(lines, domains, column, f"{label} over time", label, markers)


def share_over_time_chart(
    lines: pd.DataFrame, domains: list[str], markers: pd.DataFrame | None = None
) -> go.Figure:
    """Share of voice % of each compared domain by day."""
    return _line_chart(
        lines, domains, "share_of_voice", "Share of voice over time", "Share of voice", markers
    )


def latest_share_chart(table: pd.DataFrame, domains: list[str], day: pd.Timestamp) -> go.Figure:
    """The latest day's shares as horizontal bars, largest on top; the rest summed as "others"."""
    present = table[table["share_of_voice"] > 0]
    if present.empty:
        return empty_figure("Share of voice", "No top 10 is recorded in this period yet.")
    top = present.head(SHARE_BARS)
    rest = float(present["share_of_voice"].iloc[SHARE_BARS:].sum())
    names = top["domain"].tolist() + ([OTHERS] if rest > 0 else [])
    shares = top["share_of_voice"].tolist() + ([rest] if rest > 0 else [])
    colours = domain_colours(domains)
    fig = go.Figure(
        go.Bar(
            x=shares[::-1],
            y=names[::-1],
            orientation="h",
            marker={"color": [colours.get(name, NEUTRAL) for name in names[::-1]]},
            text=[f"{share:.1f}%" for share in shares[::-1]],
            textposition="outside",
            cliponaxis=False,
            hovertemplate="%{y}<br>share of voice %{x:.1f}%<extra></extra>",
        )
    )
    fig.update_layout(
        title=f"Share of voice on {day:%b %d, %Y}",
        margin={**MARGIN, "b": 40, "r": 50},
        xaxis_title="Share of voice (%)",
        showlegend=False,
        height=max(320, 34 * len(names) + 120),
    )
    return fig


def dr_spread_chart(spread: pd.DataFrame, keyword: str, markers: pd.DataFrame | None = None) -> go.Figure:
    """A keyword's top-10 DR by day: the band from the lowest to the highest DR, the median and the
    lowest (the entry point). A rising band: the keyword is getting harder."""
    if spread.empty:
        return empty_figure(f"Top-10 DR over time: {keyword}", "No rated top 10 in this period.")
    days = pd.to_datetime(spread["day"]).to_numpy(dtype="datetime64[ns]")
    fig = go.Figure()
    fig.add_trace(
        go.Scatter(
            x=days, y=spread["max_dr"], mode="lines", line={"width": 0}, name="highest DR", hoverinfo="skip"
        )
    )
    fig.add_trace(
        go.Scatter(
            x=days,
            y=spread["min_dr"],
            mode="lines",
            fill="tonexty",
            fillcolor="rgba(91, 141, 239, 0.18)",
            line={"color": "#2e9e5b", "width": 2},
            name="lowest DR (entry point); shaded: lowest to highest",
            hovertemplate=f"{DAY}<br>lowest DR %{{y:.0f}}<extra></extra>",
        )
    )
    fig.add_trace(
        go.Scatter(
            x=days,
            y=spread["median_dr"],
            mode="lines",
            line={"color": "#5b8def", "width": 3},
            name="median DR",
            hovertemplate=f"{DAY}<br>median DR %{{y:.1f}}<extra></extra>",
        )
    )
    fig.update_layout(title=f"Top-10 DR over time: {keyword}", margin=MARGIN, legend=LEGEND, yaxis_title="DR")
    fig.update_yaxes(range=PERCENT_RANGE)
    return add_markers(fig, markers)
