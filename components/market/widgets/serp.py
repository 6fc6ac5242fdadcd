"""The Market page's top-10 tabs: who entered and who left each watched keyword's top 10 between two
days, and each keyword's top-10 DR over time (is it getting harder?)."""

from __future__ import annotations

from datetime import timedelta

import pandas as pd
import streamlit as st

from analysis.figures import market_charts as charts
from analysis.market import serp_churn
from analysis.wording import screen_day
from components.core.cache import data
from components.core.ui.tables import score_column, table_with_export
from components.market.widgets.selection import LINKED_WINDOW, MarketView

CHURN_CONFIG = {
    "keyword": st.column_config.TextColumn("Keyword", pinned=True),
    "change": st.column_config.TextColumn("Change"),
    "domain": st.column_config.TextColumn("Domain"),
    "position": st.column_config.NumberColumn("Position", format="%d"),
    "dr": score_column("DR"),
}
SPREAD_CONFIG = {
    "keyword": st.column_config.TextColumn("Keyword", pinned=True),
    "first_median": st.column_config.NumberColumn("Median DR then", format="%.1f"),
    "median_dr": st.column_config.NumberColumn("Median DR now", format="%.1f"),
    "median_change": st.column_config.NumberColumn("Change", format="%+.1f"),
    "min_dr": st.column_config.NumberColumn("Lowest DR now", format="%.0f", help="The entry point"),
    "spread": st.column_config.NumberColumn("Spread now", format="%.0f", help="Highest DR − lowest DR"),
}


def churn_tab(view: MarketView) -> None:
    days = view.days
    if len(days) < 2:
        st.info("One day of top 10s so far; churn compares two.", icon=":material/hourglass_empty:")
        return
    latest = days[-1]
    week_before = max((d for d in days if d <= latest - timedelta(days=7)), default=days[0])
    linked = st.session_state.pop(LINKED_WINDOW, None)
    if linked is not None and linked[0] in days and linked[1] in days:  # an alert's two days
        st.session_state["market_churn_days"] = linked
    before, after = st.select_slider(
        "Compare the top 10s of",
        options=days,
        value=(week_before, latest),
        format_func=screen_day,
        key="market_churn_days",
    )
    if before == after:
        st.caption("Pick two different days.")
        return
    churn = serp_churn(view.top10s_on(before, after), before, after)
    counts = st.columns(3)
    counts[0].metric("Entered a top 10", int((churn["change"] == "entered").sum()), border=True)
    counts[1].metric("Left a top 10", int((churn["change"] == "left").sum()), border=True)
    counts[2].metric("Keywords that changed", int(churn["keyword"].nunique()), border=True)
    if churn.empty:
        st.caption(f"Every top 10 held the same domains on {before:%b %d} and {after:%b %d}.")
    table_with_export(
        churn, what="top10-churn", subject=view.file_subject, key="market_churn", column_config=CHURN_CONFIG
    )
    st.caption(
        "An entry shows its position and DR on the later day; an exit, on the earlier day. Keywords "
        "without a top 10 on both days are left out."
    )


def _spread_table(spread: pd.DataFrame) -> pd.DataFrame:
    ordered = spread.sort_values("day", kind="stable")
    first = ordered.groupby("keyword").first()
    last = ordered.groupby("keyword").last()
    return pd.DataFrame(
        {
            "keyword": last.index,
            "first_median": first["median_dr"].to_numpy(),
            "median_dr": last["median_dr"].to_numpy(),
            "median_change": (last["median_dr"] - first["median_dr"]).to_numpy(),
            "min_dr": last["min_dr"].to_numpy(),
            "spread": last["spread"].to_numpy(),
        }
    ).sort_values("median_change", ascending=False, kind="stable")


def difficulty_tab(view: MarketView) -> None:
    spread = view.spread()
    if spread.empty:
        st.info("No top 10 in this period has a rated domain.", icon=":material/hourglass_empty:")
        return
    keywords = sorted(spread["keyword"].unique())
    keyword = st.selectbox("Keyword", keywords, key="market_spread_keyword")
    rows = spread[spread["keyword"] == keyword]
    markers = view.markers("market_spread", [keyword])
    st.plotly_chart(data.figure(charts.dr_spread_chart, rows, keyword, markers), key="market_spread_chart")
    table_with_export(
        _spread_table(spread),
        what="top10-dr",
        subject=view.file_subject,
        key="market_spread",
        column_config=SPREAD_CONFIG,
    )
    st.caption(
        "From the period's first recorded day to its last. A rising median: the keyword is getting "
        "harder to rank for. Domains whose DR the service could not resolve are left out, never counted as 0."
    )
