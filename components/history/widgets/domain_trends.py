"""The History page's Domain trends tab: DR and TrueDR of your site beside its competitors over a
period, the largest moves ringed, trust / traffic / referring domains, and the week-over-week table.
An alert's Chart link opens it on the alert's domain, window and metric, its before and after marked
(``alert_window``)."""

from __future__ import annotations

from datetime import date

import pandas as pd
import streamlit as st

from analysis.figures import history_evidence as evidence
from analysis.figures import history_frames as frames
from analysis.links import DOMAIN_PARAM
from analysis.text import escape_md
from analysis.wording import SIGNED_WHOLE_FORMAT
from client.errors import InvalidInputError
from components.core.cache import data
from components.core.cache.connection import Connection
from components.core.history.source import HistorySource
from components.core.ui.tables import table_with_export
from components.history.widgets import alert_window
from components.history.widgets.notes import chart_markers
from components.history.widgets.pieces import domain_choices, linked, one_day_note, watch_controls

PERIOD_KEY = "history_period"
#: The domain the last alert link named (the one its marks are on).
LINKED_DOMAIN = "_history_alert_domain"
#: Side by side, more lines than this stop being readable.
MAX_DOMAINS = 8
OTHER_METRICS = {"traffic": "Traffic", "referring_domains": "Referring domains", "trust_score": "Trust"}
WEEKLY_COLUMNS = {
    "domain": st.column_config.TextColumn("Domain", pinned=True),
    "week_ending": st.column_config.DateColumn(
        "Week to", format="YYYY-MM-DD", help="Weeks end on Sunday; the week under way, on its latest day."
    ),
    "dr": st.column_config.NumberColumn("DR", format="%d"),
    "dr_change": st.column_config.NumberColumn("DR Δ", format="%+g"),
    "true_dr": st.column_config.NumberColumn("TrueDR", format="%d"),
    "true_dr_change": st.column_config.NumberColumn("TrueDR Δ", format="%+g"),
    "trust_score": st.column_config.NumberColumn("Trust", format="%d"),
    "trust_score_change": st.column_config.NumberColumn("Trust Δ", format="%+g"),
    "traffic": st.column_config.NumberColumn("Traffic", format="localized"),
    "traffic_change": st.column_config.NumberColumn("Traffic Δ", format=SIGNED_WHOLE_FORMAT),
    "referring_domains": st.column_config.NumberColumn("Referring domains", format="localized"),
    "referring_domains_change": st.column_config.NumberColumn("Ref. domains Δ", format=SIGNED_WHOLE_FORMAT),
}
#: What the table shows: trust is left off so the table fits a 1280 px page (the "Also over time" chart
#: draws it, and the CSV keeps it).
WEEKLY_SHOWN = [c for c in WEEKLY_COLUMNS if not c.startswith("trust_score")]


def _valid_domain(asked: str | None) -> str | None:
    try:
        return data.domain(asked) if asked else None
    except InvalidInputError:
        return None


def _choices(source: HistorySource, own: dict[str, str], taken: str | None) -> tuple[list[str], list[str]]:
    """The domains to pick from (a domain linked from another page first) and the ones picked at first:
    your first site and up to three watched domains; an alert's link (``taken``) picks its domain alone
    every time it is followed."""
    choices, mine = domain_choices(source, own)
    asked = _valid_domain(linked("domain", "domains")) or taken
    if asked and asked not in choices:
        choices.insert(0, asked)
    if asked:
        st.session_state["history_domains"] = [asked]
    default = [d for d in choices if d in mine][:1] + [d for d in choices if d not in mine][:3]
    return choices, default or choices[:1]


def moves_caption(moves: pd.DataFrame) -> str:
    """What the rings on the DR / TrueDR chart mark, or that no week moved enough to be marked."""
    if moves.empty:
        return (
            f"No week moved DR or TrueDR by {frames.MIN_MOVE} points or more in this period, so nothing "
            "is ringed: a point either way is usually rounding."
        )
    return (
        f"Ringed: the largest week-over-week moves of {frames.MIN_MOVE} points or more (each line's "
        "largest): "
        + "; ".join(
            f"{m.domain} {frames.TREND_METRICS[m.metric]} {m.change:+g} in the week to {m.day:%b %d}"
            for m in moves.itertuples()
        )
        + "."
    )


def _take_link() -> str | None:
    """An alert's link, the first time it is followed: its domain (the one to show alone), and its
    metric chosen in "Also over time" when it is one of those."""
    taken = alert_window.take_link(PERIOD_KEY)
    if taken is None:
        return None
    domain = _valid_domain(st.query_params.get(DOMAIN_PARAM))
    st.session_state[LINKED_DOMAIN] = domain
    line = evidence.chart_line(taken.metric) if taken.metric else None
    if line in OTHER_METRICS:
        st.session_state["history_metric"] = line
    return domain


def _marks(selected: list[str]) -> evidence.Marks | None:
    """The alert's points to mark, while its window is shown and its domain is among those picked."""
    shown = alert_window.active(PERIOD_KEY)
    domain = st.session_state.get(LINKED_DOMAIN)
    if shown is None or shown.end is None or shown.metric is None or domain not in selected:
        return None
    return evidence.Marks(str(domain), shown.metric, shown.before, shown.end)


def _marks_caption(rows: pd.DataFrame, marks: evidence.Marks) -> None:
    line = evidence.chart_line(marks.metric)
    domain_rows = rows[rows["domain"].astype(str) == marks.subject]
    points = evidence.evidence_points(domain_rows, marks, line)
    alert_window.marks_caption(points, f"{marks.subject}'s {frames.TREND_METRICS[line]}")


def domain_trends_tab(conn: Connection, source: HistorySource, own: dict[str, str], today: date) -> None:
    choices, default = _choices(source, own, _take_link())
    if not choices:
        st.info(
            "Nothing is watched yet. Add your competitors on the Watchlist tab, or press Watch on the "
            "Domain overview or the Trust Map.",
            icon=":material/visibility:",
        )
        return
    left, right = st.columns([3, 2], vertical_alignment="bottom")
    selected = left.multiselect(
        "Domains",
        choices,
        default=default,
        key="history_domains",
        max_selections=MAX_DOMAINS,
        help="Your sites and the domains you watch; pick several to see them side by side.",
    )
    with right:
        since, until = alert_window.period_or_window(PERIOD_KEY, today)
    if not selected:
        st.caption("Pick one or more domains.")
        return
    watched_domains = {s for kind, s, *_ in source.watch_items() if kind == "domain"} | set(own)
    for domain in [d for d in selected if d not in watched_domains][:2]:
        st.caption(f"{escape_md(domain)} is not watched: nothing new is kept for it.")
        watch_controls(conn, "domain", domain, key=f"history_watch_{domain}")
    rows = evidence.in_window(source.domain_history(selected, since), until)
    if rows.empty:
        when = "in this period" if since is not None else "so far"
        st.info(
            f"Nothing recorded for {escape_md(', '.join(selected))} {when}. A watched domain gets a row "
            "each day the snapshot job runs or someone opens it in the app.",
            icon=":material/hourglass_empty:",
        )
        return
    moves = frames.largest_moves(rows, n=5)
    marks = _marks(selected)
    markers = chart_markers(
        source, key="history_ratings", since=since, until=until or today, subjects=selected
    )
    st.plotly_chart(
        data.figure(evidence.ratings_with_evidence, rows, moves, selected, marks, markers),
        key="history_ratings",
    )
    st.caption(moves_caption(moves))
    if marks is not None and evidence.chart_line(marks.metric) in frames.RATINGS:
        _marks_caption(rows, marks)
    one_day_note(rows, lambda: source.domain_history(selected, None))
    metric = (
        st.segmented_control(
            "Also over time",
            list(OTHER_METRICS),
            format_func=OTHER_METRICS.__getitem__,
            default="traffic",
            required=True,
            key="history_metric",
        )
        or "traffic"
    )
    others = chart_markers(
        source, key="history_metric_chart", since=since, until=until or today, subjects=selected
    )
    st.plotly_chart(
        data.figure(evidence.metric_with_evidence, rows, metric, selected, marks, others),
        key="history_metric_chart",
    )
    if marks is not None and evidence.chart_line(marks.metric) == metric:
        _marks_caption(rows, marks)
    st.markdown("**Week over week**")
    table_with_export(
        frames.week_over_week(rows),
        what="domain-history-weekly",
        subject=selected[0] if len(selected) == 1 else None,
        key="history_weekly",
        column_config=WEEKLY_COLUMNS,
        column_order=WEEKLY_SHOWN,
        narrowed_to_fit=True,
    )
    st.caption(
        "Each week's last recorded value (weeks end on Sunday; the week under way on its latest day) and "
        "its change (Δ) since the week before."
    )
