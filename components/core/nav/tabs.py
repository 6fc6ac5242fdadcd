"""Tabs kept in the URL that draw only the open one: a closed tab spends no API call and no time."""

from __future__ import annotations

from collections.abc import Callable, Mapping

import streamlit as st

from components.core.nav import page_visits


def lazy_tabs(renderers: Mapping[str, Callable[[], None]], *, key: str) -> None:
    """One tab per ``renderers`` entry (label → what draws it), the open one kept in the URL under ``key``.

    Only the open tab's renderer runs, so a page with many tabs reads only what the user is looking at.

    A page opened on an address that names a tab (a link, Back) opens that tab. Streamlit alone would
    reopen the tab this session saw last on the page: it drops the first tab's name from a link's
    address, and then the tab remembered wins.
    """
    named = st.query_params.get(key)
    if page_visits.arriving() and named in renderers:
        st.session_state[key] = named
    tabs = st.tabs(list(renderers), key=key, bind="query-params")
    for tab, render in zip(tabs, renderers.values(), strict=True):
        if tab.open:
            with tab:
                render()
