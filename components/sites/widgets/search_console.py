"""The Search Console page's Streamlit parts: the notice when no property is connected, the
Performance tab (range, totals against the previous period, the series and the top-rows tables) and
the Index audit tab (its figures, sitemaps and sampled pages, and Run a fresh audit)."""

from __future__ import annotations

import streamlit as st

from analysis.sites.charts import gsc_series_chart
from analysis.sites.frames.visibility import (
    delta_change_text,
    delta_value_text,
    inspected_frame,
    rows_frame,
    series_frame,
    sitemaps_frame,
    totals_deltas,
    when_text,
)
from analysis.text import escape_md
from analysis.wording import NOT_AVAILABLE, whole_number
from client.errors import ApiError
from client.growth_inputs import DEFAULT_GSC_RANGE, GSC_RANGES
from client.visibility_models import GscAudit, GscPerformance
from components.core.auth import access
from components.core.cache import data
from components.core.cache.connection import Connection
from components.core.ui.errors import read_or_show_error
from components.core.ui.tables import table_with_export
from components.core.writes.writes import flash, show_flash
from components.sites.widgets import writes as site_writes

TAB_KEY = "gsc_tab"
RANGE_LABELS = {"28d": "28 days", "3m": "3 months", "6m": "6 months", "12m": "12 months", "16m": "16 months"}
ROW_COLUMNS = {
    "name": st.column_config.TextColumn("Name", width="large"),
    "clicks": st.column_config.NumberColumn("Clicks", format="localized"),
    "impressions": st.column_config.NumberColumn("Impressions", format="localized"),
    "ctr": st.column_config.NumberColumn("CTR", format="percent"),
    "position": st.column_config.NumberColumn("Position", format="%.1f"),
}
#: A sampled page: its path is enough to know it (the site is the one chosen), which leaves the width
#: to the Coverage reason, the one thing that says why a page is not indexed.
PAGE_COLUMNS = {
    "url": st.column_config.LinkColumn("Page", display_text=r"https?://[^/]+(/.*)"),
    "coverage": st.column_config.TextColumn("Coverage", help="Google's reason for the page's index state."),
    "last_crawl": "Last crawl",
    "impressions": st.column_config.NumberColumn("Impressions", format="localized"),
}


def stop_unless_connected(conn: Connection, domain: str) -> None:
    """When your site list says Search Console is not connected for ``domain``, say so and stop the page.

    A list that cannot be read stops nothing: the report's own call then says what went wrong.
    """
    try:
        record = next((s for s in data.sites(conn).sites if s.domain == domain), None)
    except ApiError:
        record = None  # the report call below explains what went wrong
    if record is not None and record.gsc_connected is False:
        st.info(
            f"**Search Console is not connected for {escape_md(domain)}.** Connect the property on "
            "VerifiedDR, then its performance and index audit appear here.",
            icon=":material/link_off:",
        )
        st.stop()


def _totals(perf: GscPerformance) -> None:
    cols = st.columns(4)
    for col, delta in zip(cols, totals_deltas(perf), strict=True):
        col.metric(
            delta.label,
            delta_value_text(delta),
            delta_change_text(delta),
            delta_color="inverse" if delta.label == "Average position" else "normal",
            delta_description="vs previous",
            border=True,
            help="Lower is better for the average position." if delta.label == "Average position" else None,
        )


def performance_tab(conn: Connection, domain: str) -> None:
    chosen = st.segmented_control(
        "Range",
        GSC_RANGES,
        default=DEFAULT_GSC_RANGE,
        required=True,
        format_func=RANGE_LABELS.__getitem__,
        key="range",
        bind="query-params",
    )
    perf = read_or_show_error(
        data.gsc_performance,
        conn,
        domain,
        chosen or DEFAULT_GSC_RANGE,
        subject=f"Search Console data of {domain}",
    )
    if perf is None:
        return
    p = perf.performance
    connection = p.connection
    if connection is not None:
        synced = (
            connection.last_sync_at.isoformat(timespec="minutes")
            if connection.last_sync_at
            else NOT_AVAILABLE
        )
        st.caption(f"Property {escape_md(connection.site_property or NOT_AVAILABLE)} · last synced {synced}")
    if p.start_date and p.end_date:
        st.caption(
            f"{p.start_date.isoformat()} to {p.end_date.isoformat()}, against the same length before it."
        )
    _totals(perf)
    st.plotly_chart(data.figure(gsc_series_chart, series_frame(perf)), key="gsc_series")
    snapshot = p.snapshot
    if snapshot is None:
        st.caption("The service sent no top queries, pages, countries or devices.")
        return
    for tab, (label, rows) in zip(
        st.tabs(["Top queries", "Top pages", "Countries", "Devices"]),
        (
            ("queries", snapshot.queries),
            ("pages", snapshot.pages),
            ("countries", snapshot.countries),
            ("devices", snapshot.devices),
        ),
        strict=True,
    ):
        with tab:
            config = (
                {**ROW_COLUMNS, "name": st.column_config.LinkColumn("Page")}
                if label == "pages"
                else ROW_COLUMNS
            )
            table_with_export(
                rows_frame(rows, links=label == "pages"),
                what=f"gsc-{label}",
                subject=domain,
                key=f"gsc_{label}",
                column_config=config,
            )


def _run_audit(conn: Connection, domain: str) -> None:
    flash("gsc_audit", site_writes.run_gsc_audit(conn, domain))


def _audit_body(audit: GscAudit, domain: str) -> None:
    ran, next_run = when_text(audit.ran_at), when_text(audit.next_run_at)
    st.caption(f"Audit from {ran}; the next run is possible after {next_run}.")
    cols = st.columns(4)
    cols[0].metric("Indexed", whole_number(audit.indexed_count), border=True)
    cols[1].metric("Not indexed", whole_number(audit.not_indexed_count), border=True)
    cols[2].metric("Pages with impressions", whole_number(audit.pages_with_impressions), border=True)
    cols[3].metric("URLs inspected", whole_number(audit.inspected), border=True)
    st.markdown("**Sitemaps**")
    table_with_export(
        sitemaps_frame(audit),
        what="gsc-sitemaps",
        subject=domain,
        key="gsc_sitemaps",
        column_config={
            "sitemap": st.column_config.LinkColumn("Sitemap"),
            "status": "Status",
            "submitted": "Submitted",
            "indexed": "Indexed",
            "errors": "Errors",
            "warnings": "Warnings",
            "last_read": "Last read (UTC)",
        },
    )
    # One above the other, each the page's full width: side by side, the Coverage reason was cut off.
    st.markdown("**Sampled: not indexed**")
    table_with_export(
        inspected_frame(audit.not_indexed), what="gsc-not-indexed", subject=domain, key="gsc_not_indexed",
        column_config=PAGE_COLUMNS,
    )  # fmt: skip
    st.markdown("**Sampled: indexed**")
    table_with_export(
        inspected_frame(audit.indexed), what="gsc-indexed", subject=domain, key="gsc_indexed",
        column_config=PAGE_COLUMNS,
    )  # fmt: skip


def audit_tab(conn: Connection, domain: str) -> None:
    show_flash("gsc_audit", subject="the index audit")
    result = read_or_show_error(data.gsc_audit, conn, domain, subject=f"the index audit of {domain}")
    if result is None:
        return
    cooldown = result.cooldown_hours
    _, locked = access.write_permission()
    st.button(
        "Run a fresh audit",
        key="gsc_run",
        icon=":material/play_arrow:",
        on_click=_run_audit,
        args=(conn, domain),
        disabled=locked is not None,
        help=locked,
    )
    access.read_only_note(locked)
    st.caption(
        "A run inspects a sample of your URLs and spends part of the Search Console URL-inspection budget. "
        f"There is a cooldown of {cooldown or 'several'} hours between runs, and it takes minutes."
    )
    if result.audit is None:
        st.info("No audit yet: run the first one.", icon=":material/hourglass_top:")
        return
    _audit_body(result.audit, domain)
