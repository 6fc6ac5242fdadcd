"""Authority Dashboard: the entry point. Page config, the sidebar's connection settings, navigation."""

from __future__ import annotations

import streamlit as st

from components.sidebar import render_sidebar

st.set_page_config(page_title="Authority Dashboard", page_icon=":material/insights:", layout="wide")

PAGES = {
    "Authority": [
        st.Page(
            "pages/overview.py",
            title="Domain overview",
            icon=":material/travel_explore:",
            url_path="overview",
            default=True,
        ),
    ],
}

navigation = st.navigation(PAGES)
render_sidebar()
navigation.run()
