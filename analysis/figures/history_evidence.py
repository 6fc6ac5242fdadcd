"""An alert's evidence on the History page: what its Chart link asks for, and the "before" and "after"
points marked on a chart. Pure: no Streamlit.

An alert's link (``analysis.links``) carries the window it is about (from the day before the
rule's earlier snapshot to the alert's day), the earlier snapshot's day (the "before" point; the alert's
day is the "after" point), the metric of a domain chart, a Trust Map alert's referring domain and the
site a keyword is measured for. ``read_link`` turns those query parameters into ``LinkedEvidence``
(a malformed day is ignored, never an error); the chart builders draw the usual History chart and mark
the two points on the line that moved, each with its own marker and a hover saying "before" / "after".
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from typing import NamedTuple

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from analysis.figures.history_charts import gap_chart, metric_trend_chart, rank_chart, ratings_trend_chart
from analysis.figures.history_frames import TREND_METRICS, with_days
from analysis.links import BEFORE_PARAM, FROM_PARAM, METRIC_PARAM, REFERRING_PARAM, TO_PARAM

#: A yes/no an alert is about -> (the line its points sit on, how each value reads).
FLAGS: dict[str, tuple[str, dict[bool, str]]] = {
    "traffic_validated": ("traffic", {True: "traffic validated", False: "traffic not validated"}),
    "verified": ("dr", {True: "verified", False: "not verified"}),
}
#: What the "Also over time" chart can show (the others are on the DR and TrueDR chart).
OTHER_METRICS = ("traffic", "referring_domains", "trust_score")
BEFORE, AFTER = "before", "after"
#: Marker and colour of each point: distinct shapes, readable on a light and a dark background.
MARKERS = {BEFORE: ("diamond-open", "#8c8c8c"), AFTER: ("star", "#d64545")}


def _day(text: str | None) -> date | None:
    try:
        return date.fromisoformat(text) if text else None
    except ValueError:
        return None


@dataclass(frozen=True)
class LinkedEvidence:
    """What a link asks the page to show: the window ``start``–``end`` (``end`` is the "after" day),
    the ``before`` day, a domain chart's ``metric`` and a Trust Map alert's ``referring_domain``."""

    start: date | None = None
    end: date | None = None
    before: date | None = None
    metric: str | None = None
    referring_domain: str | None = None

    @property
    def window(self) -> tuple[date, date] | None:
        """The window to show (from the earliest day it names), None when the link names none."""
        if self.end is None:
            return None
        first = min(d for d in (self.start, self.before, self.end) if d is not None)
        return first, self.end


def read_link(params: Mapping[str, str]) -> LinkedEvidence:
    """The evidence a link's query parameters carry (nothing for a link that carries none)."""
    metric = params.get(METRIC_PARAM) or None
    return LinkedEvidence(
        start=_day(params.get(FROM_PARAM)),
        end=_day(params.get(TO_PARAM)),
        before=_day(params.get(BEFORE_PARAM)),
        metric=metric if metric in TREND_METRICS or metric in FLAGS else None,
        referring_domain=(params.get(REFERRING_PARAM) or "").strip().lower() or None,
    )


def in_window(rows: pd.DataFrame, end: date | None) -> pd.DataFrame:
    """The rows up to ``end`` (all of them without one); the store's query already starts the window."""
    if end is None or rows.empty:
        return rows
    return rows[pd.to_datetime(rows["day"]) <= pd.Timestamp(end)].reset_index(drop=True)


def chart_line(metric: str) -> str:
    """The line an alert's ``metric`` is marked on (a yes/no sits on the line it is about)."""
    return FLAGS[metric][0] if metric in FLAGS else metric


class Marks(NamedTuple):
    """The two points to mark: on ``subject``'s line (a domain or a keyword) of ``metric``."""

    subject: str
    metric: str
    before: date | None
    after: date


def _on_day(rows: pd.DataFrame, day: date) -> pd.Series | None:
    """The row of ``day``, or the latest before it (the snapshot the rule compared with)."""
    frame = with_days(rows)
    earlier = frame[frame["day"] <= pd.Timestamp(day)]
    return None if earlier.empty else earlier.iloc[-1]


def _number(value: object) -> float | None:
    number = pd.to_numeric(pd.Series([value]), errors="coerce").iloc[0]
    return None if pd.isna(number) else float(number)


def evidence_points(rows: pd.DataFrame, marks: Marks, column: str) -> pd.DataFrame:
    """The before and after points: their day, value on ``column`` (NaN: none that day) and words.

    ``rows`` are one subject's (a domain's or a keyword's); ``marks.metric`` names a yes/no when the
    alert is about one, and then its value is said too ("before: verified, DR 91 on Dec 16, 2024").
    """
    points = []
    for label, day in ((BEFORE, marks.before), (AFTER, marks.after)):
        row = None if day is None or rows.empty else _on_day(rows, day)
        if row is None:
            continue
        value = _number(row[column])
        said = _said(column, value)
        if marks.metric in FLAGS and marks.metric in row.index and not pd.isna(row[marks.metric]):
            said = f"{FLAGS[marks.metric][1][bool(row[marks.metric])]}, {said}"
        points.append((label, row["day"], np.nan if value is None else value, f"{label}: {said}"))
    return pd.DataFrame(points, columns=["label", "day", "value", "words"])


def _said(column: str, value: float | None) -> str:
    if column == "position":
        return "not ranking" if value is None else f"#{value:g}"
    label = TREND_METRICS.get(column, column)
    return f"{label} {'not recorded' if value is None else f'{value:,.0f}'}"


def mark_points(fig: go.Figure, points: pd.DataFrame, missing_y: float | None = None, **cell: int) -> None:
    """Each point as its own marker ("before", "after"), its words on hover. A point without a value
    (a keyword out of the results) sits at ``missing_y`` when given, else is left off."""
    for point in points.itertuples():
        y = point.value if not pd.isna(point.value) else missing_y
        if y is None:
            continue
        symbol, colour = MARKERS[point.label]
        fig.add_scatter(
            x=[point.day],
            y=[y],
            mode="markers+text",
            marker={"symbol": symbol, "size": 18, "color": colour, "line": {"width": 2, "color": colour}},
            text=[point.label],
            textposition="bottom center" if point.label == BEFORE else "top center",
            name=point.label.capitalize(),
            legendgroup="evidence",
            customdata=[point.words],
            cliponaxis=False,  # a point at the chart's edge keeps its marker and its label whole
            hovertemplate="%{customdata} on %{x|%b %d, %Y}<extra></extra>",
            **({"row": cell["row"], "col": cell["col"]} if cell else {}),
        )


#: A window shorter than this is ticked once a day ("Dec 30"), never by the hour.
DAILY_TICKS_UNDER = pd.Timedelta(days=15)


def _ticked_by_day(fig: go.Figure, rows: pd.DataFrame) -> go.Figure:
    """An alert's short window ticked by day: plotly would tick a three-day window every six hours."""
    days = pd.to_datetime(rows["day"]) if not rows.empty else pd.Series(dtype="datetime64[ns]")
    if not days.empty and days.max() - days.min() < DAILY_TICKS_UNDER:
        fig.update_xaxes(dtick=86_400_000, tickformat="%b %d")
    return fig


def _subject_rows(history: pd.DataFrame, column: str, subject: str) -> pd.DataFrame:
    return history[history[column].astype(str) == subject] if not history.empty else history


def ratings_with_evidence(
    history: pd.DataFrame,
    moves: pd.DataFrame,
    order: list[str] | None,
    marks: Marks | None,
    markers: pd.DataFrame | None = None,
) -> go.Figure:
    """The DR and TrueDR chart with the alert's two points on its domain's line of ``marks.metric``
    (and the notes on its days, ``markers``)."""
    fig = ratings_trend_chart(history, moves, order, markers)
    if marks is None or history.empty:
        return fig
    line = chart_line(marks.metric)
    if line not in ("dr", "true_dr"):
        return _ticked_by_day(fig, history)
    points = evidence_points(_subject_rows(history, "domain", marks.subject), marks, line)
    several = len(set(history["domain"].astype(str))) > 1
    cell = {"row": 1, "col": 1 if line == "dr" else 2} if several else {}
    mark_points(fig, points, **cell)
    return _ticked_by_day(fig, history)


def metric_with_evidence(
    history: pd.DataFrame,
    metric: str,
    order: list[str] | None,
    marks: Marks | None,
    markers: pd.DataFrame | None = None,
) -> go.Figure:
    """The "Also over time" chart of ``metric`` with the alert's two points on its domain's line."""
    fig = metric_trend_chart(history, metric, order, markers)
    if marks is None or history.empty:
        return fig
    if chart_line(marks.metric) == metric:
        mark_points(fig, evidence_points(_subject_rows(history, "domain", marks.subject), marks, metric))
    return _ticked_by_day(fig, history)


def rank_with_evidence(
    rows: pd.DataFrame, keywords: list[str], marks: Marks | None, markers: pd.DataFrame | None = None
) -> go.Figure:
    """Positions over time with the alert's keyword's two positions marked; a position out of the
    results sits at the foot of the chart, its hover saying "not ranking" (and the notes, ``markers``)."""
    fig = rank_chart(rows, keywords, markers)
    if marks is None or rows.empty or marks.subject not in keywords:
        return fig
    axis = fig.layout.yaxis.range
    foot = float(axis[0]) - 0.5 if axis is not None else None  # just inside the chart's bottom edge
    mark_points(fig, evidence_points(_subject_rows(rows, "keyword", marks.subject), marks, "position"), foot)
    return _ticked_by_day(fig, rows)


def gap_in_window(
    rows: pd.DataFrame, keywords: list[str], marks: Marks | None, markers: pd.DataFrame | None = None
) -> go.Figure:
    """The gap chart, ticked by day over an alert's short window (it has no points to mark)."""
    fig = gap_chart(rows, keywords, markers)
    return fig if marks is None or rows.empty else _ticked_by_day(fig, rows)


def first_named(table: pd.DataFrame, referring_domain: str | None) -> pd.DataFrame:
    """A churn table with the alert's referring domain's rows first (where a person looks)."""
    if referring_domain is None or table.empty:
        return table
    named = table["referring_domain"].astype(str).str.lower() == referring_domain
    return pd.concat([table[named], table[~named]], ignore_index=True)
