"""The Market page's Visibility and Share of voice tabs: your sites against every domain in the watched
keywords' top 10s, over the period and on its latest day, with the tables behind the charts."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from analysis.figures import market_charts as charts
from analysis.wording import change_since, counted
from components.core.cache import data
from components.core.ui.tables import table_with_export
from components.market.widgets.selection import MarketView

PERCENT = "%.1f%%"
POINTS = "%+.1f"
STANDING_CONFIG = {
    "domain": st.column_config.TextColumn("Domain", pinned=True),
    "role": st.column_config.TextColumn("Who"),
    "visibility": st.column_config.NumberColumn(
        "Visibility", format=PERCENT, help="100% = first for every keyword"
    ),
    "visibility_change": st.column_config.NumberColumn(
        "Visibility change", format=POINTS, help="Points since the period's first day"
    ),
    "share_of_voice": st.column_config.NumberColumn("Share of voice", format=PERCENT),
    "share_change": st.column_config.NumberColumn(
        "Share change", format=POINTS, help="Points since the period's first day"
    ),
    "weighted_visibility": st.column_config.NumberColumn("Volume-weighted visibility", format=PERCENT),
}


def _formula_caption(view: MarketView) -> None:
    curve = ", ".join(f"{value:g}" for value in view.ctr)
    keywords = int(view.figures["keywords"].iloc[-1])
    st.caption(
        f"Over the {counted(keywords, 'keyword')} with a recorded top 10 on the latest "
        "day. **Visibility**: the mean over those keywords of the clicks a domain's position earns, as a "
        "share of the first place's (100% = first for every keyword; 0 when not in a keyword's top 10). "
        "**Share of voice**: a domain's expected clicks as a share of every domain's in those top 10s "
        f"(a day's shares add up to 100%). Clicks by position 1–10, in % of searches: {curve}."
    )


def _own_metrics(view: MarketView, table: pd.DataFrame) -> None:
    rows = table.set_index("domain")
    shown = [site for site in view.own if site in rows.index][:4]
    first_day = view.figures["day"].min()
    for column, site in zip(st.columns(max(1, len(shown))), shown, strict=False):
        row = rows.loc[site]
        change = row["visibility_change"]
        held = not pd.isna(change) and abs(change) < 0.05  # no arrow for a number that did not move
        column.metric(
            f"Visibility of {site}",
            f"{row['visibility']:.1f}%",
            delta=None if pd.isna(change) else change_since(change, first_day),
            delta_color="off" if held else "normal",
            delta_arrow="off" if held else "auto",
            border=True,
        )


def visibility_tab(view: MarketView) -> None:
    table = view.standing
    _own_metrics(view, table)
    weighted = bool(view.figures["weighted_visibility"].notna().any())
    column = "visibility"
    if weighted and st.toggle("Weigh keywords by search volume", key="market_weighted"):
        column = "weighted_visibility"
    markers = view.markers("market_visibility", view.domains)
    st.plotly_chart(
        data.figure(charts.visibility_chart, view.lines, view.domains, column, markers),
        key="market_visibility_chart",
    )
    order = [name for name in STANDING_CONFIG if weighted or name != "weighted_visibility"]
    table_with_export(
        table,
        what="market-standing",
        subject=view.file_subject,
        key="market_standing",
        column_config=STANDING_CONFIG,
        column_order=order,
    )
    _formula_caption(view)


def share_tab(view: MarketView) -> None:
    table = view.standing
    latest = pd.Timestamp(view.figures["day"].max())
    left, right = st.columns([2, 3])
    with left:
        st.plotly_chart(
            data.figure(charts.latest_share_chart, table, view.domains, latest), key="market_share_bars"
        )
    with right:
        markers = view.markers("market_share", view.domains)
        st.plotly_chart(
            data.figure(charts.share_over_time_chart, view.lines, view.domains, markers),
            key="market_share_chart",
        )
    by_day = view.lines.pivot(index="day", columns="domain", values="share_of_voice")[view.domains]
    by_day = by_day.reset_index().assign(day=lambda f: f["day"].dt.date)
    config = {"day": st.column_config.DateColumn("Day", format="MMM D, YYYY", pinned=True)} | {
        domain: st.column_config.NumberColumn(domain, format=PERCENT) for domain in view.domains
    }
    table_with_export(
        by_day,
        what="share-of-voice",
        subject=view.file_subject,
        key="market_share_by_day",
        column_config=config,
    )
    _formula_caption(view)
