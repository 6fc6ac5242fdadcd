"""The Discover page's parts: its filters (category, minimum ratings, how many, traffic-validated and
unverified sites), the results table's columns, and the picker that opens a result on the Domain
overview or the Trust Map."""

from __future__ import annotations

import streamlit as st

from client.growth_inputs import MAX_FIND_LIMIT, DiscoveryFilters
from client.models import Categories
from components.core.nav.pages import OVERVIEW, TRUST_MAP, link_to
from components.growth.widgets.filters import RATINGS_COLUMNS, rating_floor, result_limit

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


def category_filter(categories: Categories | None) -> str | None:
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


def discovery_filters(categories: Categories | None) -> DiscoveryFilters:
    cols = st.columns([2, 1, 1, 1])
    with cols[0]:
        category = category_filter(categories)
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


def open_result(titles: dict[str, str]) -> None:
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
