"""Visits: the runs of one page from arriving on it (a link followed, a sidebar click, Back, a page
opened fresh) until another page runs.

What a page takes from the link that opened it, such as an alert's evidence on the History page,
belongs to that visit. Following the same link again later is a new visit that takes it again (a
session that remembered "this link was applied" once showed the page's defaults the second time), and
opening the page without a link shows none of it. ``app.py`` counts the visits before each page runs.
"""

from __future__ import annotations

import streamlit as st

_LAST_PAGE = "_visit_page"
_VISIT = "_visit_number"
_ARRIVING = "_visit_arriving"


def count_visit(page: str) -> None:
    """Before ``page`` runs: a run on another page than the last run's starts a new visit."""
    arriving = st.session_state.get(_LAST_PAGE) != page
    st.session_state[_ARRIVING] = arriving
    if arriving:
        st.session_state[_VISIT] = st.session_state.get(_VISIT, 0) + 1
        st.session_state[_LAST_PAGE] = page


def arriving() -> bool:
    """Whether this run is the first of its visit (the page was just opened, not rerun)."""
    return bool(st.session_state.get(_ARRIVING, True))


def current_visit() -> int:
    """The number of this session's visit going on now (0 before ``count_visit`` ever ran)."""
    return int(st.session_state.get(_VISIT, 0))
