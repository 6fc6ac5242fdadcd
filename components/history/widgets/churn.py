"""The History page's Trust Map churn tab: referring domains that appeared or disappeared between two
chosen snapshots of a site's Trust Map sample, new spam-risky domains and links that went from live to
lost, with the sample's totals over the year before the later snapshot. A link's ``history_domain``
(an alert's "Chart") picks the site; an alert's link also picks the two snapshots it compared, and
its referring domain leads the table."""

from __future__ import annotations

from datetime import date, timedelta

import streamlit as st

from analysis.figures import history_evidence as evidence
from analysis.figures import link_changes
from analysis.figures.history_charts import trust_map_totals_chart
from analysis.figures.history_evidence import LinkedEvidence
from analysis.links import DOMAIN_PARAM
from analysis.text import escape_md
from analysis.wording import plural, screen_day
from components.core.cache import data
from components.core.history.source import HistorySource
from components.core.ui.tables import score_column, table_with_export
from components.history.widgets import alert_window
from components.history.widgets.notes import chart_markers
from components.history.widgets.pieces import domain_choices, linked

CHURN_COLUMNS = {
    "change": st.column_config.TextColumn("Change", pinned=True),
    "referring_domain": st.column_config.TextColumn("Referring domain", pinned=True),
    "dr": score_column("DR"),
    "backlinks": st.column_config.NumberColumn("Backlinks", format="localized"),
    "link_type": st.column_config.TextColumn("Link type"),
    "status": st.column_config.TextColumn("Status"),
    "spam_score": st.column_config.NumberColumn("Spam score", format="%.0f", help="0–100"),
    "importance": st.column_config.NumberColumn("Importance", format="%.1f", help="0–100"),
}
#: Where the churn tab keeps the alert link it took (it has no period of its own).
EVIDENCE_KEY = "history_churn"
#: The site the last alert link opened (its referring domain is looked for in that site's churn only).
LINKED_SITE = "_history_churn_alert_site"


def compared_days(days: list[date], shown: LinkedEvidence) -> tuple[date, date] | None:
    """The two snapshots an alert compared, among ``days``: its day (or the latest map before it) and
    its earlier day (or the map before that); None when the site has no map on or before the day."""
    if shown.end is None:
        return None
    after = max((d for d in days if d <= shown.end), default=None)
    if after is None:
        return None
    earlier = [d for d in days if d < after]
    if not earlier:
        return None
    before = shown.before if shown.before in earlier else earlier[-1]
    return before, after


def _named_caption(table_rows: list[str], referring_domain: str) -> None:
    if referring_domain in table_rows:
        st.caption(f"The alert's referring domain, **{escape_md(referring_domain)}**, is first in the table.")
    else:
        st.caption(
            f"The alert's referring domain, {escape_md(referring_domain)}, did not change between "
            "these two snapshots."
        )


def churn_tab(source: HistorySource, own: dict[str, str]) -> None:
    choices, _ = domain_choices(source, own)
    if not choices:
        st.info("Nothing is watched yet: add domains on the Watchlist tab.", icon=":material/visibility:")
        return
    taken = alert_window.take_link(EVIDENCE_KEY)
    asked = linked("domain", "churn") or (st.query_params.get(DOMAIN_PARAM) if taken else None)
    if asked and asked in choices:  # an alert's link opens the churn of its site
        st.session_state["history_churn_domain"] = asked
    if taken is not None:
        st.session_state[LINKED_SITE] = asked
    domain = st.selectbox("Site", choices, key="history_churn_domain")
    days = source.trust_map_days(domain)
    shown = alert_window.active(EVIDENCE_KEY) if st.session_state.get(LINKED_SITE) == domain else None
    compared = compared_days(days, shown) if shown is not None else None
    if taken is not None and compared is not None:
        st.session_state[f"history_churn_days_{domain}"] = compared
    if len(days) < 2:
        st.info(
            f"{len(days) or 'No'} Trust Map {plural(len(days), 'snapshot')} of "
            f"{escape_md(domain)} so far; churn compares two. Each day the job runs (or someone opens "
            "its Trust Map) adds one.",
            icon=":material/hourglass_empty:",
        )
        return
    latest = days[-1]
    month_before = max((d for d in days if d <= latest - timedelta(days=30)), default=days[0])
    start, end = st.select_slider(
        "Compare the snapshots of",
        options=days,
        value=(month_before, latest),  # a range; an alert's link sets the two days it compared
        format_func=screen_day,
        key=f"history_churn_days_{domain}",
    )
    if start == end:
        st.caption("Pick two different days.")
        return
    totals = source.trust_map_totals(domain, end - timedelta(days=364))
    skipped = link_changes.skipped_on(totals, end)  # rows of the later map that could not be used: unknown
    result = link_changes.churn(
        source.trust_map_links(domain, start), source.trust_map_links(domain, end), skipped
    )
    cols = st.columns(4)
    for col, (label, count) in zip(cols, result.counts().items(), strict=True):
        col.metric(label.capitalize(), count, border=True)
    unknown = link_changes.unknown_words(result, end, skipped)
    if unknown:
        st.caption(escape_md(unknown))
    markers = chart_markers(
        source, key="history_churn_totals", since=end - timedelta(days=364), until=end, subjects=[domain]
    )
    st.plotly_chart(data.figure(trust_map_totals_chart, totals, domain, markers), key="history_churn_totals")
    table = link_changes.churn_table(result)
    named = shown.referring_domain if shown is not None else None
    table = evidence.first_named(table, named)
    if named:
        _named_caption(list(table["referring_domain"].astype(str).str.lower()), named)
    if table.empty and result.unknown.empty:  # with unknown ones, the sample may not have held the same
        st.caption(f"The sample held the same referring domains on {start:%b %d} and {end:%b %d}.")
    table_with_export(
        table,
        what="trust-map-churn",
        subject=domain,
        key="history_churn",
        column_config=CHURN_COLUMNS,
        column_order=list(CHURN_COLUMNS),
    )
    st.caption(
        f"Between {screen_day(start)} and {screen_day(end)}, in the Trust Map sample (up to 60 referring "
        "domains). Spam-risky: a spam score of 50 or more."
    )
