"""The Trust Map page's Streamlit parts: the notice for a map still being built, the site's heading
and cards, the filters (which only re-shape the loaded map), and the map's charts and table.

The rows and figures come from ``components.research.map_view``, built once per map and filters.
"""

from __future__ import annotations

import streamlit as st

from analysis.research.frames.trust_map import SPAM_RISK_FROM, MapFilters, map_note
from analysis.text import escape_md, safe_http_url
from analysis.wording import skipped_rows_words, whole_number, yes_no
from client.errors import ApiError, InvalidInputError, NotFoundError, UnavailableError
from client.models import TrustMap
from components.core.cache import data
from components.core.cache.connection import Connection
from components.core.nav.pages import OVERVIEW, SITE_CHECK, link_to
from components.core.ui.errors import show_error, show_notice
from components.core.ui.tables import score_column, table_with_export
from components.history.widgets import watch_controls
from components.overview.widgets import site_heading
from components.research.map_view import map_table, map_view

MAP_COLUMNS = {
    "url": st.column_config.LinkColumn("Referring domain", display_text=r"https://(.*)", pinned=True),
    "dr": score_column("DR"),
    "backlinks": st.column_config.NumberColumn("Backlinks", format="localized"),
    "link_type": st.column_config.TextColumn("Link type"),
    "status": st.column_config.TextColumn("Status"),
    "importance": st.column_config.NumberColumn("Importance", format="%.1f", help="0–100"),
    "spam_score": st.column_config.NumberColumn("Spam score", format="%.0f", help="0–100"),
    "spam_risk": st.column_config.CheckboxColumn("Spam risk", help=f"Spam score of {SPAM_RISK_FROM} or more"),
}
TABLE_ORDER = list(MAP_COLUMNS)


def _public_page(conn: Connection, domain: str) -> str | None:
    """The site's public VerifiedDR page (from its lookup, which spends nothing), if known."""
    try:
        lookup = data.lookup(conn, domain)
    except ApiError:
        return None
    return safe_http_url(lookup.links.page) if lookup.links else None


def _cold(conn: Connection, domain: str, err: UnavailableError) -> None:
    """A cold map is a normal state, not a failure: say what is happening and what to do."""
    st.info(
        f"**The Trust Map of {escape_md(domain)} is being built.** The service has not cached this "
        "site's referring domains yet, and a map never triggers a paid backlink fetch. Open the "
        "site's Trust Map on VerifiedDR to have it built, or come back after the next refresh. "
        "Nothing was spent.",
        icon=":material/hourglass_top:",
    )
    if err.message:
        st.caption(f"Service said: {escape_md(err.message)}")
    cols = st.columns([1, 1, 3])
    page = _public_page(conn, domain)
    if page:
        cols[0].link_button("Open on VerifiedDR", page, icon=":material/open_in_new:")
    cols[1].button("Try again", key="map_retry", icon=":material/refresh:")


def _header(trust_map: TrustMap) -> None:
    site = trust_map.site
    site_heading(site.domain, site.title)
    cols = st.columns(4)
    cols[0].metric("DR", whole_number(site.dr), border=True)
    cols[1].metric("Verified", yes_no(site.verified), border=True)
    cols[2].metric("Referring domains", whole_number(trust_map.total_domains), border=True)
    cols[3].metric("In this map", whole_number(len(trust_map.domains)), border=True)
    links = st.columns([1, 1, 3])
    with links[0]:
        link_to(OVERVIEW, query_params={"domain": site.domain})
    with links[1]:
        link_to(SITE_CHECK, query_params={"domain": site.domain})


def _filters(frame_link_types: list[str], frame_statuses: list[str]) -> MapFilters:
    """The filter widgets; they only re-shape the map already loaded, never ask the API again."""
    cols = st.columns(4)
    link_types = cols[0].multiselect(
        "Link type", frame_link_types, key="map_link_type", bind="query-params", placeholder="All link types"
    )
    statuses = cols[1].multiselect(
        "Status", frame_statuses, key="map_status", bind="query-params", placeholder="All statuses"
    )
    min_dr = cols[2].slider("Minimum DR", 0, 100, 0, key="map_min_dr", bind="query-params")
    max_spam = cols[3].slider(
        "Maximum spam score",
        0,
        100,
        100,
        key="map_max_spam",
        bind="query-params",
        help=f"Spam scores run 0–100; the CLI flags {SPAM_RISK_FROM} or more as spam.",
    )
    return MapFilters(tuple(link_types), tuple(statuses), int(min_dr), float(max_spam))


def trust_map_report(conn: Connection, raw: str) -> None:
    """The typed site's Trust Map: heading, Watch, filters, charts and table; a map not built yet, an
    unlisted site or an error is explained instead."""
    try:
        trust_map = data.trust_map(conn, raw)
    except InvalidInputError as exc:
        show_error(exc)
        return
    except UnavailableError as exc:
        _cold(conn, data.domain(raw), exc)
        return
    except NotFoundError as exc:
        show_error(exc, subject=data.domain(raw))
        st.caption("Trust Maps exist only for listed sites. The Bulk DR checker rates any domain.")
        return
    except ApiError as exc:
        show_error(exc, subject=raw.strip())
        return

    _header(trust_map)
    watch_controls(conn, "domain", data.domain(raw), key="map")
    if trust_map.skipped:  # the usable rows are shown; the others are named, as text
        show_notice(skipped_rows_words(trust_map.skipped))
    table = map_table(trust_map)  # built once per map: a rerun only looks it up
    if table.frame.empty:
        if not trust_map.skipped:
            st.info("The service has no referring domains cached for this site.", icon=":material/info:")
        return

    filters = _filters(table.link_types, table.statuses)
    view = map_view(table, filters)  # the rows and charts, built once per map and filter values
    st.caption(
        map_note(len(table.frame), trust_map.total_domains, len(view.rows) if filters.active else None)
    )
    if view.rows.empty:
        st.info("No referring domain in this map matches these filters.", icon=":material/filter_alt_off:")
        return

    left, right = st.columns([2, 3])
    with left:
        st.plotly_chart(view.dr_bands, key="map_dr_bands")
    with right:
        st.plotly_chart(view.scatter, key="map_scatter")
    left, right = st.columns(2)
    with left:
        st.plotly_chart(view.link_types, key="map_link_types")
    with right:
        st.plotly_chart(view.statuses, key="map_statuses")

    table_with_export(
        view.rows,
        what="trust-map",
        subject=trust_map.site.domain,
        key="trust_map",
        column_config=MAP_COLUMNS,
        column_order=TABLE_ORDER,
    )
