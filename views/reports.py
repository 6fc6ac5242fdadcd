"""Reports: one of your sites' month as a report to send a client or a boss, from the history only (no
API call): previewed here, downloaded as PDF or HTML, commented by an editor; sent every month by
``python -m store reports``; shared read-only by a link; fed to a spreadsheet.

The report itself is ``store.reports`` (the commands build the same one); each tab is drawn by its
module in ``components.reports.widgets``.
"""

from __future__ import annotations

import streamlit as st

from components.core.cache.connection import current_connection
from components.core.history import store as history
from components.core.nav.pages import REPORTS, page_header
from components.core.nav.tabs import lazy_tabs
from components.history.widgets import guarded, page_history
from components.reports.widgets.choice import recorded_sites, report_choice
from components.reports.widgets.preview import preview_tab
from components.reports.widgets.schedule import schedule_tab
from components.reports.widgets.sharing import sharing_tab

PREVIEW_TAB = "Preview"
SCHEDULE_TAB = "Schedule"
SHARING_TAB = "Sharing"

conn = current_connection()
page_header(
    REPORTS,
    "A site's month as a report to send: its authority, links, keyword positions and share of voice, "
    "from the recorded history. Preview it, comment it, download it as PDF or HTML.",
)
source = page_history(conn)
sites = recorded_sites(source)
if not sites:
    st.info(
        "No site of yours is in the history yet: the daily snapshot records them "
        "(`python -m store snapshot`), or open **My sites** once.",
        icon=":material/info:",
    )
    st.stop()
site, period = report_choice(sites, history.history_day(conn))
lazy_tabs(
    {
        PREVIEW_TAB: guarded(lambda: preview_tab(conn, site, period)),
        SCHEDULE_TAB: guarded(lambda: schedule_tab(conn, source, site)),
        SHARING_TAB: guarded(lambda: sharing_tab(conn, source, site, period)),
    },
    key="report_tab",
)
