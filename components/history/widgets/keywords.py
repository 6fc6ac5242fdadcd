"""The History page's Keyword positions tab: for one of your sites' tracked keywords, or the keywords
watched for one site, the positions over time with the top 10 shaded, the gap to the top 10's median
DR, and per keyword its best position ever and days in the top 10. A link naming a keyword
(``history_keyword``, and ``history_site`` for a watched one: an alert's chart) opens the site that
tracks it, or the keywords watched for that site, with that keyword on the charts. Keywords watched
before sites were recorded are shown apart, as "site unknown": their rows measured another site.
An alert's link (``history_site`` then names a tracked site's slug or a watched keyword's domain) also
shows its window and marks the keyword's before and after positions (``alert_window``)."""

from __future__ import annotations

from datetime import date

import pandas as pd
import streamlit as st

from analysis.figures import history_evidence as evidence
from analysis.figures import history_frames as frames
from analysis.keywords.frames.report import TIER_HELP
from analysis.links import KEYWORD_PARAM, SITE_PARAM
from analysis.text import escape_md
from analysis.wording import screen_day
from components.core.cache import data
from components.core.history.source import HistorySource
from components.core.ui.tables import table_with_export
from components.history.widgets import alert_window
from components.history.widgets.notes import chart_markers
from components.history.widgets.pieces import DEFAULT_PERIOD, linked, one_day_note

PERIOD_KEY = "history_kw_period"
#: The keyword the last alert link named (the one its marks are on).
LINKED_KEYWORD = "_history_alert_keyword"
CHOSEN_KEY = "history_kw_chosen"
#: The Site box's choice the keywords on the charts were chosen for: a new site starts on its own.
CHOSEN_FOR = "_history_kw_chosen_for"
#: The choice of keywords watched before sites were recorded (stored with site "").
WATCHED_SITE_UNKNOWN = "Watched keywords, site unknown"
DAY = st.column_config.DateColumn("Day", format="YYYY-MM-DD")
SUMMARY_COLUMNS = {
    "keyword": st.column_config.TextColumn("Keyword", pinned=True),
    "position": st.column_config.NumberColumn("Position", format="%d", help="On the latest recorded day."),
    "change": st.column_config.NumberColumn(
        "Change", format="%+d", help="Places gained since the day before."
    ),
    "best_position": st.column_config.NumberColumn(
        "Best ever", format="%d", help="The best position in all the history kept, whatever the period."
    ),
    "best_day": st.column_config.DateColumn("First at best", format="YYYY-MM-DD"),
    "days_in_top_10": st.column_config.NumberColumn("Days in top 10", format="%d", help="In this period."),
    "days_recorded": st.column_config.NumberColumn("Days recorded", format="%d", help="In this period."),
    "median_dr": st.column_config.NumberColumn("Median DR", format="%g"),
    "gap": st.column_config.NumberColumn("Gap", format="%+g", help="Median DR of the top 10 minus your DR."),
    "latest_day": st.column_config.DateColumn("Latest day", format="YYYY-MM-DD"),
}
#: The table of every recorded day of the keywords on the charts.
DAILY_COLUMNS = {
    "keyword": SUMMARY_COLUMNS["keyword"],
    "day": DAY,
    "position": st.column_config.NumberColumn("Position", format="%d"),
    "previous_position": st.column_config.NumberColumn(
        "Previous position", format="%d", help="The position the service reported before this day's."
    ),
    "median_dr": st.column_config.NumberColumn("Median DR", format="%g", help="Of the top 10 that day."),
    "gap": SUMMARY_COLUMNS["gap"],
    "tier": st.column_config.TextColumn("Tier", help=TIER_HELP),
}
#: What the table shows: each keyword's latest day is said under it instead, so the table fits a
#: 1280 px page (the CSV keeps the column).
SUMMARY_SHOWN = [c for c in SUMMARY_COLUMNS if c != "latest_day"]


def as_of_caption(summary: pd.DataFrame) -> str:
    """The day the positions stand for, and how many keywords were last recorded before it."""
    days = pd.to_datetime(summary["latest_day"])
    latest = days.max()
    earlier = int((days < latest).sum())
    said = f"Positions on {screen_day(latest)}, the latest recorded day"
    if earlier:
        said += (
            f"; {earlier} keyword{'s were' if earlier != 1 else ' was'} last recorded earlier (the CSV has "
            "each keyword's latest day)"
        )
    return said + ". Change: places gained since the day before."


def _site_tracking(source: HistorySource, own: dict[str, str], keyword: str, today: date) -> str | None:
    """Which of your sites tracks ``keyword`` (recorded in the default period), for a link that names
    only the keyword (an alert's chart); None when none does."""
    since = frames.since(DEFAULT_PERIOD, today)
    for domain, slug in own.items():
        if keyword in set(source.keyword_summary(slug, since, None)["keyword"]):
            return domain
    return None


def watched_for(site: str) -> str:
    """The choice of the keywords watched for ``site`` (a domain)."""
    return f"Watched for {site}"


def _site_options(source: HistorySource, own: dict[str, str]) -> dict[str, str]:
    """Each choice of the Site box → the ``site`` its rows are recorded under: your sites' tracked
    keywords (their slugs), then the keywords watched for each site, then those whose site is unknown."""
    watched_sites = sorted({site for kind, _s, _o, site in source.watch_items() if kind == "keyword"})
    options = {domain: slug for domain, slug in own.items()}
    options.update({watched_for(site): site for site in watched_sites if site})
    if "" in watched_sites or not source.keyword_summary("", None, None).empty:
        options[WATCHED_SITE_UNKNOWN] = ""
    return options


def asked_site(site: str, own: dict[str, str]) -> str:
    """The Site box's choice a link's ``history_site`` names: a tracked site's slug is that site; any
    other value is the domain watched keywords are measured for."""
    tracked = {slug: domain for domain, slug in own.items()}
    return tracked.get(site) or watched_for(site)


def _marks(keywords: list[str]) -> evidence.Marks | None:
    shown = alert_window.active(PERIOD_KEY)
    keyword = st.session_state.get(LINKED_KEYWORD)
    if shown is None or shown.end is None or keyword not in keywords:
        return None
    return evidence.Marks(str(keyword), "position", shown.before, shown.end)


def keywords_tab(source: HistorySource, own: dict[str, str], today: date) -> None:
    options = _site_options(source, own)
    taken = alert_window.take_link(PERIOD_KEY)
    asked = linked("keyword", "keyword") or (st.query_params.get(KEYWORD_PARAM) if taken else None)
    if taken is not None:
        st.session_state[LINKED_KEYWORD] = asked
    if asked:
        site_param = st.query_params.get(SITE_PARAM)
        where = asked_site(site_param, own) if site_param else _site_tracking(source, own, asked, today)
        if where in options:
            st.session_state["history_kw_site"] = where
    if not options:
        st.info(
            "Keyword positions are kept for your own sites' tracked keywords and for keywords you watch "
            "(Watch on Keyword research). Neither has any yet.",
            icon=":material/track_changes:",
        )
        return
    left, right = st.columns([3, 2], vertical_alignment="bottom")
    site = left.selectbox("Site", list(options), key="history_kw_site")
    with right:
        since, until = alert_window.period_or_window(PERIOD_KEY, today)
    # Counted where the rows are: a period of 5,000 keywords is never read for one row each.
    summary = source.keyword_summary(options[site], since, until)
    if site == WATCHED_SITE_UNKNOWN:
        st.caption(
            "These keywords were watched before a keyword had a site: their positions were measured for "
            "whichever of your sites came first, so they may not be the site you meant. Pick a site for "
            "each on the Watchlist tab; new positions are then kept for that site."
        )
    if summary.empty:
        st.info(
            f"No keyword position recorded for {escape_md(site)} in this period yet.",
            icon=":material/hourglass_empty:",
        )
        return
    cols = st.columns(3)
    cols[0].metric("Keywords", len(summary), border=True)
    cols[1].metric("In the top 10 now", int((summary["position"] <= frames.TOP_10).sum()), border=True)
    cols[2].metric("Ever in the top 10", int((summary["best_position"] <= frames.TOP_10).sum()), border=True)
    keywords = list(summary["keyword"])
    default = [asked] if asked in keywords else frames.chart_keywords(summary)
    # The choice lives in Session State alone (a default as well makes Streamlit warn): set on the first
    # view, for a linked keyword, and when another site's keywords were chosen.
    if asked in keywords or st.session_state.get(CHOSEN_FOR) != site or CHOSEN_KEY not in st.session_state:
        st.session_state[CHOSEN_KEY] = default
    st.session_state[CHOSEN_FOR] = site
    chosen = st.multiselect("Keywords on the charts", keywords, key=CHOSEN_KEY)
    chart_rows = frames.keyword_rows(source.keyword_days(options[site], tuple(chosen), since, until), chosen)
    marks = _marks(chosen)
    markers = chart_markers(source, key="history_rank", since=since, until=until or today, subjects=chosen)
    st.plotly_chart(
        data.figure(evidence.rank_with_evidence, chart_rows, chosen, marks, markers), key="history_rank"
    )
    one_day_note(chart_rows, lambda: source.keyword_days(options[site], tuple(chosen), None, None))
    if marks is not None:
        keyword_rows = chart_rows[chart_rows["keyword"] == marks.subject]
        points = evidence.evidence_points(keyword_rows, marks, "position")
        alert_window.marks_caption(points, f"“{marks.subject}”")
    gap_markers = chart_markers(source, key="history_gap", since=since, until=until or today, subjects=chosen)
    st.plotly_chart(
        data.figure(evidence.gap_in_window, chart_rows, chosen, marks, gap_markers), key="history_gap"
    )
    st.caption(
        "Gap: the median DR of the sites in the top 10 for the keyword minus your site's DR. Above the "
        "line your site is that many points short of the median; below it, ahead."
    )
    st.markdown("**Every keyword**")
    table_with_export(
        summary,
        what="keyword-history",
        subject=site,
        key="history_kw_summary",
        column_config=SUMMARY_COLUMNS,
        column_order=SUMMARY_SHOWN,
        narrowed_to_fit=True,
    )
    st.caption(as_of_caption(summary))
    with st.expander("Every recorded day of the keywords on the charts"):
        daily = chart_rows.loc[:, list(DAILY_COLUMNS)]
        daily = daily.assign(day=pd.to_datetime(daily["day"]).dt.date)
        table_with_export(
            daily, what="keyword-positions", subject=site, key="history_kw_daily", column_config=DAILY_COLUMNS
        )
