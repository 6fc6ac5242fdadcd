"""Keyword research, several keywords: each researched in turn, then ranked by how winnable it is.

One keyword's failure never stops the others and keeps its line in the ranking; the gate stops the
run, and after a 429 only the keywords this app has cached are still shown. The ranking, its column
order and its words are shaped in ``analysis.keywords.frames.ranking``.
"""

from __future__ import annotations

import streamlit as st

from analysis.keywords.charts import distribution_chart
from analysis.keywords.frames.ranking import (
    Outcome,
    asked_words,
    distribution_frame,
    failure_words,
    parse_keyword_list,
    ranking_column_order,
    ranking_frame,
    ranking_note,
)
from analysis.text import escape_md
from client.errors import ApiError, InvalidInputError, PaymentRequiredError, RateLimitedError
from client.models import KeywordReport
from components.core.cache import data
from components.core.cache.connection import Connection
from components.core.ui.errors import show_error
from components.core.ui.tables import score_column, table_with_export
from components.keywords.widgets.research import (
    GAP_HELP,
    LIVE_SERP_NOTE,
    MAX_KEYWORDS,
    TIER_NOTE,
    gate,
    problem,
    use_keyword,
)

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
            outcomes.append((keyword, failure_words(exc)))
        except RateLimitedError as exc:
            stopper = exc
            outcomes.append((keyword, failure_words(exc)))
        except ApiError as exc:
            outcomes.append((keyword, failure_words(exc)))
    progress.empty()
    return outcomes, stopper


def compare_keywords(conn: Connection, text: str, raw_domain: str | None) -> None:
    """The pasted keywords researched and ranked: skipped lines, the distribution, the ranking table."""
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
        note.caption(f"{asked_words(fresh, len(parsed.keywords))} {LIVE_SERP_NOTE}")
    if isinstance(stopper, PaymentRequiredError):
        gate(stopper)
        return
    if stopper is not None:
        problem(stopper, "some keywords")
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
    st.markdown("**Keywords by how winnable they are**" if user else "**Keywords, easiest first**")
    table_with_export(
        ranking,
        what="keyword-comparison",
        subject=domain,
        key="kw_ranking",
        column_config=RANKING_COLUMNS,
        column_order=ranking_column_order(ranking),
    )
    st.caption(ranking_note(user.dr if user else None, has_domain=user is not None, tier_note=TIER_NOTE))
    researched = [r.keyword for r in reports]
    if researched:
        cols = st.columns([3, 1], vertical_alignment="bottom")
        pick = cols[0].selectbox("Open one keyword in detail", researched, key="kw_open")
        cols[1].button("Open", key="kw_open_button", on_click=use_keyword, args=(pick,), width="stretch")
