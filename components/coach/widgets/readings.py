"""The Coach tabs that read one lookup: Analyze, Diagnose, Actions, Track and Explain.

They mirror ``rules.diagnosis`` and ``rules.actions``: what is wrong, why, what to do in which
order, and whether the weekly changes show it working. None of them calls the API beyond the lookup
(the Actions tab's keyword opportunities read only the history and the app's cache).
"""

from __future__ import annotations

import streamlit as st

from analysis.coach import rules as coach
from analysis.coach.charts import impact_effort_chart, scores_chart
from analysis.coach.frames import actions_frame, reasons_frame, track_frame
from analysis.overview.charts import changes_chart
from analysis.overview.frames import changes_frame
from analysis.text import escape_md
from analysis.wording import NOT_AVAILABLE
from client.models import Lookup
from components.coach.widgets.opportunities import opportunity_actions
from components.coach.widgets.pieces import (
    LIFT_COLUMNS,
    STATUS_BADGE,
    action_card,
    change_text,
    issue_callout,
    score_text,
    show_evidence,
)
from components.core.cache import data
from components.core.cache.connection import Connection
from components.core.ui.tables import table_with_export

#: The ranking at a glance, narrow enough to fit the page at 1280 px: why each action helps, its
#: heuristic impact and what it rests on are long sentences, so they read in full in the action cards
#: under the table (and are in the raw CSV), not cut off in a column scrolled out of sight.
ACTION_COLUMNS = {
    "rank": st.column_config.NumberColumn("#", format="%d", width=36),
    "action": st.column_config.TextColumn("Action"),
    "priority": st.column_config.NumberColumn(
        "Priority", width="small", help="Impact + effort bonus + confidence bonus"
    ),
    "impact_score": st.column_config.ProgressColumn(
        "Impact", min_value=0, max_value=10, format="%d", width=90, help="Heuristic, 0 to 10"
    ),
    "effort": st.column_config.TextColumn("Effort", width="small"),
    "confidence": st.column_config.TextColumn("Confidence", width=90),
    **LIFT_COLUMNS,
    "impact": st.column_config.TextColumn("Heuristic impact"),
    "heuristic": st.column_config.CheckboxColumn("Heuristic"),
    "why": st.column_config.TextColumn("Why"),
    "based_on": st.column_config.TextColumn("Based on"),
    # API fields and CLI steps are in the "Data used" detail and the raw CSV, not in the way here.
    "data": None,
    "cli": None,
}
ACTION_ORDER = ["rank", "action", "priority", "impact_score", "effort", "confidence", *LIFT_COLUMNS]
#: The evidence at a glance: each signal, its verdict, its value and the rule it is judged by. What it
#: means and what it rests on read in full in the cards above the table (and are in the raw CSV).
REASON_COLUMNS = {
    "signal": st.column_config.TextColumn("Signal", pinned=True),
    "status": st.column_config.TextColumn("Verdict", width="small"),
    "value": st.column_config.TextColumn("Evidence"),
    "threshold": st.column_config.TextColumn("Rule"),
    "finding": st.column_config.TextColumn("What it means"),
    "based_on": st.column_config.TextColumn("Based on"),
    "data": None,
}
REASON_ORDER = ["signal", "status", "value", "threshold"]
TRACK_COLUMNS = {
    "metric": st.column_config.TextColumn("Metric"),
    "weekly": st.column_config.NumberColumn("Weekly change", format="%+.1f"),
    "monthly": st.column_config.NumberColumn("Monthly change", format="%+.1f"),
}


def analyze_tab(lookup: Lookup, domain: str) -> None:
    """DR, TrueDR and the gap, the main issue, the scores chart and the top three actions."""
    result = coach.analyze(lookup)
    left, right = st.columns([2, 3])
    with left:
        cols = st.columns(3)
        cols[0].metric("DR", score_text(result.dr), border=True)
        cols[1].metric("TrueDR", score_text(result.true_dr), border=True)
        cols[2].metric(
            "Gap",
            NOT_AVAILABLE if result.gap is None else f"{result.gap:+d}",
            help=f"TrueDR − DR, rounded. {coach.INFLATED_GAP} or lower means DR outruns its evidence.",
            border=True,
        )
        issue_callout(result.issue)
        show_evidence(result.issue.sources)
    with right:
        st.plotly_chart(data.figure(scores_chart, result), key="coach_scores_chart")
    st.markdown("#### Top actions")
    for rank, action in enumerate(result.top_actions, start=1):
        action_card(action, rank, domain, "Analyze")


def diagnose_tab(lookup: Lookup, domain: str) -> None:
    """The main issue and one card per signal, each judged against its rule, then the same as a table."""
    result = coach.diagnose(lookup)
    issue_callout(result.issue)
    st.markdown("#### Why, with the public evidence")
    cols = st.columns(2)
    for i, reason in enumerate(result.reasons):
        label, colour, icon = STATUS_BADGE[reason.status]
        with cols[i % 2].container(border=True):
            st.markdown(f"**{escape_md(reason.signal)}: {escape_md(reason.value)}**")
            st.badge(label, color=colour, icon=icon)
            st.markdown(escape_md(reason.finding))
            st.caption(f"Rule: {escape_md(reason.threshold)}")
            show_evidence(reason.sources)
    with st.expander("The evidence as a table"):
        table_with_export(
            reasons_frame(result),
            what="coach-diagnosis",
            subject=domain,
            key="diagnosis",
            column_config=REASON_COLUMNS,
            column_order=REASON_ORDER,
            narrowed_to_fit=True,
        )
    st.markdown(f"**Next:** {escape_md(result.first_action.title)}")


def actions_tab(conn: Connection, lookup: Lookup, domain: str) -> None:
    """Every applicable action, ranked as the CLI ranks them, as a chart and a table; then, for one of
    your own sites, its keywords worth the most clicks (the Opportunities page's list, no call spent)."""
    actions = coach.ranked_actions(lookup)
    frame = actions_frame(actions, domain)
    bonus = ", ".join(f"{effort} {points}" for effort, points in coach.EFFORT_BONUS.items())
    st.caption(
        f"Ranked by priority = impact score + effort bonus ({bonus}) + {coach.HIGH_CONFIDENCE_BONUS} for "
        "high confidence, as the vdr CLI ranks them. Impacts are heuristic estimates, not service data."
    )
    st.plotly_chart(data.figure(impact_effort_chart, frame), key="coach_actions_chart")
    table_with_export(
        frame,
        what="coach-actions",
        subject=domain,
        key="actions",
        column_config=ACTION_COLUMNS,
        column_order=ACTION_ORDER,
        narrowed_to_fit=True,
    )
    st.markdown("#### Keywords worth pushing")
    opportunity_actions(conn, domain)
    st.markdown("#### Each action in full")
    for rank, action in enumerate(actions, start=1):
        action_card(action, rank, domain, "Actions")


def track_tab(lookup: Lookup, domain: str) -> None:
    """This week's changes, the CLI's verdict, what the monthly changes add, and the next action."""
    report = coach.track(lookup)
    cols = st.columns(3)
    cols[0].metric("TrueDR this week", change_text(report.true_dr_weekly, 1), border=True)
    cols[1].metric("DR this week", change_text(report.dr_weekly, 1), border=True)
    cols[2].metric(
        "Traffic this week", change_text(report.traffic_change), help="Change in visits.", border=True
    )
    box = st.success if report.improving else st.info
    box(f"**Verdict:** {escape_md(report.verdict)}", icon=":material/monitoring:")
    for note in report.observations:
        st.markdown(f"- {escape_md(note)}")
    st.plotly_chart(data.figure(changes_chart, changes_frame(lookup)), key="coach_track_chart")
    with st.expander("The changes as a table"):
        table_with_export(
            track_frame(report), what="coach-track", subject=domain, key="track", column_config=TRACK_COLUMNS
        )
    st.caption(
        "These are the service's own weekly and monthly changes; the app keeps no history of its own yet. "
        f"Next: {escape_md(report.next_action.title)}."
    )
    show_evidence(report.sources)


def explain_tab(lookup: Lookup) -> None:
    """The plain paragraph for a client or founder, in a box with a copy button."""
    st.write("A paragraph for a client or founder. Copy it with the button at the top right of the box.")
    st.code(coach.explain(lookup), language=None, wrap_lines=True)
    show_evidence((*coach.GAP_SOURCES, coach.SRC_RULES))
