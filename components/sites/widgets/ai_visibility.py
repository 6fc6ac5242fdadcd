"""The AI visibility page's Streamlit parts: the summary cards over the tabs, one renderer per tab
(Overview, Answers, Competitors, Sources, Questions) and the question writes the Questions tab sends.

Every write reports in the page's one flash slot (``SLOT``), shown above the summary.
"""

from __future__ import annotations

from datetime import UTC, datetime

import streamlit as st

from analysis.sites.charts import brands_chart, history_chart, platforms_chart
from analysis.sites.frames.visibility import (
    answered_text,
    answers_frame,
    brands_frame,
    history_frame,
    next_run_text,
    outreach_frame,
    platforms_frame,
    questions_frame,
    score_change_text,
    score_text,
    sources_frame,
)
from analysis.text import escape_md
from client.growth_inputs import MAX_LOCATION_CHARS, PROMPT_MAX_CHARS, PROMPT_MIN_CHARS
from client.visibility_models import AiVisibility
from components.core.auth import access
from components.core.cache import data
from components.core.cache.connection import Connection
from components.core.ui.tables import score_column, table_with_export
from components.core.writes.writes import WriteOutcome, flash
from components.sites.widgets import writes as site_writes

#: The flash slot every write of the page reports in.
SLOT = "ai_write"
TAB_KEY = "ai_tab"


def _done(outcome: WriteOutcome) -> None:
    flash(SLOT, outcome)


def _add(conn: Connection, domain: str) -> None:
    outcome = site_writes.add_ai_prompt(
        conn, domain, st.session_state.get("ai_prompt", ""), st.session_state.get("ai_location") or None
    )
    if outcome.ok:
        st.session_state["ai_prompt"] = ""
    _done(outcome)


def _remove(conn: Connection, domain: str, prompt_id: str, question: str) -> None:
    _done(site_writes.remove_ai_prompt(conn, domain, prompt_id, question))


def _reset(conn: Connection, domain: str) -> None:
    _done(site_writes.reset_ai_prompts(conn, domain))


def _run(conn: Connection, domain: str) -> None:
    _done(site_writes.run_ai_visibility(conn, domain))


def summary(view: AiVisibility) -> None:
    """The score, the answers that mention you, the questions tracked and the next run, as cards."""
    cols = st.columns(4)
    cols[0].metric(
        "AI-visibility score",
        score_text(view),
        score_change_text(view),
        border=True,
        help="Share of answers (0–100) that mention your site; the change is since the previous run.",
        delta_description="since the last run",
    )
    cols[1].metric("Answers mentioning you", answered_text(view), border=True)
    cols[2].metric("Questions tracked", len(view.prompts), border=True)
    cols[3].metric("Next weekly run", next_run_text(view.next_refresh_at, datetime.now(UTC)), border=True)
    if view.status != "ready" or view.snapshot is None:
        st.info(
            "No run yet: the questions have not been asked. Start a run in the Questions tab.",
            icon=":material/hourglass_top:",
        )


def overview_tab(view: AiVisibility) -> None:
    left, right = st.columns(2)
    with left:
        st.plotly_chart(data.figure(platforms_chart, platforms_frame(view)), key="ai_platforms")
    with right:
        st.plotly_chart(data.figure(history_chart, history_frame(view)), key="ai_history")


def answers_tab(view: AiVisibility, domain: str) -> None:
    st.caption("Per tracked question: on how many assistants your site was mentioned in the latest run.")
    table_with_export(
        questions_frame(view),
        what="ai-questions",
        subject=domain,
        key="ai_questions",
        column_config={
            "question": st.column_config.TextColumn("Question", width="large"),
            "mentioned_in": st.column_config.NumberColumn("Mentioned in"),
            "asked_on": st.column_config.NumberColumn("Asked on"),
            "source": "Source",
            "location": "Location",
            "id": None,
        },
    )
    st.caption(
        "Every answer: the brands it named (in order) and the sites it cited. Double-click a cell to read "
        "it in full."
    )
    table_with_export(
        answers_frame(view),
        what="ai-answers",
        subject=domain,
        key="ai_answers",
        # Widths that fit a laptop-wide page; the questions are in full in the table above.
        column_config={
            "question": st.column_config.TextColumn("Question", width=200),
            "platform": "Assistant",
            "mentioned": st.column_config.CheckboxColumn("Mentions you"),
            "position": st.column_config.NumberColumn(
                "Your place", help="Where your brand came in the answer."
            ),
            "brands": st.column_config.TextColumn("Brands named", width=170),
            "cited_domains": st.column_config.TextColumn("Sites cited", width=150),
        },
    )


def competitors_tab(view: AiVisibility, domain: str) -> None:
    frame = brands_frame(view)
    st.plotly_chart(data.figure(brands_chart, frame), key="ai_brands")
    table_with_export(
        frame,
        what="ai-brands",
        subject=domain,
        key="ai_brands_table",
        column_config={
            "brand": "Brand",
            "domain": "Domain",
            "mentions": "Mentions",
            "share": st.column_config.NumberColumn("Share of answers", format="%.1f%%"),
            "yours": st.column_config.CheckboxColumn("Yours"),
        },
    )


def sources_tab(view: AiVisibility, domain: str) -> None:
    # One above the other: side by side, the outreach table was wider than its half of the page.
    st.caption("Sites the assistants cite most.")
    table_with_export(
        sources_frame(view),
        what="ai-sources",
        subject=domain,
        key="ai_sources",
        column_config={"domain": "Cited site", "citations": "Citations"},
    )
    st.caption("Cited pages on other sites, with their ratings when known: outreach targets.")
    table_with_export(
        outreach_frame(view),
        what="ai-page-outreach",
        subject=domain,
        key="ai_outreach",
        column_config={
            "url": st.column_config.LinkColumn("Page", display_text=r"https?://(.*)"),
            "domain": "Site",
            "citations": "Citations",
            "dr": score_column("DR"),
            "true_dr": score_column("TrueDR"),
        },
    )


def questions_tab(conn: Connection, view: AiVisibility, domain: str) -> None:
    """The tracked questions with Remove, a form to add one, Run now and Reseed (writes, for editors)."""
    _, locked = access.write_permission()
    access.read_only_note(locked)
    with st.form("ai_add_form", border=True):
        st.text_input(
            "Track a question",
            key="ai_prompt",
            max_chars=PROMPT_MAX_CHARS,
            placeholder="What is the best privacy-friendly analytics tool?",
            help=f"{PROMPT_MIN_CHARS}–{PROMPT_MAX_CHARS} characters, asked the way a person asks.",
        )
        st.text_input(
            "Location (optional)", key="ai_location", max_chars=MAX_LOCATION_CHARS, placeholder="US"
        )
        st.form_submit_button(
            "Add question",
            icon=":material/add:",
            on_click=_add,
            args=(conn, domain),
            disabled=locked is not None,
            help=locked,
        )
    if not view.prompts:
        st.caption("No questions tracked yet.")
    for prompt in view.prompts:
        with st.container(horizontal=True, vertical_alignment="center", border=True):
            source = f" · {escape_md(prompt.source)}" if prompt.source else ""
            where = f" · {escape_md(prompt.location)}" if prompt.location else ""
            st.markdown(f"{escape_md(prompt.prompt)}  \n:gray[{escape_md(prompt.id)}{source}{where}]")
            st.button(
                "Remove",
                key=f"ai_remove_{prompt.id}",
                icon=":material/delete:",
                type="tertiary",
                disabled=locked is not None,
                help=locked,
                on_click=_remove,
                args=(conn, domain, prompt.id, prompt.prompt),
            )
    with st.container(horizontal=True):
        st.button(
            "Run now",
            key="ai_run",
            type="primary",
            icon=":material/play_arrow:",
            on_click=_run,
            args=(conn, domain),
            disabled=locked is not None,
            help=locked,
        )
        with st.popover("Reseed from keywords", icon=":material/restart_alt:"):
            st.write("Replace every tracked question with questions made from the site's tracked keywords.")
            st.button(
                "Replace the questions",
                key="ai_reset",
                on_click=_reset,
                args=(conn, domain),
                disabled=locked is not None,
                help=locked,
            )
    st.caption(
        "A run asks every question on each assistant. It is part of paid plans, possible once per site "
        "per week, and takes a few minutes on the real service."
    )
