"""Tabs kept in the URL that draw only the open one: a closed tab spends no API call and no time."""

from __future__ import annotations

from collections.abc import Callable, Mapping

import streamlit as st


def lazy_tabs(renderers: Mapping[str, Callable[[], None]], *, key: str) -> None:
    """One tab per ``renderers`` entry (label → what draws it), the open one kept in the URL under ``key``.

    Only the open tab's renderer runs, so a page with many tabs reads only what the user is looking at.
    """
    tabs = st.tabs(list(renderers), key=key, bind="query-params")
    for tab, render in zip(tabs, renderers.values(), strict=True):
        if tab.open:
            with tab:
                render()
