"""Discover: trusted listed sites, filtered and ranked by TrueDR then DR, one click from a closer look."""

from __future__ import annotations

import streamlit as st

from analysis.growth.charts import discovery_chart
from analysis.growth.frames import discovery_frame
from client.errors import ApiError
from client.models import Categories
from components.core.cache import data
from components.core.cache.connection import current_connection
from components.core.nav.pages import DISCOVER, page_header
from components.core.ui.errors import read_or_show_error, show_error
from components.core.ui.tables import table_with_export
from components.growth.widgets import result_count
from components.growth.widgets.discover import COLUMNS, ORDER, discovery_filters, open_result

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

filters = discovery_filters(categories)
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
open_result({site.domain: site.title or "" for site in found.sites})
