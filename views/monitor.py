"""Monitor: what changed on your sites this week (or today), with the alerts first."""

from __future__ import annotations

import streamlit as st

from analysis.sites.charts import monitor_chart
from analysis.sites.frames.sites import monitor_alerts, monitor_frame
from analysis.text import escape_md
from components.core.cache import data
from components.core.cache.connection import current_connection
from components.core.nav.pages import MONITOR, page_header
from components.core.ui.errors import read_or_show_error
from components.core.ui.tables import table_with_export
from components.sites.widgets import chosen_site

SCOPES = ("All my sites", "One site")
ALERT_STYLE = {
    "critical": (st.error, ":material/error:"),
    "warning": (st.warning, ":material/warning:"),
    "info": (st.info, ":material/info:"),
}
COLUMNS = {
    "domain": st.column_config.TextColumn("Site", pinned=True),
    "worst_alert": st.column_config.TextColumn("Alert level"),
    "dr": st.column_config.NumberColumn("DR"),
    "dr_change": st.column_config.NumberColumn("DR Δ", format="%+.0f"),
    "true_dr": st.column_config.NumberColumn("TrueDR"),
    "true_dr_change": st.column_config.NumberColumn("TrueDR Δ", format="%+.0f"),
    "traffic_change": st.column_config.NumberColumn("Traffic Δ", format="%+.0f", help="In monthly visits."),
    "new_referring_domains": st.column_config.NumberColumn(
        "Domains gained", help="Referring domains gained in the period."
    ),
    "lost_referring_domains": st.column_config.NumberColumn(
        "Domains lost", help="Referring domains lost in the period."
    ),
    "alerts": st.column_config.NumberColumn("Alerts"),
    "traffic_validated": st.column_config.CheckboxColumn("Traffic validated"),
    "summary": st.column_config.TextColumn("Summary", width="large"),
}
#: Columns one click away in the table's column menu rather than shown at first: all of them are wider
#: than a laptop-wide page, and the alerts above already say what the count and the summary say.
MORE_COLUMNS = ("alerts", "traffic_validated", "summary")
ORDER = [name for name in COLUMNS if name not in MORE_COLUMNS]

conn = current_connection()
page_header(
    MONITOR,
    "What changed on your sites: ratings, referring domains gained and lost, traffic validation. "
    "Alerts come first. Monitoring spends no quota.",
)
with st.container(horizontal=True, vertical_alignment="bottom"):
    scope = st.segmented_control(
        "Sites", SCOPES, default=SCOPES[0], required=True, key="monitor_scope", bind="query-params"
    )
    daily = st.toggle("Daily changes", key="daily", bind="query-params", help="Off: the weekly changes.")

domain: str | None = None
if scope == SCOPES[1]:
    domain = chosen_site(
        conn, none_chosen="Choose one of your sites, or monitor all of them.", icon=":material/monitor_heart:"
    )

report = read_or_show_error(data.monitor, conn, domain, daily, subject=domain or "your sites")
if report is None:
    st.stop()

frame = monitor_frame(report)
period = "today" if report.cadence == "daily" else "this week"
if frame.empty:
    st.info("No sites to monitor yet. Submit one on the My sites page.", icon=":material/add_circle:")
    st.stop()

alerts = monitor_alerts(report)
st.subheader(f"Alerts {period}", anchor=False)
if not alerts:
    st.success("Nothing needs attention.", icon=":material/check_circle:")
for level, site, message in alerts:
    show, icon = ALERT_STYLE.get(level, ALERT_STYLE["info"])
    show(f"**{escape_md(site)}** · {escape_md(message)}", icon=icon)

st.plotly_chart(data.figure(monitor_chart, frame, period=period), key="monitor_chart")
table_with_export(
    frame,
    what=f"monitor-{report.cadence or 'weekly'}",
    subject=domain or "all-sites",
    key="monitor",
    column_config=COLUMNS,
    column_order=ORDER,
    narrowed_to_fit=True,
)
st.caption("The alert count, traffic validation and summary: in the table's column menu (the eye icon).")
