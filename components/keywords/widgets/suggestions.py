"""The Keyword suggestions page's parts: a domain's keywords at positions 4 to 30, filtered by band and
sorted, as a chart and a table, and one click to research or track a suggestion.
"""

from __future__ import annotations

import streamlit as st

from analysis.keywords.charts import suggestions_chart
from analysis.keywords.frames.suggestions import (
    BANDS,
    SORTS,
    filter_bands,
    sort_suggestions,
    suggestions_frame,
)
from analysis.text import escape_md
from client.errors import ApiError, InvalidInputError
from components.core.cache import data
from components.core.cache.connection import Connection
from components.core.nav.pages import (
    KEYWORD_RESEARCH,
    TRACKED_KEYWORDS,
    link_to,
)
from components.core.ui.errors import show_error
from components.core.ui.tables import table_with_export
from components.keywords.widgets import site_to_track

DEMO_DOMAINS = ("example.com", "northwind-coffee.com", "hubspot.com", "stripe.com")

COLUMNS = {
    "keyword": st.column_config.TextColumn("Keyword"),
    "position": st.column_config.NumberColumn("Position", format="%d", help="The domain's Google position."),
    "band": st.column_config.TextColumn("Band"),
    "search_volume": st.column_config.NumberColumn("Search volume", format="localized", help="Per month."),
    "value_rank": st.column_config.NumberColumn(
        "Value rank", format="%d", help="The service's order: estimated traffic value, best first."
    ),
}


def _act_on_one(conn: Connection, keywords: list[str], domain: str) -> None:
    """Research a suggestion (its top 10 against this domain) or track it for one of your sites."""
    st.markdown("**Research or track a suggestion**")
    site = site_to_track(conn, domain) or domain
    cols = st.columns([3, 2, 2], vertical_alignment="bottom")
    keyword = cols[0].selectbox("Suggested keyword", keywords, key="suggestion_pick")
    if keyword is None:
        return
    with cols[1]:
        link_to(
            KEYWORD_RESEARCH, label="Research its top 10", query_params={"keyword": keyword, "domain": domain}
        )
    with cols[2]:
        link_to(
            TRACKED_KEYWORDS,
            label=f"Track it for {escape_md(site)}",
            icon=":material/add_chart:",
            query_params={"track": keyword, "domain": site},
        )


def show_suggestions(conn: Connection, raw: str) -> None:
    try:
        answer = data.keyword_suggestions(conn, raw)
    except InvalidInputError as exc:
        show_error(exc)
        return
    except ApiError as exc:
        show_error(exc, subject=data.domain(raw))
        return
    frame = suggestions_frame(answer)
    if frame.empty:
        st.info(
            f"**{escape_md(answer.domain)} has no qualifying rankings.** The service found no non-brand "
            "keywords it ranks at positions 4 to 30 for (one-word queries and brand searches are left "
            "out). A newer or smaller site often has none yet: try a competitor's domain.",
            icon=":material/search_off:",
        )
        return

    st.subheader(f"{len(frame)} keywords {escape_md(answer.domain)} could push up", anchor=False)
    cols = st.columns([3, 2], vertical_alignment="bottom")
    bands = cols[0].segmented_control(
        "Position band",
        [label for label, _, _ in BANDS],
        selection_mode="multi",
        key="bands",
        help="Page 1 rankings (4–10) are the quickest wins; none chosen shows every band.",
    )
    how = cols[1].selectbox("Sort by", list(SORTS), key="suggestion_sort")
    shown = sort_suggestions(filter_bands(frame, bands), how)
    if shown.empty:
        st.caption("No suggestion falls in the chosen bands.")
        return
    st.plotly_chart(data.figure(suggestions_chart, shown), key="suggestions_chart")
    table_with_export(
        shown,
        what="keyword-suggestions",
        subject=answer.domain,
        key="suggestions",
        column_config=COLUMNS,
    )
    if len(shown) < len(frame):
        st.caption(f"Showing {len(shown)} of {len(frame)} suggestions; the CSV holds the rows shown.")
    _act_on_one(conn, list(shown["keyword"]), answer.domain)
