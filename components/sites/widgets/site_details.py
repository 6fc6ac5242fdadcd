"""The Site details page's Streamlit parts: the heading with badges and rating cards, and one renderer
per tab (Trends, TrueDR, Export, Verify badge, whose form sends the badge check)."""

from __future__ import annotations

import streamlit as st

from analysis.sites.charts import trends_chart, truedr_waterfall
from analysis.sites.frames.export import export_frame, export_json
from analysis.sites.frames.sites import trends_frame, trends_note, truedr_frame
from analysis.sites.frames.visibility import when_text
from analysis.text import escape_md
from analysis.wording import NOT_AVAILABLE, whole_number
from client.errors import InvalidInputError
from client.growth_models import SiteDetail, Verification
from components.core.auth import access
from components.core.cache import data
from components.core.cache.connection import Connection
from components.core.ui.errors import read_or_show_error
from components.core.ui.sidebar import RESULT_PREFIX
from components.core.ui.tables import csv_file_name, score_column, table_with_export
from components.core.writes.writes import flash, refused, show_flash
from components.overview.widgets import signed, site_heading
from components.sites.widgets import writes as site_writes

TAB_KEY = "site_tab"
#: The service's last answer to Verify badge this session (a ``Verification``), shown under the form.
LAST_VERIFICATION = RESULT_PREFIX + "last_verification"
TRUEDR_COLUMNS = {
    "signal": st.column_config.TextColumn("Signal"),
    "impact": st.column_config.NumberColumn("Impact (points)", format="%+.1f"),
    "score": score_column("Score"),
    "weight": st.column_config.NumberColumn("Weight", format="percent"),
    "note": st.column_config.TextColumn("Note"),
}


def site_header(site: SiteDetail) -> None:
    """The site's heading, its status, badge and Search Console badges, and its rating cards."""
    site_heading(site.domain or site.slug, site.title)
    with st.container(horizontal=True):
        st.badge(
            escape_md(site.status or "status unknown"),
            color="green" if site.status == "approved" else "orange",
        )
        if site.verified is not None:
            st.badge(
                "Badge verified" if site.verified else "Badge not verified",
                color="blue" if site.verified else "gray",
            )
        if site.gsc_connected:
            st.badge("Search Console connected", color="violet", icon=":material/query_stats:")
    cols = st.columns(4)
    cols[0].metric(
        "DR", NOT_AVAILABLE if site.dr is None else site.dr, signed(site.dr_weekly_change, 1), border=True
    )
    cols[1].metric(
        "TrueDR",
        NOT_AVAILABLE if site.true_dr is None else site.true_dr,
        signed(site.true_dr_weekly_change, 1),
        border=True,
        help="Computed after review for a newly submitted site.",
    )
    cols[2].metric(
        "Trust score", NOT_AVAILABLE if site.trust_score is None else f"{site.trust_score}/100", border=True
    )
    cols[3].metric("Traffic", whole_number(site.traffic), border=True, help="Estimated monthly visits.")


def trends_tab(site: SiteDetail) -> None:
    frame = trends_frame(site)
    st.plotly_chart(data.figure(trends_chart, frame), key="trends_chart")
    st.caption(trends_note(site, frame))


def truedr_tab(conn: Connection, domain: str) -> None:
    report = read_or_show_error(data.site_truedr, conn, domain, subject=f"the TrueDR of {domain}")
    if report is None:
        return
    st.caption(
        "The private per-signal breakdown, shown only to the site's owner: which evidence lifts TrueDR "
        "above DR and which holds it back."
    )
    st.plotly_chart(data.figure(truedr_waterfall, report), key="truedr_chart")
    frame = truedr_frame(report)
    if frame.empty:
        st.info(
            "No breakdown yet: TrueDR is computed after the site is reviewed.",
            icon=":material/hourglass_top:",
        )
        return
    table_with_export(
        frame, what="truedr-breakdown", subject=domain, key="truedr", column_config=TRUEDR_COLUMNS
    )


def export_tab(conn: Connection, domain: str) -> None:
    exported = read_or_show_error(data.export, conn, domain, subject=f"the export of {domain}")
    if exported is None:
        return
    st.caption(
        "Everything the service exports for the site: its record, ratings and embed snippets. The JSON "
        "download is the export exactly as the service sent it, for scripts and imports."
    )
    st.download_button(
        "Download JSON",
        data=lambda: export_json(exported),
        file_name=csv_file_name("export", domain).removesuffix(".csv") + ".json",
        mime="application/json",
        key="export_json",
        icon=":material/data_object:",
        on_click="ignore",
    )
    table_with_export(
        export_frame(exported),
        what="export",
        subject=domain,
        key="export",
        height=360,
        column_config={
            "section": st.column_config.TextColumn("Part"),
            "field": st.column_config.TextColumn("Field"),
            "value": st.column_config.TextColumn("Value"),
        },
    )


def _verify(conn: Connection) -> None:
    url = st.session_state.get("verify_url", "")
    try:
        outcome = site_writes.verify(conn, url)
    except InvalidInputError as exc:
        flash("verify", refused("verify", exc))
        return
    if outcome.ok:
        st.session_state[LAST_VERIFICATION] = outcome.value  # the result below says what was found
    else:
        flash("verify", outcome)


def verify_tab(conn: Connection, domain: str, site: SiteDetail) -> None:
    st.caption(
        "Re-checks the VerifiedDR badge embed on a page of your site; a verified badge marks the site as "
        "verified in discovery. Paste the snippet from the Badges page first."
    )
    if site.last_verified_at:
        st.caption(f"Last checked {when_text(site.last_verified_at)}.")
    _, locked = access.write_permission()
    access.read_only_note(locked)
    with st.form("verify_form"):
        st.text_input("Page with the badge", value=site.url or f"https://{domain}/", key="verify_url")
        st.form_submit_button(
            "Verify badge",
            icon=":material/verified:",
            on_click=_verify,
            args=(conn,),
            disabled=locked is not None,
            help=locked,
        )
    show_flash("verify", subject="this page")
    result = st.session_state.get(LAST_VERIFICATION)
    if isinstance(result, Verification) and result.domain == domain:
        shown = st.success if result.verified else st.warning
        shown(
            escape_md(result.message or ("Verified." if result.verified else "Not verified.")),
            icon=":material/verified:",
        )
