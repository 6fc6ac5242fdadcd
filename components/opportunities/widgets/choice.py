"""Which of your sites the list is for (your own sites as the history keeps them, else as the service
lists them) and the position its clicks are counted at."""

from __future__ import annotations

import streamlit as st

from analysis.opportunities import TARGET_POSITION
from components.core.cache.connection import Connection
from components.core.history.source import HistorySource
from components.history.widgets import own_sites

SITE_KEY = "opportunities_site"
TARGET_KEY = "opportunities_target"
#: The positions a keyword can be scored for reaching: the first page.
TARGETS = tuple(range(1, 11))


def _your_sites(conn: Connection, source: HistorySource) -> list[str]:
    recorded = [
        subject
        for kind, subject, origin, _site in source.watch_items()
        if kind == "domain" and origin == "own"
    ]
    return sorted(set(recorded) | set(own_sites(conn)))


def opportunity_choice(conn: Connection, source: HistorySource) -> tuple[str, int] | None:
    """(site, target position), or None (said on the page) when the account has no site of its own."""
    sites = _your_sites(conn, source)
    if not sites:
        st.info(
            "No site of yours is known yet: add one on **My sites**, then come back. Opportunities are "
            "the keywords of one of your own sites.",
            icon=":material/info:",
        )
        return None
    left, right = st.columns([2, 1])
    site = left.selectbox("Your site", sites, key=SITE_KEY, help="The sites of your API key.")
    target = right.selectbox(
        "Target position",
        TARGETS,
        index=TARGETS.index(TARGET_POSITION),
        key=TARGET_KEY,
        help="The clicks gained are counted for reaching this position, under the team's CTR curve.",
    )
    return str(site), int(target)
