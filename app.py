"""Authority Dashboard: the entry point. Page config, the sidebar's connection settings, navigation."""

from __future__ import annotations

import streamlit as st

from components.sidebar import render_sidebar

st.set_page_config(page_title="Authority Dashboard", page_icon=":material/insights:", layout="wide")

# One list per navigation section; a page file lives in views/ and is linked with st.page_link by path.
# A file is named like its url_path, so AppTest.switch_page finds it before the first run.
# (Not pages/: Streamlit 1.67 would run a pages/ file without this entry point on a fresh server's
# first deep link, skipping the sidebar and the connection settings.)
AUTHORITY = [
    st.Page(
        "views/overview.py",
        title="Domain overview",
        icon=":material/travel_explore:",
        url_path="overview",
        default=True,
    ),
]
KEYWORDS: list[st.Page] = []
GROWTH: list[st.Page] = []
MY_SITES: list[st.Page] = []
COACH: list[st.Page] = []

SECTIONS = {
    "Authority": AUTHORITY,
    "Keywords": KEYWORDS,
    "Growth": GROWTH,
    "My sites": MY_SITES,
    "Coach": COACH,
}

navigation = st.navigation({name: pages for name, pages in SECTIONS.items() if pages}, expanded=True)
render_sidebar()
navigation.run()
