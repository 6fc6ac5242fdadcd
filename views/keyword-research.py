"""Keyword research: the DR needed to rank in the live US Google top 10, for one keyword or several."""

from __future__ import annotations

import streamlit as st

from client.errors import ApiError, InvalidInputError, PaymentRequiredError, RateLimitedError
from client.models import KeywordReport
from components.common.text import escape_md, fmt_number
from components.common.wording import describe_error
from components.core import data
from components.core.connection import Connection, current_connection
from components.core.demo_picker import demo_picker
from components.core.errors import show_error
from components.core.pages import (
    KEYWORD_RESEARCH,
    KEYWORD_SUGGESTIONS,
    TRACKED_KEYWORDS,
    link_to,
    page_header,
)
from components.core.shared_inputs import domain_input
from components.core.tables import score_column, table_with_export
from components.history.widgets import watch_controls
from components.keywords.charts import distribution_chart, serp_chart
from components.keywords.frames.ranking import Outcome, distribution_frame, parse_keyword_list, ranking_frame
from components.keywords.frames.report import (
    TIER_LABELS,
    gap_words,
    present_columns,
    report_median,
    report_min,
    serp_frame,
    verdict,
)
from components.keywords.widgets import owned_sites, site_to_track

#: Each keyword is one report; more than this is a bulk job, and uncached ones meet a stricter limiter.
MAX_KEYWORDS = 10
DEMO_KEYWORDS = ("web analytics", "coffee beans", "espresso machine", "best crm software")
TIER_NOTE = (
    "Tiers (boost, advanced, ultra) are the service's historical labels for the size of the gap, "
    "not names of plans you can buy."
)
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
RANKING_COLUMNS = {
    "rank": st.column_config.NumberColumn("#", format="%d", help="Most winnable first.", pinned=True),
    "keyword": st.column_config.TextColumn("Keyword", pinned=True),
    "gap": st.column_config.NumberColumn("Gap", format="%+g", help=GAP_HELP),
    "gap_words": st.column_config.TextColumn("Against the median"),
    "tier": st.column_config.TextColumn("Tier", help=TIER_NOTE),
    "median_dr": score_column("Median DR", format="%g"),
    "min_dr": st.column_config.NumberColumn("Min DR", format="%g", help="The lowest-DR entry point."),
    "unknown_dr": st.column_config.NumberColumn("DR unknown", format="%d", help="Left out of the median."),
    "your_dr": st.column_config.NumberColumn("Your DR", format="%d"),
    "known_results": st.column_config.NumberColumn("Results with DR", format="%d"),
    "source": st.column_config.TextColumn("Source"),
    "error": st.column_config.TextColumn("Problem"),
}
#: Your DR (the same on every line) is said once under the table, and the count of results with a DR
#: is what "DR unknown" leaves: so that the table fits the page, both wait in its column menu.
RANKING_HIDDEN = ("your_dr", "known_results")


def _use_keyword(keyword: str) -> None:
    st.session_state["keyword"] = keyword
    st.session_state["kw_compare"] = False


def _gate(err: PaymentRequiredError) -> None:
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


def _problem(err: ApiError, keyword: str) -> None:
    if isinstance(err, PaymentRequiredError) and err.is_gate:
        _gate(err)
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
    cols[0].metric("Median DR", fmt_number(median), border=True, help="Median DR of the top 10.")
    cols[1].metric("Min DR", fmt_number(lowest), border=True, help="The lowest-DR entry point.")
    if user is None:
        cols[2].metric("Results with unknown DR", unknown, border=True, help="Left out of the median.")
        return
    cols[2].metric(f"DR of {escape_md(user.domain)}", fmt_number(user.dr), border=True)
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
    getattr(st, reading.level)(body, icon=icon[reading.level])
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


def _single(conn: Connection, raw_keyword: str, raw_domain: str | None) -> None:
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
        _problem(exc, keyword)
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
            f"{unknown} result{'s' if unknown != 1 else ''} with an unknown DR: shown empty, not as 0, "
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


def _research_all(
    conn: Connection, keywords: tuple[str, ...], domain: str | None
) -> tuple[list[tuple[str, Outcome]], ApiError | None]:
    """Research each keyword in turn; one failure never stops the others.

    A 402 gate stops the run (it applies to every keyword). After a 429 the keywords this app has not
    cached are not asked: they would meet the same limiter, and waiting is the user's call.
    """
    outcomes: list[tuple[str, Outcome]] = []
    progress = st.progress(0.0, text="Researching keywords…")
    stopper: ApiError | None = None
    for i, keyword in enumerate(keywords, start=1):
        cached = data.is_cached(conn, "keyword_report", keyword, domain)
        if isinstance(stopper, RateLimitedError) and not cached:
            outcomes.append((keyword, "Not asked: the rate limit was reached. Run again in a moment."))
            continue
        text = f"Researching “{escape_md(keyword)}” ({i} of {len(keywords)})…"
        progress.progress((i - 1) / len(keywords), text=text)
        try:
            outcomes.append((keyword, data.keyword_report(conn, keyword, domain)))
        except PaymentRequiredError as exc:
            if exc.is_gate:
                progress.empty()
                return outcomes, exc
            outcomes.append((keyword, _words(exc)))
        except RateLimitedError as exc:
            stopper = exc
            outcomes.append((keyword, _words(exc)))
        except ApiError as exc:
            outcomes.append((keyword, _words(exc)))
    progress.empty()
    return outcomes, stopper


def _words(err: ApiError) -> str:
    view = describe_error(err)
    return f"{view.title}: {view.advice}"


def _compare(conn: Connection, text: str, raw_domain: str | None) -> None:
    try:
        domain = data.domain_or_none(raw_domain)
    except InvalidInputError as exc:
        show_error(exc)
        return
    parsed = parse_keyword_list(text, limit=MAX_KEYWORDS)
    for item, reason in parsed.rejected:
        st.warning(f"Skipped “{escape_md(item[:80])}”: {escape_md(reason)}", icon=":material/block:")
    if not parsed.keywords:
        st.caption(f"Enter two or more keywords, one per line (up to {MAX_KEYWORDS}).")
        return
    fresh = sum(not data.is_cached(conn, "keyword_report", k, domain) for k in parsed.keywords)
    note = st.empty()
    if fresh:
        note.caption(f"Asking the service for {fresh} of {len(parsed.keywords)} keywords, one at a time.")
    outcomes, stopper = _research_all(conn, parsed.keywords, domain)
    if fresh:
        total = len(parsed.keywords)
        asked = (
            f"All {total} keywords were asked just now."
            if fresh == total
            else f"{fresh} of {total} keywords were asked just now; the others came from this app's cache."
        )
        note.caption(f"{asked} {LIVE_SERP_NOTE}")
    if isinstance(stopper, PaymentRequiredError):
        _gate(stopper)
        return
    if stopper is not None:
        _problem(stopper, "some keywords")
    reports = [o for _, o in outcomes if isinstance(o, KeywordReport)]
    ranking = ranking_frame(outcomes)
    failed = int(ranking["error"].notna().sum())
    if failed:
        st.caption(f"{failed} of {len(ranking)} keywords have no result; see the Problem column.")
    user = next((r.user for r in reports if r.user is not None), None)
    st.plotly_chart(
        data.figure(
            distribution_chart,
            distribution_frame(reports),
            ranking,
            user_dr=user.dr if user else None,
            user_domain=user.domain if user else None,
        ),
        key="distribution_chart",
    )
    order = present_columns(ranking.drop(columns=list(RANKING_HIDDEN)), ("gap", "gap_words", "tier", "error"))
    if failed:
        order.remove("error")
        order.insert(2, "error")  # a failure is explained next to its keyword, not off-screen
    st.markdown("**Keywords by how winnable they are**" if user else "**Keywords, easiest first**")
    table_with_export(
        ranking,
        what="keyword-comparison",
        subject=domain,
        key="kw_ranking",
        column_config=RANKING_COLUMNS,
        column_order=order,
    )
    yours = f"Your DR: {user.dr}. " if user and user.dr is not None else ""
    st.caption(
        yours
        + ("Ranked by gap (median DR − your DR), smallest first. " if user else "Ranked by median DR. ")
        + "Unknown DRs are left out of every median and minimum. "
        + (TIER_NOTE if user else "Add your domain to rank by your gap.")
    )
    researched = [r.keyword for r in reports]
    if researched:
        cols = st.columns([3, 1], vertical_alignment="bottom")
        pick = cols[0].selectbox("Open one keyword in detail", researched, key="kw_open")
        cols[1].button("Open", key="kw_open_button", on_click=_use_keyword, args=(pick,), width="stretch")


conn = current_connection()
page_header(
    KEYWORD_RESEARCH,
    "The DR you need to rank in the live US Google top 10 for a keyword. Research spends no quota units; "
    "it needs a running growth program.",
)

compare_mode = st.toggle("Compare several keywords", key="kw_compare", bind="query-params")
left, right = st.columns([3, 2])
with right:
    domain_text = domain_input(
        label="Your domain (optional)",
        help_text="With a domain you also get its DR, the gap to the top 10, the tier and a verdict.",
    )
with left:
    if compare_mode:
        keywords_text = st.text_area(
            "Keywords to compare",
            key="keywords",
            bind="query-params",
            placeholder="web analytics\nprivacy friendly analytics\ncookieless tracking",
            help=f"One per line, up to {MAX_KEYWORDS}.",
        )
    else:
        keyword_text = st.text_input(
            "Keyword",
            key="keyword",
            bind="query-params",
            placeholder="web analytics",
            help="A search query as people type it into Google (US, English).",
        )

if compare_mode:
    _compare(conn, keywords_text or "", domain_text)
elif keyword_text and keyword_text.strip():
    _single(conn, keyword_text, domain_text)
else:
    demo_picker(conn, DEMO_KEYWORDS, key_prefix="demo_kw", label="Try a demo keyword:", on_pick=_use_keyword)
