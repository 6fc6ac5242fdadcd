"""History: how watched domains, their Trust Maps and your tracked keywords moved over time.

The rows come from the history store through a small source object (``history.page_source``), so
the page never names the database; when the database cannot be used the page says why and stops.
"""

from __future__ import annotations

from datetime import date, timedelta

import pandas as pd
import streamlit as st

from client.errors import ApiError, InvalidInputError
from components.common.text import escape_md
from components.core import data, history
from components.core.connection import Connection, current_connection
from components.core.errors import show_error
from components.core.pages import HISTORY, page_header
from components.core.tables import score_column, table_with_export
from components.core.tabs import lazy_tabs
from components.history import frames
from components.history.charts import (
    gap_chart,
    metric_trend_chart,
    rank_chart,
    ratings_trend_chart,
    trust_map_totals_chart,
)
from components.history.source import HistorySource
from components.history.widgets import (
    CHURN_TAB,
    DOMAIN_TAB,
    KEYWORD_TAB,
    TAB_KEY,
    WATCHLIST_TAB,
    demo_label,
    guarded,
    unavailable_notice,
    watch_controls,
    watchlist_tab,
)
from components.keywords.widgets import owned_sites

#: Side by side, more lines than this stop being readable.
MAX_DOMAINS = 8
DEFAULT_PERIOD = "90 days"
WATCHED_KEYWORDS = "Watched keywords"
OTHER_METRICS = {"traffic": "Traffic", "referring_domains": "Referring domains", "trust_score": "Trust"}

DAY = st.column_config.DateColumn("Day", format="YYYY-MM-DD")
WEEKLY_COLUMNS = {
    "domain": st.column_config.TextColumn("Domain", pinned=True),
    "week_ending": st.column_config.DateColumn("Week ending", format="YYYY-MM-DD"),
    "dr": st.column_config.NumberColumn("DR", format="%d"),
    "dr_change": st.column_config.NumberColumn("DR Δ", format="%+g"),
    "true_dr": st.column_config.NumberColumn("TrueDR", format="%d"),
    "true_dr_change": st.column_config.NumberColumn("TrueDR Δ", format="%+g"),
    "trust_score": st.column_config.NumberColumn("Trust", format="%d"),
    "trust_score_change": st.column_config.NumberColumn("Trust Δ", format="%+g"),
    "traffic": st.column_config.NumberColumn("Traffic", format="localized"),
    "traffic_change": st.column_config.NumberColumn("Traffic Δ", format="%+d"),
    "referring_domains": st.column_config.NumberColumn("Referring domains", format="localized"),
    "referring_domains_change": st.column_config.NumberColumn("Ref. domains Δ", format="%+d"),
}
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
SUMMARY_COLUMNS = {
    "keyword": st.column_config.TextColumn("Keyword", pinned=True),
    "position": st.column_config.NumberColumn("Position", format="%d", help="On the latest recorded day."),
    "change": st.column_config.NumberColumn(
        "Change", format="%+d", help="Places gained since the day before."
    ),
    "best_position": st.column_config.NumberColumn("Best ever", format="%d"),
    "best_day": st.column_config.DateColumn("First at best", format="YYYY-MM-DD"),
    "days_in_top_10": st.column_config.NumberColumn("Days in top 10", format="%d"),
    "days_recorded": st.column_config.NumberColumn("Days recorded", format="%d"),
    "median_dr": st.column_config.NumberColumn("Median DR", format="%g"),
    "gap": st.column_config.NumberColumn("Gap", format="%+g", help="Median DR of the top 10 minus your DR."),
    "latest_day": st.column_config.DateColumn("Latest day", format="YYYY-MM-DD"),
}


def _own_sites(conn: Connection) -> dict[str, str]:
    """Your sites as {domain: slug}; put on the watchlist, since their history is always kept."""
    try:
        listing = data.sites(conn)
    except ApiError as exc:
        show_error(exc, subject="your sites")
        return {}
    mine = owned_sites(conn) or {}
    if listing.sites:
        history.remember_own_sites(conn, list(mine))
    return mine


def _period(key: str) -> str:
    return (
        st.segmented_control(
            "Period",
            list(frames.PERIODS),
            default=DEFAULT_PERIOD,
            required=True,
            key=key,
            bind="query-params",
        )
        or DEFAULT_PERIOD
    )


def _linked(name: str, key: str) -> str | None:
    """A domain or keyword the URL asks for (a link from another page), each new one chosen once."""
    value = st.query_params.get(name)
    if value and st.session_state.get(f"_history_linked_{key}") != value:
        st.session_state[f"_history_linked_{key}"] = value
        return value
    return None


def _domain_choices(source: HistorySource, own: dict[str, str]) -> tuple[list[str], set[str]]:
    watched = [s for kind, s, _ in source.watch_items() if kind == "domain"]
    choices = list(dict.fromkeys([*own, *watched]))
    return choices, set(own) | {s for kind, s, origin in source.watch_items() if origin == "own"}


def _domain_trends(conn: Connection, source: HistorySource, own: dict[str, str], today: date) -> None:
    choices, mine = _domain_choices(source, own)
    linked = _linked("domain", "domains")
    if linked:
        try:
            linked = data.domain(linked)
        except InvalidInputError:
            linked = None
    if linked and linked not in choices:
        choices.insert(0, linked)
    if linked:
        st.session_state["history_domains"] = [linked]
    if not choices:
        st.info(
            "Nothing is watched yet. Add your competitors on the Watchlist tab, or press Watch on the "
            "Domain overview or the Trust Map.",
            icon=":material/visibility:",
        )
        return
    default = [d for d in choices if d in mine][:1] + [d for d in choices if d not in mine][:3]
    left, right = st.columns([3, 2], vertical_alignment="bottom")
    selected = left.multiselect(
        "Domains",
        choices,
        default=default or choices[:1],
        key="history_domains",
        max_selections=MAX_DOMAINS,
        help="Your sites and the domains you watch; pick several to see them side by side.",
    )
    with right:
        period = _period("history_period")
    if not selected:
        st.caption("Pick one or more domains.")
        return
    watched_domains = {s for kind, s, _ in source.watch_items() if kind == "domain"} | set(own)
    for domain in [d for d in selected if d not in watched_domains][:2]:
        st.caption(f"{escape_md(domain)} is not watched: nothing new is kept for it.")
        watch_controls(conn, "domain", domain, key=f"history_watch_{domain}")
    rows = source.domain_history(selected, frames.since(period, today))
    if rows.empty:
        when = "so far" if frames.PERIODS.get(period) is None else f"in the last {period}"
        st.info(
            f"Nothing recorded for {escape_md(', '.join(selected))} {when}. A watched domain gets a row "
            "each day the snapshot job runs or someone opens it in the app.",
            icon=":material/hourglass_empty:",
        )
        return
    moves = frames.largest_moves(rows, n=5)
    st.plotly_chart(data.figure(ratings_trend_chart, rows, moves, order=selected), key="history_ratings")
    if not moves.empty:
        st.caption(
            "Ringed: the largest week-over-week moves (each line's largest): "
            + "; ".join(
                f"{m.domain} {frames.TREND_METRICS[m.metric]} {m.change:+g} in the week to {m.day:%b %d}"
                for m in moves.itertuples()
            )
            + "."
        )
    metric = (
        st.segmented_control(
            "Also over time",
            list(OTHER_METRICS),
            format_func=OTHER_METRICS.get,
            default="traffic",
            required=True,
            key="history_metric",
        )
        or "traffic"
    )
    st.plotly_chart(data.figure(metric_trend_chart, rows, metric, order=selected), key="history_metric_chart")
    st.markdown("**Week over week**")
    weekly = frames.week_over_week(rows)
    table_with_export(
        weekly,
        what="domain-history-weekly",
        subject=selected[0] if len(selected) == 1 else None,
        key="history_weekly",
        column_config=WEEKLY_COLUMNS,
        column_order=list(WEEKLY_COLUMNS),
    )
    st.caption("Each week's last recorded value (weeks end on Sunday) and its change since the week before.")


def _churn(source: HistorySource, own: dict[str, str]) -> None:
    choices, _ = _domain_choices(source, own)
    if not choices:
        st.info("Nothing is watched yet: add domains on the Watchlist tab.", icon=":material/visibility:")
        return
    domain = st.selectbox("Site", choices, key="history_churn_domain")
    days = source.trust_map_days(domain)
    if len(days) < 2:
        st.info(
            f"{len(days) or 'No'} Trust Map snapshot{'s' if len(days) != 1 else ''} of "
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
        value=(month_before, latest),
        format_func=lambda d: f"{d:%b %d, %Y}",
        key=f"history_churn_days_{domain}",
    )
    if start == end:
        st.caption("Pick two different days.")
        return
    result = frames.churn(source.trust_map_links(domain, start), source.trust_map_links(domain, end))
    counts = result.counts()
    cols = st.columns(4)
    for col, (label, count) in zip(cols, counts.items(), strict=True):
        col.metric(label.capitalize(), count, border=True)
    totals = source.trust_map_totals(domain, end - timedelta(days=364))
    st.plotly_chart(data.figure(trust_map_totals_chart, totals, domain), key="history_churn_totals")
    table = frames.churn_table(result)
    if table.empty:
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
        f"Between {start:%b %d, %Y} and {end:%b %d, %Y}, in the Trust Map sample (up to 60 referring "
        "domains). Spam-risky: a spam score of 50 or more."
    )


def _keywords(source: HistorySource, own: dict[str, str], today: date) -> None:
    watched = sorted(s for kind, s, _ in source.watch_items() if kind == "keyword")
    options = [*own, *([WATCHED_KEYWORDS] if watched else [])]
    linked = _linked("keyword", "keyword")
    if linked and WATCHED_KEYWORDS in options:
        st.session_state["history_kw_site"] = WATCHED_KEYWORDS
    if not options:
        st.info(
            "Keyword positions are kept for your own sites' tracked keywords and for keywords you watch "
            "(Watch on Keyword research). Neither has any yet.",
            icon=":material/track_changes:",
        )
        return
    left, right = st.columns([3, 2], vertical_alignment="bottom")
    site = left.selectbox("Site", options, key="history_kw_site")
    with right:
        period = _period("history_kw_period")
    slug = "" if site == WATCHED_KEYWORDS else own[site]
    rows = source.keyword_history(slug, frames.since(period, today))
    if rows.empty:
        st.info(
            f"No keyword position recorded for {escape_md(site)} in this period yet.",
            icon=":material/hourglass_empty:",
        )
        return
    summary = frames.keyword_summary(rows)
    cols = st.columns(3)
    cols[0].metric("Keywords", len(summary), border=True)
    cols[1].metric("In the top 10 now", int((summary["position"] <= frames.TOP_10).sum()), border=True)
    cols[2].metric("Ever in the top 10", int((summary["best_position"] <= frames.TOP_10).sum()), border=True)
    keywords = list(summary["keyword"])
    default = [linked] if linked in keywords else frames.chart_keywords(summary)
    if linked in keywords:
        st.session_state["history_kw_chosen"] = default
    chosen = st.multiselect("Keywords on the charts", keywords, default=default, key="history_kw_chosen")
    chart_rows = frames.keyword_rows(rows, chosen)
    st.plotly_chart(data.figure(rank_chart, chart_rows, chosen), key="history_rank")
    st.plotly_chart(data.figure(gap_chart, chart_rows, chosen), key="history_gap")
    st.markdown("**Every keyword**")
    table_with_export(
        summary,
        what="keyword-history",
        subject=site,
        key="history_kw_summary",
        column_config=SUMMARY_COLUMNS,
        column_order=list(SUMMARY_COLUMNS),
    )
    with st.expander("Every recorded day of the keywords on the charts"):
        daily = chart_rows.loc[
            :, ["keyword", "day", "position", "previous_position", "median_dr", "gap", "tier"]
        ]
        daily = daily.assign(day=pd.to_datetime(daily["day"]).dt.date)
        table_with_export(
            daily, what="keyword-positions", subject=site, key="history_kw_daily", column_config={"day": DAY}
        )


conn = current_connection()
page_header(
    HISTORY,
    "How your sites, your competitors and your keywords moved: DR and TrueDR over months, referring "
    "domains gained and lost, positions over time. Kept once a day for what you watch.",
)
is_demo = history.ensure_demo_history(conn)
source = history.page_source(conn)
if source is None:
    unavailable_notice()
    st.stop()
if is_demo:
    demo_label()
own = _own_sites(conn)
today = history.history_day(conn)
lazy_tabs(
    {
        DOMAIN_TAB: guarded(lambda: _domain_trends(conn, source, own, today)),
        CHURN_TAB: guarded(lambda: _churn(source, own)),
        KEYWORD_TAB: guarded(lambda: _keywords(source, own, today)),
        WATCHLIST_TAB: guarded(lambda: watchlist_tab(conn, own)),
    },
    key=TAB_KEY,
)
