"""Keyword research, one keyword: its top 10 with your gap, tier and verdict, and where to go next.

Also what every part of the page shows when the service refuses: the growth-program gate as a panel,
any other error with the keyword it concerns. ``comparison`` draws several keywords with the same.
"""

from __future__ import annotations

import streamlit as st

from analysis.keywords.charts import serp_chart
from analysis.keywords.frames.report import (
    TIER_LABELS,
    gap_words,
    present_columns,
    report_median,
    report_min,
    serp_frame,
    verdict,
)
from analysis.text import escape_md
from analysis.wording import counted, short_number
from client.errors import ApiError, InvalidInputError, PaymentRequiredError, RateLimitedError
from client.models import KeywordReport
from components.core.cache import data
from components.core.cache.connection import Connection
from components.core.nav.pages import KEYWORD_SUGGESTIONS, TRACKED_KEYWORDS, link_to
from components.core.ui.errors import callout, show_error
from components.core.ui.tables import score_column, table_with_export
from components.history.widgets import watch_controls
from components.keywords.widgets.pieces import owned_sites, site_to_track

#: Each keyword is one report; more than this is a bulk job, and uncached ones meet a stricter limiter.
MAX_KEYWORDS = 10
DEMO_KEYWORDS = ("web analytics", "coffee beans", "espresso machine", "best crm software")
TIER_NOTE = (
    "Tiers (boost, advanced, ultra) are the service's historical labels for the size of the gap, "
    "not names of plans you can buy."
)
#: What a research asks of the service (the tracked-keyword writes have their own note in ``pieces``).
LIVE_SERP_NOTE = (
    "A keyword the service has not fetched recently pays a live Google search, which the service "
    "rate-limits more strictly than other calls; keywords fetched before come back from its cache."
)

GAP_HELP = (
    "Median DR of the top 10 minus your DR, as the service counts it: below 0 you are above the "
    "median (you clear the bar), above 0 you are short of it."
)
#: DRs are whole numbers; a median falls halfway between two results at most ("%g" shows 40, 40.5).
SERP_COLUMNS = {
    "position": st.column_config.NumberColumn("Position", format="%d"),
    "domain": st.column_config.TextColumn("Domain"),
    "dr": score_column("DR", help="Empty when the DR is unknown."),
    "title": st.column_config.TextColumn("Title"),
    "url": st.column_config.LinkColumn("Page", display_text=r"https?://[^/]+(/.*)", help="The ranking page."),
    "tracked_site": st.column_config.TextColumn(
        "Tracked site", help="Whether VerifiedDR tracks the site: yes, or your site when it is one of yours."
    ),
    "tracked_slug": None,  # the service's identifier of a tracked site: in the raw CSV only
}


def use_keyword(keyword: str) -> None:
    """Widget callback: open ``keyword`` on its own (leaving the comparison)."""
    st.session_state["keyword"] = keyword
    st.session_state["kw_compare"] = False


def gate(err: PaymentRequiredError) -> None:
    """The 402 gate as a panel: what is blocked, the plan that opens it, and the upgrade link."""
    with st.container(border=True):
        show_error(err, subject="keyword research")
        st.caption(
            "Keyword research runs live Google searches, so the service offers it only to accounts with "
            "a running growth program. Your key itself works; other pages are not affected by this gate."
        )
        cols = st.columns(2)
        with cols[0]:
            link_to(KEYWORD_SUGGESTIONS)
        with cols[1]:
            link_to(TRACKED_KEYWORDS)


def problem(err: ApiError, keyword: str) -> None:
    """A refused research: the gate panel, or the error about ``keyword`` (with the limiter's note)."""
    if isinstance(err, PaymentRequiredError) and err.is_gate:
        gate(err)
        return
    show_error(err, subject=f"“{keyword}”")
    if isinstance(err, RateLimitedError):
        st.caption(LIVE_SERP_NOTE)


def _source_badge(report: KeywordReport) -> None:
    when = f" · fetched {report.fetched_at:%Y-%m-%d %H:%M} UTC" if report.fetched_at else ""
    if report.cached is None:
        st.caption(f"The service did not say whether this came from its cache{when}.")
    elif report.cached:
        st.badge(f"From cache{when}", icon=":material/cached:", color="gray")
    else:
        st.badge(f"Live SERP{when}", icon=":material/bolt:", color="green")


def _numbers(report: KeywordReport) -> None:
    median, lowest = report_median(report), report_min(report)
    unknown = sum(1 for r in report.results if r.dr is None)
    user = report.user
    # With a domain, the Gap card is wider: it says in words which side of the median you are.
    cols = st.columns([1, 1, 1.2, 1.8, 1] if user else 3)
    cols[0].metric("Median DR", short_number(median), border=True, help="Median DR of the top 10.")
    cols[1].metric("Min DR", short_number(lowest), border=True, help="The lowest-DR entry point.")
    if user is None:
        cols[2].metric("Results with unknown DR", unknown, border=True, help="Left out of the median.")
        return
    cols[2].metric(f"DR of {escape_md(user.domain)}", short_number(user.dr), border=True)
    gap = "not available" if user.gap is None else f"{user.gap:+g}"
    cols[3].metric(
        "Gap",
        gap,
        delta=gap_words(user.gap),
        delta_color="orange" if user.gap is not None and user.gap > 0 else "green",
        delta_arrow="off",
        border=True,
        help=GAP_HELP,
    )
    cols[4].metric(
        "Tier", escape_md(user.tier) if user.tier else "not available", border=True, help=TIER_NOTE
    )


def _verdict(report: KeywordReport) -> None:
    reading = verdict(report)
    if reading is None:
        st.caption("Add your domain above to see your gap to the top 10, your tier and a verdict.")
        return
    icon = {
        "success": ":material/thumb_up:",
        "info": ":material/trending_up:",
        "warning": ":material/hiking:",
    }
    body = f"**{escape_md(reading.headline)}**  \n{escape_md(reading.detail)}"
    callout(reading.level, body, icon=icon[reading.level])
    tier = report.user.tier if report.user else None
    label = TIER_LABELS.get(tier or "", tier)
    st.caption((f"Tier: {escape_md(label)}. " if label else "") + TIER_NOTE)


def _next_steps(conn: Connection, keyword: str, domain: str | None) -> None:
    cols = st.columns(2)
    site = site_to_track(conn, domain)
    track = {"track": keyword, **({"domain": site} if site else {})}
    with cols[0]:
        link_to(TRACKED_KEYWORDS, label="Track this keyword", icon=":material/add_chart:", query_params=track)
    if domain:
        with cols[1]:
            link_to(
                KEYWORD_SUGGESTIONS,
                label=f"Keywords {escape_md(domain)} could win",
                query_params={"domain": domain},
            )


def single_keyword(conn: Connection, raw_keyword: str, raw_domain: str | None) -> None:
    """One keyword's research as typed: the numbers, the verdict, the top 10 as chart and table."""
    try:
        keyword = data.keyword(raw_keyword)
        domain = data.domain_or_none(raw_domain)
    except InvalidInputError as exc:
        show_error(exc)
        return
    try:
        with st.spinner("Fetching the top 10…"):
            report = data.keyword_report(conn, keyword, domain)
    except ApiError as exc:
        problem(exc, keyword)
        return

    st.subheader(escape_md(report.keyword), anchor=False)
    _source_badge(report)
    watch_controls(conn, "keyword", keyword, key="kw", site=domain)
    _numbers(report)
    _verdict(report)
    user = report.user
    st.plotly_chart(
        data.figure(
            serp_chart,
            serp_frame(report),
            median_dr=report_median(report),
            min_dr=report_min(report),
            user_dr=user.dr if user else None,
            user_domain=user.domain if user else None,
        ),
        key="serp_chart",
    )
    frame = serp_frame(report, set((owned_sites(conn) or {}).values()))
    unknown = int(frame["dr"].isna().sum())
    if unknown:
        st.caption(
            f"{counted(unknown, 'result')} with an unknown DR: shown empty, not as 0, "
            "and left out of the median and minimum."
        )
    table_with_export(
        frame,
        what="keyword-top10",
        subject=report.keyword,
        key="serp",
        column_config=SERP_COLUMNS,
        column_order=present_columns(frame.drop(columns="tracked_slug"), ("title", "url", "tracked_site")),
    )
    _next_steps(conn, report.keyword, domain)
