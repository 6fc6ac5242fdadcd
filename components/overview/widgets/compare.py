"""Several sites side by side on the Domain overview: each typed entry looked up in turn, then the
comparison chart, the table (problems named beside their entry) and each site in full under it."""

from __future__ import annotations

import streamlit as st

from analysis.overview.charts import compare_chart
from analysis.overview.frames import compare_frame, compare_order, merged_note, problems_note
from analysis.wording import SIGNED_WHOLE_FORMAT
from client.errors import ApiError, InvalidInputError
from client.inputs import parse_domain_list
from client.models import Lookup
from components.core.cache import data
from components.core.cache.connection import Connection
from components.core.ui.tables import SITE_RATING_COLUMNS, WRAPPED_ROW_HEIGHT, table_with_export
from components.overview.widgets.cards import compare_details

#: Comparing more sites than this is a bulk job (the bulk DR checker), not a side-by-side view.
MAX_COMPARE = 20
#: An entry that is not a domain is shown as typed, up to this many characters.
MAX_ENTRY_CHARS = 200

#: The comparison at a glance, narrow enough to fit the page at 1280 px (with the Problem column too).
#: A site's title, confidence, verification, backlinks and weekly changes read in full in "Each site in
#: full" under the table, and are in both CSVs.
COMPARE_COLUMNS = {
    "domain": st.column_config.TextColumn("Domain", pinned=True, width=150),
    "title": st.column_config.TextColumn("Title"),
    **SITE_RATING_COLUMNS,
    "dr": {**SITE_RATING_COLUMNS["dr"], "width": 64},
    "true_dr": {**SITE_RATING_COLUMNS["true_dr"], "width": 68},
    "trust_score": {**SITE_RATING_COLUMNS["trust_score"], "width": 58, "help": "Backlink trust, 0–100"},
    "gap": st.column_config.NumberColumn("TrueDR − DR", format="%+d", width=90),
    "confidence": st.column_config.TextColumn("Confidence"),
    "traffic": st.column_config.NumberColumn(
        "Traffic", format="localized", width=88, help="Estimated monthly visits"
    ),
    "referring_domains": st.column_config.NumberColumn("Referring domains", format="localized", width=125),
    "backlinks": st.column_config.NumberColumn("Backlinks", format="localized"),
    "dr_weekly_change": st.column_config.NumberColumn("DR change this week", format="%+.1f"),
    "true_dr_weekly_change": st.column_config.NumberColumn("TrueDR change this week", format="%+.1f"),
    "traffic_change": st.column_config.NumberColumn("Traffic change this week", format=SIGNED_WHOLE_FORMAT),
    "verified": st.column_config.CheckboxColumn("Verified"),
    "error": st.column_config.TextColumn("Problem", width=165),
}


def compare(conn: Connection, text: str) -> None:
    """One row per entry, in the order typed: duplicates merged (and named), non-domains kept as rows."""
    parsed = parse_domain_list(text, limit=MAX_COMPARE)
    if not parsed.entries:
        st.caption("Enter two or more domains, one per line or separated by commas.")
        return
    if note := merged_note(parsed.duplicates):
        st.caption(note)  # the entries are code spans: shown as typed
    rows = [e for e in parsed.entries if e.same_as is None]
    progress = st.progress(0.0, text="Looking up domains…")
    results: list[tuple[str, Lookup | ApiError]] = []
    for i, entry in enumerate(rows, start=1):
        if entry.problem is not None or entry.domain is None:
            results.append(
                (entry.text[:MAX_ENTRY_CHARS], InvalidInputError(entry.problem or "Not a domain."))
            )
            continue
        try:
            results.append((entry.domain, data.lookup(conn, entry.domain)))
        except ApiError as exc:
            results.append((entry.domain, exc))
        progress.progress(i / len(rows), text=f"Looked up {i} of {len(rows)}")
    progress.empty()
    frame = compare_frame(results)
    failed = int(frame["error"].notna().sum())
    if failed:
        st.caption(problems_note(failed, len(frame)))
    if parsed.domains:
        st.plotly_chart(data.figure(compare_chart, frame), key="compare_chart")
    table_with_export(
        frame,
        what="domain-comparison",
        key="compare",
        column_config=COMPARE_COLUMNS,
        column_order=compare_order(failed),
        row_height=WRAPPED_ROW_HEIGHT if failed else None,  # a problem reads in full, over a few lines
        narrowed_to_fit=True,
    )
    compare_details([r for _, r in results if isinstance(r, Lookup)])
