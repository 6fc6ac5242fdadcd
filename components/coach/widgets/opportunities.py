"""The Coach's next actions from the opportunities list: for one of your own sites, the top keywords of
the same list the Opportunities page shows (``services.opportunities.top``, the team's CTR curve, the
default target position), each in a sentence with its winnable outlook when it is watched, how many
keywords lack a top 10, and a link to the site's whole list.

The Coach spends no call of its own here: the list is read from the history and from what the app's
cache already holds (``CachedReads``: the suggestions and tracked keywords a page read in the last 15
minutes, the top 10s read on the Opportunities page this session); a keyword report is never asked.
Whether the site is yours is decided as the Opportunities page decides it, also without a call. A
database that cannot be used is said in a line; the rest of the Coach goes on.
"""

from __future__ import annotations

import streamlit as st

from analysis.links import opportunities_query
from analysis.opportunities import TARGET_POSITION
from analysis.opportunities.next_words import (
    lacking_words,
    none_words,
    not_yours_words,
    push_words,
    unasked_words,
    watched_words,
    winnable_line,
)
from analysis.text import escape_md
from components.core.cache.connection import Connection
from components.core.history import store as history
from components.core.nav.pages import OPPORTUNITIES, link_to
from components.opportunities.widgets.choice import is_your_site
from components.opportunities.widgets.curve import team_curve
from components.opportunities.widgets.reads import CachedReads, page_candidates
from services.opportunities.top import COACH_LISTED, TopOpportunities, top_opportunities
from store import StoreUnavailable


def _unavailable() -> None:
    reason = history.history_problem() or "the history database could not be reached"
    st.caption(
        f"{history.UNAVAILABLE} ({escape_md(reason)}), so your site's keyword opportunities cannot be "
        "listed here; the rest of the Coach works as usual."
    )


def _gather(conn: Connection, domain: str, count: int) -> TopOpportunities | None:
    """The top of the site's list, or None with the reason said (not your site, no database)."""
    store = history.history_store()
    if store is None or not conn.has_key:
        _unavailable()
        return None
    try:
        history.ensure_demo_history(conn)
        source = history.page_source(conn)
        if source is None:
            _unavailable()
            return None
        if not is_your_site(conn, source, domain):
            st.caption(escape_md(not_yours_words(domain)))
            return None
        ctr = team_curve()
        found = page_candidates(conn, store, domain, CachedReads(conn))
    except StoreUnavailable as exc:
        history.store_failed(exc)
        _unavailable()
        return None
    return top_opportunities(found, ctr, TARGET_POSITION, count)


def opportunity_actions(
    conn: Connection, domain: str, count: int = COACH_LISTED, *, with_watched: bool = True
) -> None:
    """The site's top ``count`` opportunities as next actions (``with_watched``: and when its other
    watched keywords become winnable), what the list lacks, and the link."""
    top = _gather(conn, domain, count)
    if top is None:
        return
    for problem in top.problems:
        st.caption(escape_md(f"The {problem}."))
    if top.unasked:
        st.caption(escape_md(unasked_words(top.unasked)))
    for _, row in top.rows.iterrows():
        with st.container(border=True):
            st.markdown(escape_md(push_words(row, top.target)))
            winnable = winnable_line(row)
            if winnable:
                st.caption(escape_md(winnable))
    if with_watched and top.watched:
        st.markdown("\n".join(f"- {escape_md(watched_words(*pair))}" for pair in top.watched))
    for line in (none_words(domain, top.ranked, top.target), lacking_words(top.lacking)):
        if line:
            st.caption(escape_md(line))
    link_to(
        OPPORTUNITIES,
        label=f"All opportunities of {escape_md(domain)}",
        query_params=opportunities_query(domain),
        help="The whole list, ranked, with the parts of each score; the missing top 10s are read there, "
        "their cost said first.",
    )
