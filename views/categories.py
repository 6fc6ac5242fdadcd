"""Categories: the values site submission and discovery filters accept, and how many a site may have."""

from __future__ import annotations

import streamlit as st

from analysis.research.frames.categories import categories_frame, max_per_site_text
from components.core.cache import data
from components.core.cache.connection import current_connection
from components.core.nav.pages import CATEGORIES, page_header
from components.core.ui.errors import read_or_show_error
from components.core.ui.tables import table_with_export

#: Streamlit's dataframe row height; a short list is shown whole rather than in a scroll box.
ROW_HEIGHT_PX = 35
CATEGORY_COLUMNS = {
    "value": st.column_config.TextColumn("Value", help="What submission and discovery filters send"),
    "label": st.column_config.TextColumn("Label"),
}

conn = current_connection()
page_header(
    CATEGORIES,
    "The site categories the service knows, as used when submitting a site and when filtering "
    "discovery. Reading them spends no quota.",
)
categories = read_or_show_error(data.categories, conn, subject="the category list")
if categories is not None:
    frame = categories_frame(categories)
    st.metric(
        "Categories per site, at most",
        "not stated" if categories.max_per_site is None else categories.max_per_site,
    )
    if categories.max_per_site is None:
        st.caption(max_per_site_text(categories))
    if frame.empty:
        st.info("The service returned no categories.", icon=":material/info:")
    else:
        table_with_export(
            frame,
            what="categories",
            key="categories",
            column_config=CATEGORY_COLUMNS,
            height=ROW_HEIGHT_PX * (len(frame) + 1) + 3,  # the whole list, no inner scrolling
        )
