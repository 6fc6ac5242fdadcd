"""The ranked list: filters (striking distance, the DR gap, a keyword group), the table with the score's
parts beside it and when a watched keyword is winnable in a few words (narrow enough for a laptop), its
downloads with every column, and the rows chosen in it, each told in full under it."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from datetime import date

import pandas as pd
import streamlit as st
from streamlit.elements.lib.column_types import ColumnConfig

from analysis.market import ALL, BRAND, NON_BRAND, group_names
from analysis.market.groups import in_group
from analysis.opportunities import OPPORTUNITY_LABELS, STRIKING_DISTANCE, answer_words, filter_opportunities
from analysis.opportunities.next_words import score_words
from analysis.text import escape_md
from analysis.wording import counted, is_missing
from components.core.ui.tables import csv_download

STRIKING_KEY = "opportunities_striking"
GAP_KEY = "opportunities_max_gap"
GROUP_KEY = "opportunities_group"
TABLE_KEY = "opportunities"
GROUP_WORDS = {ALL: "All keywords", BRAND: "Brand keywords", NON_BRAND: "Non-brand keywords"}
LOW, HIGH = STRIKING_DISTANCE


def _number(label: str, fmt: str, help: str | None = None) -> ColumnConfig:
    return st.column_config.NumberColumn(label, format=fmt, help=help)


#: The table's columns under the labels every page and report gives them (``OPPORTUNITY_LABELS``).
COLUMNS = {
    "keyword": st.column_config.TextColumn(OPPORTUNITY_LABELS["keyword"], pinned=True),
    "score": _number(
        OPPORTUNITY_LABELS["score"],
        "%,.1f",
        "Clicks gained in % points of volume, divided by the DR points lacking (at least 1). Empty: a "
        "volume or a DR is unknown, so the keyword is not ranked.",
    ),
    "clicks_gained": _number(OPPORTUNITY_LABELS["clicks_gained"], "%,.0f", "Clicks at target − clicks now"),
    "difficulty": _number(
        OPPORTUNITY_LABELS["difficulty"],
        "%g",
        "Top-10 median DR − your DR, 0 when you lack none (the DR gap "
        "with its sign, each DR and the lowest DR's gap are in the CSV)",
    ),
    "position": _number(OPPORTUNITY_LABELS["position"], "%d", "Empty: not ranking"),
    "striking_distance": st.column_config.CheckboxColumn(OPPORTUNITY_LABELS["striking_distance"]),
    "volume": _number(OPPORTUNITY_LABELS["volume"], "localized"),
    "volume_source": st.column_config.TextColumn(OPPORTUNITY_LABELS["volume_source"]),
    "site_dr": _number(OPPORTUNITY_LABELS["site_dr"], "%g"),
    "median_dr": _number(OPPORTUNITY_LABELS["median_dr"], "%g"),
    "min_dr": _number(OPPORTUNITY_LABELS["min_dr"], "%g"),
    "gap": _number(OPPORTUNITY_LABELS["gap"], "%+g", "Top-10 median DR − your DR"),
    "lowest_gap": _number(OPPORTUNITY_LABELS["lowest_gap"], "%+g", "Top-10 lowest DR − your DR"),
    "ctr_now": _number(OPPORTUNITY_LABELS["ctr_now"], "%.1f"),
    "ctr_target": _number(OPPORTUNITY_LABELS["ctr_target"], "%.1f"),
    "clicks_now": _number(OPPORTUNITY_LABELS["clicks_now"], "%,.0f"),
    "clicks_target": _number(OPPORTUNITY_LABELS["clicks_target"], "%,.0f"),
    "top10_from": st.column_config.TextColumn("Top 10 from"),
    "median_words": st.column_config.TextColumn(
        "Winnable (median DR)",
        width="medium",
        help="Watched keywords: when your DR reaches the top 10's median at your pace (the Market page's "
        "When winnable tab has both targets and the chart)",
    ),
    "lowest_words": st.column_config.TextColumn(
        "Winnable (lowest DR)", help="Watched keywords: when your DR reaches the top 10's lowest DR"
    ),
    "problem": st.column_config.TextColumn(
        "Problem", width="medium", help="Why a keyword has no top 10 or no score"
    ),
}
#: Every column, in order: the readable CSV's, under the labels above (the raw one has the frame's every
#: column under its field name).
ALL_COLUMNS = list(COLUMNS)
#: What the table shows, under short labels so that it fits a laptop's width (1280 px) without scrolling
#: sideways: where you rank and the volume, the score's two parts (clicks gained, DR points lacking), the
#: score, and when a watched keyword is winnable in a few words. Each help says the full name. The other
#: columns are in both CSVs; a chosen row's score with its parts, its winnable sentences and its problem
#: read in full under the table (``chosen_details``).
SCREEN = {
    "keyword": st.column_config.TextColumn(OPPORTUNITY_LABELS["keyword"], pinned=True),
    "position": _number("Position", "%d", f"{OPPORTUNITY_LABELS['position']}. Empty: not ranking"),
    "volume": _number("Volume", "localized", OPPORTUNITY_LABELS["volume"]),
    "clicks_gained": _number(
        OPPORTUNITY_LABELS["clicks_gained"],
        "%,.0f",
        "A month, at the target position: clicks at target − now",
    ),
    "difficulty": _number(
        "DR lacking",
        "%g",
        f"{OPPORTUNITY_LABELS['difficulty']}: top-10 median DR − your DR, 0 when you lack none (each DR "
        "and the gaps with their sign are in the CSV)",
    ),
    "score": _number(
        "Score",
        "%,.1f",
        f"{OPPORTUNITY_LABELS['score']}: the monthly volume × the CTR points gained, ÷ the DR points "
        "lacking (at least 1). Choose a row to read its parts. Empty: a volume or a DR is unknown.",
    ),
    "winnable": st.column_config.TextColumn(
        "Winnable",
        help="Watched keywords: when your DR reaches the top 10's median DR at your pace. Choose a row for "
        "the full answer; the Market page's When winnable tab has both targets and the chart.",
    ),
}
SHOWN = list(SCREEN)
#: How many chosen rows are told in full under the table.
MAX_DETAILS = 10


def table_key(keywords: Sequence[str]) -> str:
    """The table's widget key, new whenever its rows change (a filter, a read, another site): a choice
    of rows is a choice of positions, which must never carry over to other keywords."""
    digest = hashlib.sha256("\n".join(keywords).encode()).hexdigest()[:12]
    return f"{TABLE_KEY}_table_{digest}"


def filters(tags: Mapping[str, tuple[str, ...]]) -> tuple[bool, float | None, str]:
    """Striking distance only, the largest DR gap to the median, the keyword group."""
    left, middle, right = st.columns([1, 1, 1], vertical_alignment="bottom")
    striking = left.toggle(
        f"Striking distance only ({LOW}–{HIGH})",
        key=STRIKING_KEY,
        help=f"Keywords your site ranks {LOW} to {HIGH} for: near the first page's top.",
    )
    max_gap = middle.number_input(
        "Largest DR gap to the median",
        value=None,
        step=1.0,
        key=GAP_KEY,
        placeholder="Any gap",
        help="Keep the keywords whose top-10 median DR is at most this many points above yours.",
    )
    group = right.selectbox(
        "Keyword group",
        group_names(tags),
        format_func=lambda name: GROUP_WORDS.get(name, f"Tagged “{name}”"),
        key=GROUP_KEY,
        help="Groups as on the Market page: brand, non-brand, or a tag set there.",
    )
    return striking, None if max_gap is None else float(max_gap), str(group)


def _group_keywords(
    keywords: pd.Series,
    site: str,
    group: str,
    tags: Mapping[str, tuple[str, ...]],
    brands: Mapping[str, tuple[str, ...]],
) -> list[str] | None:
    if group == ALL:
        return None
    pairs = pd.DataFrame({"site": site, "keyword": keywords.str.lower()})
    return [keywords[i] for i in in_group(pairs, group, dict(tags), dict(brands)).index]


def shown_frame(
    scored: pd.DataFrame,
    site: str,
    *,
    striking: bool,
    max_gap: float | None,
    group: str,
    tags: Mapping[str, tuple[str, ...]],
    brands: Mapping[str, tuple[str, ...]],
) -> pd.DataFrame:
    """The list narrowed by the filters (every column kept: the raw download has them all)."""
    keywords = _group_keywords(scored["keyword"], site, group, tags, brands)
    return filter_opportunities(scored, striking_only=striking, max_gap=max_gap, keywords=keywords)


def opportunities_table(frame: pd.DataFrame, site: str, total: int) -> list[str]:
    """The table and its downloads; the keywords of the rows chosen in it."""
    if frame.empty:
        st.info(
            "No keyword passes these filters." if total else f"No keyword of {escape_md(site)} is known yet.",
            icon=":material/info:",
        )
        return []
    st.caption(f"{counted(len(frame), 'keyword')} of {total:,}, the highest opportunity score first.")
    event = st.dataframe(
        _on_screen(frame),
        hide_index=True,
        column_config=SCREEN,
        column_order=SHOWN,
        key=table_key(list(frame["keyword"])),
        on_select="rerun",
        selection_mode="multi-row",
        placeholder="—",
    )
    csv_download(
        frame,
        what="opportunities",
        subject=site,
        key=TABLE_KEY,
        column_config=COLUMNS,
        column_order=ALL_COLUMNS,
    )
    rows = [i for i in (event.selection.rows if event is not None else []) if 0 <= i < len(frame)]
    chosen_details(frame.iloc[rows])
    return [str(frame["keyword"].iloc[i]) for i in rows]


def _on_screen(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with its winnable answer in a few words (``answer_words``) for the table's cell."""
    months = [date.fromisoformat(f"{month}-01") if month else None for month in frame["median_month"]]
    answers = [answer_words(state, day) for state, day in zip(frame["median_state"], months, strict=True)]
    return frame.assign(winnable=answers)


def chosen_details(chosen: pd.DataFrame) -> None:
    """Each chosen row told in full: its score with its parts, when it is winnable against both
    targets, and why it has no top 10 or no score."""
    if chosen.empty:
        st.caption("Choose a row to read its score's parts and when it is winnable in full.")
        return
    for _, row in chosen.head(MAX_DETAILS).iterrows():
        lines = [score_words(row)]
        for target, name in (("median", "median DR"), ("lowest", "lowest DR")):
            if row[f"{target}_words"]:
                lines.append(f"Winnable against the top 10's {name}: {row[f'{target}_words']}")
        if row["problem"] and not is_missing(row["score"]):
            lines.append(str(row["problem"]))
        st.markdown(f"**{escape_md(str(row['keyword']))}** — " + escape_md(". ".join(lines)) + ".")
    if len(chosen) > MAX_DETAILS:
        st.caption(f"The first {MAX_DETAILS} chosen rows; the CSV has every column of each.")
