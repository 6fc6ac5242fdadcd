"""When a keyword becomes winnable, drawn: the site's DR and the top 10's DR (median or lowest) as
recorded, their fitted Theil–Sen lines, the lines carried forward with their bands, and the crossing
with its band. Pure: no Streamlit.

The site's line takes the first of the History page's domain colours (your site first); the top 10's
takes the DR spread chart's colour of the same target (median blue, lowest green), so a reader who
knows the Market page reads it the same. Nothing is drawn beyond ``HORIZON_MONTHS``: the chart carries
the lines no further than the words would.
"""

from __future__ import annotations

from datetime import date, timedelta

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from analysis.figures.common import NEUTRAL, empty_figure
from analysis.figures.history_charts import DAY, DOMAIN_COLOURS, LEGEND, MARGIN, RATING_RANGE
from analysis.opportunities.winnable import HORIZON_MONTHS, MONTH_DAYS, Projection, Trend
from analysis.opportunities.words import projection_words, target_words

SITE_COLOUR = DOMAIN_COLOURS[0]
TARGET_COLOURS = {"median": "#f2a541", "lowest": "#2e9e5b"}
#: How far a projection is drawn when it states no month (months after the last recorded day).
SHOWN_AHEAD_MONTHS = 6


def _ahead(projection: Projection, now: date) -> date:
    """The last day drawn: the band's late end (a little past it), else ``SHOWN_AHEAD_MONTHS``; never
    beyond the horizon."""
    months = float(SHOWN_AHEAD_MONTHS)
    if projection.band is not None:
        months = max(months, projection.band[1] * 1.1)
    months = min(months, float(HORIZON_MONTHS))
    return now + timedelta(days=round(months * MONTH_DAYS))


def _recorded(fig: go.Figure, series: pd.Series, name: str, colour: str) -> None:
    values = pd.to_numeric(series, errors="coerce").dropna().sort_index()
    fig.add_scatter(
        x=pd.to_datetime(pd.Series(values.index)).to_numpy(dtype="datetime64[ns]"),
        y=values.to_numpy(dtype=float),
        mode="lines",
        name=f"{name}, as recorded",
        line={"color": colour, "width": 1},
        opacity=0.45,
        hovertemplate=f"{DAY}<br>{name} %{{y:.1f}}<extra></extra>",
    )


def _fitted(fig: go.Figure, trend: Trend, start: date, end: date, name: str, colour: str) -> None:
    """The fitted line over the history (solid), carried forward (dashed) inside its band (shaded)."""
    now = trend.anchor
    fig.add_scatter(
        x=np.array([start, now], dtype="datetime64[ns]"),
        y=[trend.at(start), trend.at(now)],
        mode="lines",
        name=f"{name}, trend",
        line={"color": colour, "width": 3},
        hovertemplate=f"{DAY}<br>{name} trend %{{y:.1f}}<extra></extra>",
    )
    ahead = pd.date_range(now, end, periods=12).date if end > now else [now]
    days = np.array(ahead, dtype="datetime64[ns]")
    upper = [min(trend.at(day, trend.high), 100.0) for day in ahead]
    lower = [max(trend.at(day, trend.low), 0.0) for day in ahead]
    fig.add_scatter(x=days, y=upper, mode="lines", line={"width": 0}, showlegend=False, hoverinfo="skip")
    fig.add_scatter(
        x=days,
        y=lower,
        mode="lines",
        line={"width": 0},
        fill="tonexty",
        fillcolor=_shade(colour),
        name=f"{name}, band of its pace",
        hoverinfo="skip",
    )
    fig.add_scatter(
        x=days,
        y=[trend.at(day) for day in ahead],
        mode="lines",
        name=f"{name}, carried forward",
        line={"color": colour, "width": 2, "dash": "dash"},
        hovertemplate=f"{DAY}<br>{name} at this pace %{{y:.1f}}<extra></extra>",
    )


def _shade(colour: str) -> str:
    red, green, blue = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return f"rgba({red}, {green}, {blue}, 0.18)"


def winnable_chart(
    site_dr: pd.Series, top10_dr: pd.Series, projection: Projection, keyword: str
) -> go.Figure:
    """The site's DR against ``keyword``'s top 10 (``projection.target``), recorded, fitted and
    projected, with the crossing and its band when the projection states a month."""
    target = target_words(projection.target)
    title = f"{keyword}: your DR against {target}"
    site, top10, now = projection.site, projection.top10, projection.now
    if site is None or top10 is None or now is None:
        return empty_figure(title, projection_words(projection) + ".")
    start = min(pd.Timestamp(site_dr.dropna().index.min()), pd.Timestamp(top10_dr.dropna().index.min()))
    end = _ahead(projection, now)
    colour = TARGET_COLOURS[projection.target]
    top_name = "top-10 median DR" if projection.target == "median" else "top-10 lowest DR"
    fig = go.Figure()
    _recorded(fig, site_dr, "your DR", SITE_COLOUR)
    _recorded(fig, top10_dr, top_name, colour)
    _fitted(fig, site, start.date(), end, "your DR", SITE_COLOUR)
    _fitted(fig, top10, start.date(), end, top_name, colour)
    if projection.day is not None and projection.band_days is not None:
        early, late = projection.band_days
        fig.add_vrect(x0=early, x1=late, fillcolor=NEUTRAL, opacity=0.15, line_width=0)
        fig.add_scatter(
            x=np.array([projection.day], dtype="datetime64[ns]"),
            y=[site.at(projection.day)],
            mode="markers",
            marker={"symbol": "x", "size": 12, "color": NEUTRAL},
            name="the crossing (shaded: its band)",
            hovertemplate=f"{DAY}<br>the lines cross at DR %{{y:.1f}}<extra></extra>",
        )
    fig.update_layout(
        title={"text": f"{title}<br><sub>{projection_words(projection)}</sub>"},
        margin={**MARGIN, "t": 80},
        legend=LEGEND,
        hovermode="closest",
        yaxis_title="DR",
    )
    fig.update_yaxes(range=RATING_RANGE)
    return fig
