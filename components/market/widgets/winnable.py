"""The Market page's When winnable tab: for each keyword watched for a site (the page's chosen keywords
and group), when the site's DR reaches its top 10's median DR and, as a first foothold, its lowest DR,
at the pace both kept, in a few words per target so the table fits a laptop; one keyword's answers in full
and its two charts on choosing it. From the recorded history only (no API
call); the fits, words and charts are ``analysis.opportunities``'."""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd
import streamlit as st

from analysis.links import opportunities_query
from analysis.opportunities import projection_dates, projection_words, winnable_chart
from analysis.opportunities.outlook import Outlook, outlook_table, outlooks_of
from analysis.opportunities.winnable import MIN_WEEKS
from analysis.opportunities.words import projection_answer
from analysis.text import escape_md
from analysis.wording import counted
from components.core.cache import data
from components.core.nav.pages import OPPORTUNITIES, link_to
from components.core.ui.tables import csv_download
from components.market.frames import FiguresMemo
from components.market.widgets.selection import MarketView

WINNABLE_TAB = "When winnable"
KEYWORD_KEY = "market_winnable_keyword"
WINNABLE_CONFIG = {
    "site": st.column_config.TextColumn("Site", pinned=True),
    "keyword": st.column_config.TextColumn("Keyword", pinned=True),
    "site_dr": st.column_config.NumberColumn("Your DR now", format="%.0f"),
    "median_dr": st.column_config.NumberColumn(
        "Top-10 median DR now", format="%.1f", help="Without your site's own result"
    ),
    "min_dr": st.column_config.NumberColumn(
        "Top-10 lowest DR now", format="%.0f", help="Without your site's own result: the entry point"
    ),
    "median_when": st.column_config.TextColumn(
        "Reaching the median DR", help="When your DR reaches the top 10's median DR, at both paces so far"
    ),
    "median_dates": st.column_config.TextColumn("Median DR: when"),
    "lowest_when": st.column_config.TextColumn(
        "Reaching the lowest DR (first foothold)",
        help="When your DR reaches the lowest DR in the top 10, at both paces so far",
    ),
    "lowest_dates": st.column_config.TextColumn("Lowest DR: when"),
}
#: What the table shows, under short labels so that it fits a laptop's width (1280 px) without
#: scrolling sideways: the DRs now and each target's answer in a few words (``answer_words``). The
#: chosen keyword's answers read in full under the table; the CSVs keep every column of
#: ``WINNABLE_CONFIG`` under its full label.
WINNABLE_SCREEN = {
    "site": WINNABLE_CONFIG["site"],
    "keyword": WINNABLE_CONFIG["keyword"],
    "site_dr": st.column_config.NumberColumn("Your DR", format="%.0f", help="Your site's DR now"),
    "median_dr": st.column_config.NumberColumn(
        "Median DR", format="%.1f", help="The top 10's median DR now, without your site's own result"
    ),
    "median_answer": st.column_config.TextColumn(
        "Median DR reached",
        help="When your DR reaches the top 10's median DR at the pace so far; choose the keyword under "
        "the table for the full answer, with its band",
    ),
    "min_dr": st.column_config.NumberColumn(
        "Lowest DR",
        format="%.0f",
        help="The top 10's lowest DR now, without your site's own result: the entry point",
    ),
    "lowest_answer": st.column_config.TextColumn(
        "Lowest DR reached",
        help="When your DR reaches the lowest DR in the top 10 (a first foothold); choose the keyword "
        "under the table for the full answer",
    ),
}
#: Each target as the chosen keyword's full answer names it.
TARGET_NAMES = {
    "median": "Reaching the top 10's median DR",
    "lowest": "Reaching its lowest DR (first foothold)",
}

#: The outlooks of the last few reads: a warm rerun (choosing another keyword) fits nothing again.
_MEMO: FiguresMemo[tuple[dict[str, Mapping[str, pd.DataFrame]], list[Outlook]]] = FiguresMemo()


def _pairs(view: MarketView) -> list[tuple[str, str]]:
    """Each (site, keyword) watched for a site among the page's keywords (its site's, its group's)."""
    keywords = set(view.keywords())
    return sorted(
        {
            (site, subject)
            for kind, subject, _origin, site in view.source.watch_items()
            if kind == "keyword" and site and subject in keywords and view.site in (None, site)
        }
    )


def _outlooks(view: MarketView, pairs: list[tuple[str, str]]) -> list[Outlook]:
    """The whole recorded history of each pair (not only the period chosen): a trend needs weeks. The top
    10s' DRs by day are computed where the rows are, per site without its own results; only those series
    cross into memory, never the history's top-10 rows."""
    sites = sorted({site for site, _ in pairs})
    with st.spinner(f"Reading the top 10s' DRs of {counted(len(pairs), 'keyword')}…"):
        domain_rows = view.source.domain_history(sites, None)
        top10s = {
            site: view.source.top10_drs(view.site, site, tuple(k for s, k in pairs if s == site))
            for site in sites
        }

    def compute() -> tuple[dict[str, Mapping[str, pd.DataFrame]], list[Outlook]]:
        with st.spinner(f"Fitting the trends of {counted(len(pairs), 'keyword')}…"):
            return top10s, outlooks_of(domain_rows, top10s, pairs)

    # The entry holds ``domain_rows`` and the series (shared answers of the history's cache), so the
    # identities in the key stay theirs while the entry lives.
    key = (tuple(pairs), tuple(id(series) for series in top10s.values()))
    return _MEMO.get(domain_rows, key, compute)[1]


def _unrecorded_sites(found: list[Outlook]) -> list[str]:
    return sorted({o.site for o in found if o.site_dr.dropna().empty})


def _charts(found: list[Outlook], single_site: bool) -> None:
    """The chosen keyword's two answers in full (the table shows them in a few words) and its two charts;
    the keywords in the table's order (the nearest first)."""
    by_pair = {(o.site, o.keyword): o for o in found}

    def label(pair: tuple[str, str]) -> str:
        return pair[1] if single_site else f"{pair[1]} (watched for {pair[0]})"

    chosen = st.selectbox("Keyword", list(by_pair), format_func=label, key=KEYWORD_KEY)
    outlook = by_pair.get(chosen, found[0]) if chosen is not None else found[0]
    for target in ("median", "lowest"):
        projection = outlook.projection(target)
        dates = projection_dates(projection)
        st.markdown(
            f"**{TARGET_NAMES[target]}:** {escape_md(projection_words(projection))}"
            + (f" — {escape_md(dates)}." if dates else ".")
        )
        st.plotly_chart(
            data.figure(
                winnable_chart, outlook.site_dr, outlook.target_series(target), projection, outlook.keyword
            ),
            key=f"market_winnable_{target}_chart",
        )


def _opportunity_links(sites: list[str]) -> None:
    """A link per site to its Opportunities list: what to push on first, with the score's parts."""
    for site in sites:
        link_to(
            OPPORTUNITIES,
            label=f"See the opportunities of {escape_md(site)}",
            query_params=opportunities_query(site),
            help="Its keywords ranked by the clicks they would bring for the DR they ask; watch or track "
            "the best ones in one click.",
        )


def winnable_tab(view: MarketView) -> None:
    pairs = _pairs(view)
    if not pairs:
        st.info(
            "None of these keywords is watched for one of your sites. Watch a keyword for a site on "
            "**Keyword research**: its top 10 is kept every day, and once "
            f"{MIN_WEEKS} weeks are recorded this tab says when the site's DR reaches it.",
            icon=":material/hourglass_empty:",
        )
        return
    found = _outlooks(view, pairs)
    missing = _unrecorded_sites(found)
    if missing:
        st.info(
            f"No DR of {escape_md(', '.join(missing))} is recorded yet: watch the site (**Watch** on "
            "Domain overview) and its DR is kept every day from then on.",
            icon=":material/hourglass_empty:",
        )
    table = outlook_table(found)
    rank = {pair: i for i, pair in enumerate(zip(table["site"], table["keyword"], strict=True))}
    found = sorted(found, key=lambda o: rank[(o.site, o.keyword)])
    single_site = view.site is not None
    if single_site:
        table = table.drop(columns="site")
    st.dataframe(
        table.assign(  # ``found`` is in the table's order
            median_answer=[projection_answer(o.median) for o in found],
            lowest_answer=[projection_answer(o.lowest) for o in found],
        ),
        hide_index=True,
        column_config=WINNABLE_SCREEN,
        column_order=[name for name in WINNABLE_SCREEN if name in table.columns or name.endswith("_answer")],
        key="market_winnable_table",
        placeholder="—",
    )
    csv_download(
        table,
        what="when-winnable",
        subject=view.file_subject,
        key="market_winnable",
        column_config=WINNABLE_CONFIG,
    )
    st.caption(
        "When your site's DR reaches each keyword's top 10 at the pace both kept so far: a robust trend "
        "(Theil–Sen) through the weekly DRs of your site and of the top 10 (without your own result), "
        "and the month the lines cross, with its band. Fitted to all the recorded history, not only the "
        f"period above; it needs at least {MIN_WEEKS} weeks, and a month is said only when the history "
        "supports it. Reaching the top 10's DR is not ranking: DR is one signal among many. The user "
        "guide's section “When a keyword becomes winnable” gives the method and how well it held."
    )
    _opportunity_links([view.site] if view.site else sorted({o.site for o in found}))
    _charts(found, single_site)
