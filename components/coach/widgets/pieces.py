"""Pieces every Coach tab shares: the tab names, action cards, the main-issue callout, the evidence.

Each tab's advice looks the same wherever it appears (an action card on Analyze and on Next, the
main issue on Analyze and on Diagnose), so the look is defined once here and the tab modules only
arrange it.
"""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from analysis.coach import rules as coach
from analysis.text import BadgeColour, escape_md
from analysis.wording import NOT_AVAILABLE
from components.core.ui.errors import callout
from components.overview.widgets import signed

#: The Coach's tabs, named after the vdr CLI's coach commands, in the CLI's order.
TABS = (
    "Analyze",
    "Diagnose",
    "Actions",
    "Audit backlinks",
    "Content plan",
    "Fix",
    "Track",
    "Explain",
    "Boost",
    "Next",
)
#: The tabs' widget key, bound to the ``coach`` query parameter so a link can open a tab.
TAB_KEY = "coach"

#: How loudly each main issue is shown; an issue not listed (aligned) is good news.
ISSUE_LEVEL = {"inflated": "warning", "unbacked": "warning", "low_trust": "warning", "trailing": "info"}
#: A diagnosis verdict as a badge: (label, colour, icon).
STATUS_BADGE: dict[str, tuple[str, BadgeColour, str]] = {
    "weak": ("Weak", "orange", ":material/error:"),
    "ok": ("OK", "green", ":material/check_circle:"),
    "unknown": ("Unknown", "gray", ":material/help:"),
}

#: A heuristic TrueDR lift range as two table columns, read the same way in every table that has one.
LIFT_COLUMNS = {
    "lift_low": st.column_config.NumberColumn(
        "TrueDR lift from", format="+%d", help="Heuristic: the low end of the estimated TrueDR gain"
    ),
    "lift_high": st.column_config.NumberColumn(
        "TrueDR lift to", format="+%d", help="Heuristic: the high end of the estimated TrueDR gain"
    ),
}


def open_tab(name: str) -> None:
    """Button callback: switch the Coach to tab ``name`` on the next run."""
    st.session_state[TAB_KEY] = name


def field_names(sources: Sequence[str]) -> str:
    """The API fields behind advice, each once, as code: ``lookup.authority.trueDr`` · …"""
    return " · ".join(f"`{name}`" for name in dict.fromkeys(sources))


def data_used(sources: Sequence[str], cli: str | None = None) -> None:
    """The API fields (and the vdr CLI's same step) behind a piece of advice, folded away: for those
    who check advice against the raw data, not in the way of those who act on it."""
    with st.expander("Data used", icon=":material/data_object:"):
        st.caption(f"API fields: {field_names(sources)}")
        if cli:
            st.caption(f"Same step in the vdr CLI: `{cli}`")


def show_evidence(sources: Sequence[str], cli: str | None = None) -> None:
    """Say in plain words what a piece of advice rests on, with the data used folded under it."""
    st.caption(f"Based on: {escape_md(coach.plain_sources(sources))}")
    data_used(sources, cli)


def heuristic_note(text: str) -> None:
    """A line marked as a heuristic: an estimate the service does not publish."""
    st.markdown(f":orange-badge[Heuristic] {escape_md(text)}")


def follow_up_button(action: coach.Action, key: str, here: str) -> None:
    """A button to the tab where ``action`` is carried out, unless that is the tab the card is on."""
    if action.follow_up and action.follow_up in TABS and action.follow_up != here:
        st.button(
            f"Go to {action.follow_up}",
            key=f"{key}_{action.key}",
            on_click=open_tab,
            args=(action.follow_up,),
            icon=":material/arrow_forward:",
        )


def action_card(action: coach.Action, rank: int, domain: str, here: str) -> None:
    """One recommended action with its heuristic impact, scores, evidence (and CLI step) and follow-up."""
    with st.container(border=True):
        st.markdown(f"**{rank}. {escape_md(action.title)}**")
        st.markdown(escape_md(action.detail))
        heuristic_note(action.impact)
        st.caption(f"Priority {action.priority} · effort {action.effort} · confidence {action.confidence}")
        show_evidence(action.sources, action.cli_for(domain))
        follow_up_button(action, here.lower(), here)


def issue_callout(issue: coach.MainIssue) -> None:
    """The main issue as a warning, an info or a success box, with its caveat when data is missing."""
    callout(ISSUE_LEVEL.get(issue.kind, "success"), f"**Main issue:** {escape_md(issue.text)}")
    if issue.caveat:
        st.caption(escape_md(issue.caveat))


def change_text(value: float | None, digits: int = 0) -> int | str:
    """A change as signed text; 0 stays 0 and only a missing change reads "not available"."""
    text = signed(value, digits)
    return NOT_AVAILABLE if text is None else text


def score_text(value: int | None) -> int | str:
    """A score for a metric: the number, or "not available" when the service did not say."""
    return NOT_AVAILABLE if value is None else value
