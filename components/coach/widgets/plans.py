"""The Coach tabs that plan the weeks ahead: Content plan, Fix (a 90-day plan toward a goal) and Boost.

They mirror ``rules.plans``; every lift or outlook they show is a heuristic and is marked so.
"""

from __future__ import annotations

import streamlit as st

from analysis.coach import rules as coach
from analysis.coach.charts import plan_chart
from analysis.coach.frames import plan_frame
from analysis.text import escape_md
from client.models import Lookup
from components.coach.widgets.pieces import LIFT_COLUMNS, heuristic_note, score_text, show_evidence
from components.core.cache import data
from components.core.ui.tables import table_with_export

#: The goal input's bounds: TrueDR is 0–100, and a 90-day plan past +50 is not a plan.
MAX_GOAL = 50

#: The plan at a glance, narrow enough to fit the page at 1280 px: how each step is done is a long
#: sentence, so it reads in full under the table (and is in the raw CSV), not cut off in a column.
PLAN_COLUMNS = {
    "days": st.column_config.TextColumn("When", pinned=True),
    "step": st.column_config.TextColumn("Step"),
    "detail": st.column_config.TextColumn("How"),
    **LIFT_COLUMNS,
    "heuristic": st.column_config.CheckboxColumn("Heuristic"),
}
PLAN_ORDER = ["days", "step", *LIFT_COLUMNS]


def content_plan_tab(lookup: Lookup) -> None:
    """The pages to write, the one answering the weakest signal marked as the place to start."""
    plan = coach.content_plan(lookup)
    st.markdown(escape_md(plan.lead))
    for item in plan.items:
        with st.container(border=True):
            pages = "one page" if item.count == 1 else f"{item.count} pages"
            start = " :green-badge[Start here]" if item.start_here else ""
            st.markdown(f"**{escape_md(item.title)}** ({pages}){start}")
            heuristic_note(item.impact)
            st.markdown(escape_md(item.why))
            show_evidence(item.sources)
    st.caption("Track the effect in the Track tab: TrueDR and traffic changes show whether the pages work.")


def fix_tab(lookup: Lookup, domain: str) -> None:
    """A goal input (kept in the URL) and the 30/60/90-day plan toward it, as a timeline and a table."""
    goal = st.number_input(
        "TrueDR goal (points to gain in 90 days)",
        min_value=1,
        max_value=MAX_GOAL,
        value=coach.DEFAULT_GOAL,
        step=1,
        key="goal",
        bind="query-params",
    )
    plan = coach.fix_plan(lookup, int(goal or coach.DEFAULT_GOAL))
    cols = st.columns(3)
    cols[0].metric("TrueDR now", score_text(plan.true_dr), border=True)
    cols[1].metric("Target TrueDR", score_text(plan.target), f"+{plan.goal}", border=True)
    cols[2].metric(
        "Estimated lift of the plan",
        f"+{plan.lift[0]} to +{plan.lift[1]}",
        border=True,
        help="Heuristic: the sum of the three steps' estimated TrueDR lifts, if each lands.",
    )
    heuristic_note(plan.outlook)
    frame = plan_frame(plan)
    st.plotly_chart(data.figure(plan_chart, frame), key="coach_plan_chart")
    table_with_export(
        frame.drop(columns=["start_day", "end_day"]),
        what="coach-90-day-plan",
        subject=domain,
        key="plan",
        column_config=PLAN_COLUMNS,
        column_order=PLAN_ORDER,
        narrowed_to_fit=True,
    )
    st.markdown(
        "\n".join(
            f"- **{escape_md(phase.label)} · {escape_md(phase.title)}:** {escape_md(phase.detail)}"
            for phase in plan.phases
        )
    )
    show_evidence(plan.sources)


def boost_tab(lookup: Lookup, domain: str) -> None:
    """The top actions as one campaign, padded with a partner-links idea when fewer than four apply."""
    campaign = coach.boost(lookup)
    st.markdown("#### Recommended campaign")
    st.markdown("\n".join(f"{i}. {escape_md(step)}" for i, step in enumerate(campaign.steps, start=1)))
    if campaign.padded:
        st.caption("Fewer than four actions apply to this site, so the campaign adds a partner-links idea.")
    heuristic_note(campaign.result)
    st.markdown(f"**Start with:** {escape_md(campaign.start_with.title)}")
    show_evidence(campaign.sources, campaign.start_with.cli_for(domain))
