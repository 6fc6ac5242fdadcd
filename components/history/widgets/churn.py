"""The History page's Trust Map churn tab: referring domains that appeared or disappeared between two
chosen snapshots of a site's Trust Map sample, new spam-risky domains and links that went from live to
lost, with the sample's totals over the year before the later snapshot. A link's ``history_domain``
(an alert's "Chart") picks the site."""

from __future__ import annotations

from datetime import timedelta

import streamlit as st

from components.common.text import escape_md
from components.core import data
from components.core.tables import score_column, table_with_export
from components.history import frames
from components.history.charts import trust_map_totals_chart
from components.history.source import HistorySource
from components.history.widgets.pieces import domain_choices, linked

CHURN_COLUMNS = {
    "change": st.column_config.TextColumn("Change", pinned=True),
    "referring_domain": st.column_config.TextColumn("Referring domain", pinned=True),
    "dr": score_column("DR"),
    "backlinks": st.column_config.NumberColumn("Backlinks", format="localized"),
    "link_type": st.column_config.TextColumn("Link type"),
    "status": st.column_config.TextColumn("Status"),
    "spam_score": st.column_config.NumberColumn("Spam score", format="%.0f", help="0–100"),
    "importance": st.column_config.NumberColumn("Importance", format="%.1f", help="0–100"),
}


def churn_tab(source: HistorySource, own: dict[str, str]) -> None:
    choices, _ = domain_choices(source, own)
    if not choices:
        st.info("Nothing is watched yet: add domains on the Watchlist tab.", icon=":material/visibility:")
        return
    asked = linked("domain", "churn")  # an alert's link opens the churn of its site
    if asked and asked in choices:
        st.session_state["history_churn_domain"] = asked
    domain = st.selectbox("Site", choices, key="history_churn_domain")
    days = source.trust_map_days(domain)
    if len(days) < 2:
        st.info(
            f"{len(days) or 'No'} Trust Map snapshot{'s' if len(days) != 1 else ''} of "
            f"{escape_md(domain)} so far; churn compares two. Each day the job runs (or someone opens "
            "its Trust Map) adds one.",
            icon=":material/hourglass_empty:",
        )
        return
    latest = days[-1]
    month_before = max((d for d in days if d <= latest - timedelta(days=30)), default=days[0])
    start, end = st.select_slider(
        "Compare the snapshots of",
        options=days,
        value=(month_before, latest),
        format_func=lambda d: f"{d:%b %d, %Y}",
        key=f"history_churn_days_{domain}",
    )
    if start == end:
        st.caption("Pick two different days.")
        return
    result = frames.churn(source.trust_map_links(domain, start), source.trust_map_links(domain, end))
    cols = st.columns(4)
    for col, (label, count) in zip(cols, result.counts().items(), strict=True):
        col.metric(label.capitalize(), count, border=True)
    totals = source.trust_map_totals(domain, end - timedelta(days=364))
    st.plotly_chart(data.figure(trust_map_totals_chart, totals, domain), key="history_churn_totals")
    table = frames.churn_table(result)
    if table.empty:
        st.caption(f"The sample held the same referring domains on {start:%b %d} and {end:%b %d}.")
    table_with_export(
        table,
        what="trust-map-churn",
        subject=domain,
        key="history_churn",
        column_config=CHURN_COLUMNS,
        column_order=list(CHURN_COLUMNS),
    )
    st.caption(
        f"Between {start:%b %d, %Y} and {end:%b %d, %Y}, in the Trust Map sample (up to 60 referring "
        "domains). Spam-risky: a spam score of 50 or more."
    )
