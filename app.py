"""Authority Dashboard: the entry point. Page config, the sidebar's connection settings, navigation."""

from __future__ import annotations

import streamlit as st

from components.core.shared_inputs import remember_shared_inputs, restore_shared_inputs
from components.core.sidebar import render_sidebar

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
    st.Page("views/trust-map.py", title="Trust Map", icon=":material/hub:", url_path="trust-map"),
    st.Page("views/site-check.py", title="Site check", icon=":material/gpp_good:", url_path="site-check"),
    st.Page("views/bulk-dr.py", title="Bulk DR checker", icon=":material/checklist:", url_path="bulk-dr"),
    st.Page("views/badges.py", title="Badges & snippets", icon=":material/verified:", url_path="badges"),
    st.Page("views/categories.py", title="Categories", icon=":material/category:", url_path="categories"),
]
KEYWORDS: list[st.Page] = [
    st.Page(
        "views/keyword-research.py",
        title="Keyword research",
        icon=":material/query_stats:",
        url_path="keyword-research",
    ),
    st.Page(
        "views/keyword-suggestions.py",
        title="Keyword suggestions",
        icon=":material/lightbulb:",
        url_path="keyword-suggestions",
    ),
    st.Page(
        "views/tracked-keywords.py",
        title="Tracked keywords",
        icon=":material/track_changes:",
        url_path="tracked-keywords",
    ),
]
GROWTH: list[st.Page] = [
    st.Page("views/discover.py", title="Discover sites", icon=":material/explore:", url_path="discover"),
    st.Page("views/exchanges.py", title="Link exchanges", icon=":material/handshake:", url_path="exchanges"),
]
MY_SITES: list[st.Page] = [
    st.Page("views/my-sites.py", title="My sites", icon=":material/web:", url_path="my-sites"),
    st.Page("views/site.py", title="Site details", icon=":material/dashboard:", url_path="site"),
    st.Page(
        "views/ai-visibility.py", title="AI visibility", icon=":material/smart_toy:", url_path="ai-visibility"
    ),
    st.Page(
        "views/search-console.py",
        title="Search Console",
        icon=":material/query_stats:",
        url_path="search-console",
    ),
    st.Page("views/monitor.py", title="Monitor", icon=":material/monitor_heart:", url_path="monitor"),
]
COACH = [
    st.Page("views/coach.py", title="Coach", icon=":material/psychology:", url_path="coach"),
]

SECTIONS = {
    "Authority": AUTHORITY,
    "Keywords": KEYWORDS,
    "Growth": GROWTH,
    "My sites": MY_SITES,
    "Coach": COACH,
}

navigation = st.navigation({name: pages for name, pages in SECTIONS.items() if pages}, expanded=True)
render_sidebar()
restore_shared_inputs(navigation.url_path)
try:
    navigation.run()
finally:
    remember_shared_inputs(navigation.url_path)
