"""An alert's Chart link on the History page: the tab it opens takes the link's evidence once, shows the
alert's window instead of the period buttons (visible, editable, and cleared with one button), and
says which points of the chart are the alert's "before" and "after".

The evidence is read from the URL (``analysis.figures.history_evidence.read_link``) by the tab the link
opens, once per visit of the page (``components.core.nav.page_visits``): switching tabs, or reruns, never
apply it again; following the link again after another page applies it again; the page opened later
without a link shows the period buttons. Clear puts the period buttons back and drops the link's
parameters from the URL.
"""

from __future__ import annotations

from datetime import date

import pandas as pd
import streamlit as st

from analysis.figures import history_frames as frames
from analysis.figures.history_evidence import LinkedEvidence, read_link
from analysis.links import EVIDENCE_PARAMS, SUBJECT_PARAMS
from analysis.wording import screen_day
from components.core.nav import page_visits
from components.history.widgets.pieces import period_picker

#: The link last taken (the visit, its parameters), so each link is applied once per visit whichever
#: tab reads it.
SEEN = "_history_evidence_seen"


def _evidence_key(key: str) -> str:
    return f"_{key}_evidence"


def take_link(key: str) -> LinkedEvidence | None:
    """The evidence of the link that opened the tab drawing now (``key`` names the tab's period), the
    first time the session sees that link; its window goes into the tab's window box. None otherwise.

    Only the open tab is drawn, and a link opens the tab it names, so the first tab to see a link is
    its own (the URL may no longer name it: Streamlit drops the first tab's name from the URL)."""
    params = st.query_params.to_dict()
    evidence = read_link(params)
    if evidence.window is None:
        return None
    visit = page_visits.current_visit()
    seen = (visit, *(params.get(name, "") for name in (*EVIDENCE_PARAMS, *SUBJECT_PARAMS)))
    if st.session_state.get(SEEN) == seen:
        return None
    st.session_state[SEEN] = seen
    st.session_state[_evidence_key(key)] = (visit, evidence)
    st.session_state[f"{key}_window"] = evidence.window
    return evidence


def active(key: str) -> LinkedEvidence | None:
    """The alert evidence the tab shows during the visit its link opened, until someone clears it."""
    taken: tuple[int, LinkedEvidence] | None = st.session_state.get(_evidence_key(key))
    if taken is None or taken[0] != page_visits.current_visit():
        return None
    return taken[1]


def _clear(key: str) -> None:
    st.session_state.pop(_evidence_key(key), None)
    st.session_state.pop(f"{key}_window", None)
    for name in EVIDENCE_PARAMS:
        st.query_params.pop(name, None)


def period_or_window(key: str, today: date) -> tuple[date | None, date | None]:
    """The first and last day to show: the period buttons' (30 / 90 / 365 days / All, up to today), or
    the alert's window while the tab shows one (a date range, with Clear to go back to the buttons)."""
    if active(key) is None:
        return frames.since(period_picker(key), today), None
    with st.container(horizontal=True, vertical_alignment="bottom", gap="small"):
        chosen = st.date_input(
            "Alert window",
            key=f"{key}_window",
            format="YYYY-MM-DD",
            help="The days the alert compared, from the day before its earlier snapshot to its day. "
            "Widen it here, or Clear it to go back to the period buttons.",
        )
        st.button(
            "Clear",
            key=f"{key}_window_clear",
            icon=":material/close:",
            help="Show the period buttons again, without the alert's marks.",
            on_click=_clear,
            args=(key,),
        )
    days = [d for d in (chosen if isinstance(chosen, tuple | list) else (chosen,)) if d is not None]
    if not days:
        return None, None
    return min(days), max(days)


def marks_caption(points: pd.DataFrame, what: str) -> None:
    """Under a marked chart: the alert's points in words ("before: TrueDR 92 on Dec 10, 2024 …"), or
    why they are not on it."""
    if points.empty:
        st.caption(f"The alert's {what} has no recorded value on its days in this window.")
        return
    said = "; ".join(f"{p.words} on {screen_day(p.day)}" for p in points.itertuples())
    st.caption(f"Marked on the chart, the alert's evidence for {what}: {said}.")
