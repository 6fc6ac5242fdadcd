"""The Coach's "Audit backlinks" tab: the trust risk, and the Trust Map's flagged referring domains.

The only tab that reads the Trust Map, so the map is fetched only when this tab is open. A cold map
(the service answers 503 while it builds one) is not an error here: the audit says so and falls back
to the lookup's public backlinks, as the vdr CLI does.
"""

from __future__ import annotations

import streamlit as st

from analysis.coach import rules as coach
from analysis.coach.charts import link_mix_chart, spam_chart
from analysis.coach.frames import flagged_frame, link_mix_frame, links_frame, referring_frame
from analysis.text import escape_md
from analysis.wording import NOT_AVAILABLE, whole_number
from client.errors import ApiError, UnavailableError
from client.models import Lookup, TrustMap
from components.coach.widgets.pieces import show_evidence
from components.core.cache import data
from components.core.cache.connection import Connection
from components.core.nav.pages import TRUST_MAP, link_to
from components.core.ui.errors import show_error
from components.core.ui.tables import table_with_export

LINK_COLUMNS = {
    "domain": st.column_config.TextColumn("Domain", pinned=True),
    "dr": st.column_config.ProgressColumn("DR", min_value=0, max_value=100, format="%d"),
    "follow": st.column_config.CheckboxColumn("Follow"),
    "status": st.column_config.TextColumn("Status"),
    "spam_score": st.column_config.ProgressColumn("Spam score", min_value=0, max_value=100, format="%.0f"),
    "backlinks": st.column_config.NumberColumn("Backlinks", format="localized"),
    "importance": st.column_config.NumberColumn("Importance", format="%.1f"),
    "flags": st.column_config.TextColumn("Flags"),
    "anchor": st.column_config.TextColumn("Anchor text"),
    "url": st.column_config.LinkColumn("Linking page"),
}


def load_map(conn: Connection, domain: str) -> tuple[TrustMap | None, coach.MapState]:
    """The Trust Map, or why there is none: a cold cache (503) means it is being built."""
    try:
        return data.trust_map(conn, domain), "ready"
    except UnavailableError:
        return None, "building"
    except ApiError as exc:
        show_error(exc, subject=f"the Trust Map of {domain}")
        return None, "unavailable"


def audit_tab(conn: Connection, lookup: Lookup, domain: str) -> None:
    """Trust score, referring domains and the map's coverage, the risk verdict, then the links."""
    trust_map, state = load_map(conn, domain)
    audit = coach.audit_backlinks(lookup, trust_map, map_state=state)
    cols = st.columns(3)
    cols[0].metric(
        "Trust score",
        NOT_AVAILABLE if audit.trust is None else f"{audit.trust}/100",
        border=True,
        help=f"Under {coach.WEAK_TRUST} is weak.",
    )
    cols[1].metric("Referring domains", whole_number(audit.referring_domains), border=True)
    cols[2].metric(
        "In the Trust Map",
        NOT_AVAILABLE if state != "ready" else whole_number(audit.mapped),
        help="The service caches up to 60 referring domains per site, most important first."
        + ("" if audit.total_domains is None else f" Total known: {audit.total_domains:,}."),
        border=True,
    )
    risk_box = {True: st.warning, False: st.success, None: st.info}[audit.trust_risk]
    risk_box(f"**Trust risk:** {escape_md(audit.risk)}", icon=":material/shield:")
    if audit.map_note:
        st.info(escape_md(audit.map_note), icon=":material/hourglass_top:")

    if state == "ready" and audit.mapped:
        _map_review(audit, trust_map, domain)

    _strongest_and_weakest(audit, domain)
    st.markdown(f"**Next:** {escape_md(audit.next_step)}")
    link_to(TRUST_MAP, label="Open the full Trust Map", query_params={"domain": domain})
    show_evidence(audit.sources)


def _map_review(audit: coach.BacklinkAudit, trust_map: TrustMap | None, domain: str) -> None:
    """What only the Trust Map shows: the link mix, heuristic findings and the flagged domains."""
    cols = st.columns(4)
    cols[0].metric("Live follow", audit.live_follow, border=True)
    cols[1].metric(f"Spam score ≥ {coach.SPAM_FLAG}", len(audit.spam), border=True)
    cols[2].metric("Lost", len(audit.lost), border=True)
    cols[3].metric("Nofollow", len(audit.nofollow), border=True)
    for finding in audit.findings:
        with st.container(border=True):
            st.markdown(f":orange-badge[Heuristic] **{escape_md(finding.title)}**")
            st.write(escape_md(finding.detail))
            show_evidence(finding.sources)
    left, right = st.columns(2)
    with left:
        st.plotly_chart(data.figure(link_mix_chart, link_mix_frame(trust_map)), key="coach_mix_chart")
    with right:
        st.plotly_chart(data.figure(spam_chart, referring_frame(trust_map)), key="coach_spam_chart")
    st.markdown("#### Flagged referring domains")
    flagged = flagged_frame(audit)
    if flagged.empty:
        st.caption("No mapped referring domain is spam-flagged, lost or nofollow.")
        return
    table_with_export(
        flagged.drop(columns=["anchor", "url"]),
        what="flagged-referring-domains",
        subject=domain,
        key="audit_flagged",
        column_config=LINK_COLUMNS,
    )


def _strongest_and_weakest(audit: coach.BacklinkAudit, domain: str) -> None:
    """The strongest, then the weakest links, from the map when it is ready, else the lookup.

    One above the other, each the page's width: side by side, half a page could not show a link's
    columns (follow, status, spam score, flags; or its anchor and linking page) without cutting them off.
    """
    where = (
        "the Trust Map's referring domains" if audit.links_from == "map" else "the lookup's public backlinks"
    )
    st.markdown(f"#### Strongest and weakest links, from {where}")
    for label, rows, key in (
        ("Strongest", audit.strongest, "audit_strongest"),
        ("Weakest", audit.weakest, "audit_weakest"),
    ):
        st.markdown(f"**{label}**")
        frame = links_frame(rows)
        if frame.empty:
            st.caption("The service returned none.")
        else:
            table_with_export(
                frame.dropna(axis="columns", how="all"),
                what=f"{label.lower()}-links",
                subject=domain,
                key=key,
                column_config=LINK_COLUMNS,
            )
