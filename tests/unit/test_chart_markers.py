"""What the charts mark (``analysis.market.markers``): Google's shipped updates, the days a group's keywords
changed, which notes a chart shows; and how a marker is drawn (``analysis.figures.markers``)."""

from __future__ import annotations

from datetime import date, timedelta

import pandas as pd
import plotly.graph_objects as go

from analysis.figures.markers import add_markers
from analysis.market import DEFAULT_CTR
from analysis.market.figures import market_sums
from analysis.market.markers import (
    MARKER_COLUMNS,
    google_updates,
    keyword_set_markers,
    markers_for,
    note_markers,
)

DAY = date(2026, 5, 4)


def _top10s(days: dict[date, list[str]]) -> pd.DataFrame:
    rows = [
        (pd.Timestamp(day), keyword, 1, "x.com", 50) for day, keywords in days.items() for keyword in keywords
    ]
    top10s = pd.DataFrame(rows, columns=["day", "keyword", "position", "domain", "dr"])
    return market_sums(top10s, DEFAULT_CTR)[1]  # each day's keywords, and how many the day before had


def test_the_shipped_google_updates_have_a_name_a_span_and_a_source() -> None:
    updates = google_updates()
    assert len(updates) >= 10
    assert (updates["end_day"] >= updates["day"]).all()
    assert updates["link"].str.startswith("https://status.search.google.com/").all()
    assert updates["label"].str.contains("update").all()


def test_a_group_whose_keywords_change_by_more_than_a_tenth_is_marked_on_that_day() -> None:
    ten = [f"k{i}" for i in range(10)]
    top10s = _top10s({DAY: ten, DAY + timedelta(days=1): ten, DAY + timedelta(days=2): [*ten[:9], "new"]})
    markers = keyword_set_markers(top10s, "pricing")
    assert markers["day"].tolist() == [DAY + timedelta(days=2)]
    assert "1 keyword in, 1 out" in markers["text"].iloc[0]
    assert markers["keyword_group"].tolist() == ["pricing"]
    one_more = _top10s({DAY: ten, DAY + timedelta(days=1): [*ten, "k10"]})
    assert keyword_set_markers(one_more, "all").empty  # 1 of 11 is under a tenth


def test_a_chart_shows_the_notes_of_its_days_subjects_and_group() -> None:
    notes = pd.DataFrame(
        [
            (1, DAY, None, "note", "Everything", None, None, None, "ann"),
            (2, DAY, None, "note", "About a.com", "a.com", None, None, "ann"),
            (3, DAY, None, "note", "About pricing", None, "pricing", None, "ann"),
            (4, DAY - timedelta(days=40), None, "note", "Too early", None, None, None, "ann"),
            (5, DAY - timedelta(days=40), DAY, "google_update", "A long update", None, None, None, "ann"),
        ],
        columns=["id", "day", "end_day", "kind", "text", "subject", "keyword_group", "link", "created_by"],
    )
    markers = note_markers(notes)
    assert list(markers.columns) == list(MARKER_COLUMNS)
    since = DAY - timedelta(days=30)
    assert set(markers_for(markers, since, DAY, ["b.com"])["text"]) == {"Everything", "A long update"}
    assert set(markers_for(markers, since, DAY, ["a.com"], "pricing")["text"]) == {
        "Everything",
        "About a.com",
        "About pricing",
        "A long update",
    }


def test_a_marker_is_a_dotted_line_with_its_note_as_inert_hover_text() -> None:
    markers = note_markers(
        pd.DataFrame(
            [
                (
                    1,
                    DAY,
                    DAY + timedelta(days=3),
                    "google_update",
                    "<a href=x>update</a>",
                    None,
                    None,
                    None,
                    "ann",
                )
            ],
            columns=[
                "id",
                "day",
                "end_day",
                "kind",
                "text",
                "subject",
                "keyword_group",
                "link",
                "created_by",
            ],
        )
    )
    fig = add_markers(go.Figure(go.Scatter(x=[DAY], y=[1])), markers)
    assert len(fig.layout.shapes) == 2  # the span and the line on its first day
    (annotation,) = fig.layout.annotations
    assert "&lt;a href=x&gt;" in annotation.hovertext and "<a" not in annotation.hovertext
    assert annotation.hovertext.startswith("Google update, May 04, 2026 – May 07, 2026")


def test_each_kind_of_marker_has_one_legend_entry_in_its_colour_and_draws_nothing() -> None:
    notes = pd.DataFrame(
        [
            (1, DAY, None, "note", "Launch", None, None, None, "ann"),
            (2, DAY + timedelta(days=2), None, "note", "Relaunch", None, None, None, "ann"),
            (3, DAY, DAY + timedelta(days=3), "google_update", "Core update", None, None, None, "ann"),
        ],
        columns=["id", "day", "end_day", "kind", "text", "subject", "keyword_group", "link", "created_by"],
    )
    fig = add_markers(go.Figure(go.Scatter(x=[DAY], y=[1], name="DR")), note_markers(notes))
    keys = {trace.name: trace for trace in fig.data if trace.name != "DR"}
    assert list(keys) == ["Note", "Google update"]
    assert keys["Note"].line.dash == "dot" and keys["Note"].line.color == "#e377c2"
    assert all(list(trace.y) == [None] and trace.showlegend for trace in keys.values())
