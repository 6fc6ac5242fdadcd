"""Discover: trusted listed sites, filtered and ranked by TrueDR then DR, one click from a closer look."""

from __future__ import annotations

import streamlit as st

from client.errors import ApiError
from client.growth_inputs import MAX_FIND_LIMIT, DiscoveryFilters
from client.models import Categories
from components.core.cache import data
from components.core.cache.connection import current_connection
from components.core.nav.pages import DISCOVER, OVERVIEW, TRUST_MAP, link_to, page_header
from components.core.ui.errors import read_or_show_error, show_error
from components.core.ui.tables import table_with_export
from components.growth.charts import discovery_chart
from components.growth.frames import discovery_frame
from components.growth.widgets import RATINGS_COLUMNS, rating_floor, result_count, result_limit

DEFAULT_LIMIT = 20
#: The ratings, each in a narrow column, so that the table fits the page at 1280 px. A site's title is
#: too long for the room left, so it is not a column: the result picker under the table shows each
#: title in full (and the raw CSV has it).
COLUMNS = {
    "domain": st.column_config.TextColumn("Domain", pinned=True),
    **RATINGS_COLUMNS,
    "dr": {**RATINGS_COLUMNS["dr"], "width": 90},
    "true_dr": {**RATINGS_COLUMNS["true_dr"], "width": 90},
    "verified": st.column_config.CheckboxColumn("Verified"),
    "title": st.column_config.TextColumn("Title"),
}
ORDER = ["domain", "dr", "true_dr", "trust_score", "confidence", "traffic_validated", "category", "verified"]


def _category_filter(categories: Categories | None) -> str | None:
    labels = {c.value: c.label or c.value for c in categories.categories} if categories else {}
    choice = st.selectbox(
        "Category",
        options=["", *labels],
        format_func=lambda v: labels.get(v, v) if v else "Any category",
        key="category",
        bind="query-params",
        disabled=categories is None,
    )
    return choice or None


def _filters(categories: Categories | None) -> DiscoveryFilters:
    cols = st.columns([2, 1, 1, 1])
    with cols[0]:
        category = _category_filter(categories)
    with cols[1]:
        min_true_dr = rating_floor("Minimum TrueDR", key="min_true_dr")
    with cols[2]:
        min_dr = rating_floor("Minimum DR", key="min_dr")
    with cols[3]:
        limit = result_limit(
            "Results",
            key="limit",
            default=DEFAULT_LIMIT,
            step=5,
            help=f"At most {MAX_FIND_LIMIT}, the service's limit.",
        )
    with st.container(horizontal=True):
        validated = st.toggle("Traffic validated only", key="validated", bind="query-params")
        unverified = st.toggle(
            "Include unverified sites",
            key="unverified",
            bind="query-params",
            help="Sites that have not embedded the VerifiedDR badge.",
        )
    return DiscoveryFilters(
        category=category,
        min_true_dr=min_true_dr,
        min_dr=min_dr,
        traffic_validated=validated,
        include_unverified=unverified,
        limit=limit,
    )


def _open_result(titles: dict[str, str]) -> None:
    """Pick a result (by domain, with its title in full), then one click opens it on the Domain
    overview or the Trust Map."""
    with st.container(horizontal=True, vertical_alignment="bottom"):
        chosen = st.selectbox(
            "Open a result",
            list(titles),
            format_func=lambda domain: f"{domain} — {titles[domain]}" if titles[domain] else domain,
            key="discover_open",
            width=440,
        )
        if chosen:
            link_to(OVERVIEW, query_params={"domain": chosen})
            link_to(TRUST_MAP, query_params={"domain": chosen})


conn = current_connection()
page_header(
    DISCOVER,
    "Listed sites ranked by TrueDR, then DR: the partners whose authority is backed by traffic and clean "
    "links. Discovery spends no quota.",
    title="Discover trusted sites",
)

try:
    categories: Categories | None = data.categories(conn)
except ApiError as exc:
    categories = None
    st.caption("The category list could not be loaded, so the category filter is off for now.")
    show_error(exc, subject="the category list")

filters = _filters(categories)
found = read_or_show_error(data.discover, conn, filters, subject="these filters")
if found is None:
    st.stop()

labels = {c.value: c.label or c.value for c in categories.categories} if categories else {}
frame = discovery_frame(found, labels)
result_count(
    frame,
    noun="site",
    order="best first",
    none_left="No listed site matches these filters. Lower a minimum or include unverified sites.",
)
st.plotly_chart(data.figure(discovery_chart, frame), key="discover_chart")
table_with_export(
    frame,
    what="discover",
    subject=filters.category or "all-categories",
    key="discover",
    column_config=COLUMNS,
    column_order=ORDER,
    narrowed_to_fit=True,
)
_open_result({site.domain: site.title or "" for site in found.sites})
