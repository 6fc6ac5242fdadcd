"""Which of your sites the list is for (your own sites as the history keeps them, else as the service
lists them) and the position its clicks are counted at; and whether a domain is one of them, decided
the same way without asking the service (the Coach's opportunities)."""

from __future__ import annotations

import streamlit as st

from analysis.links import OPPORTUNITIES_SITE_PARAM
from analysis.opportunities import TARGET_POSITION
from client.errors import ApiError
from components.core.cache import data
from components.core.cache.connection import Connection
from components.core.history.source import HistorySource
from components.history.widgets import own_sites
from components.keywords.widgets.pieces import sites_of

#: Bound to the address, so a link (the Coach's) opens the list of one site.
SITE_KEY = OPPORTUNITIES_SITE_PARAM
TARGET_KEY = "opportunities_target"
#: The positions a keyword can be scored for reaching: the first page.
TARGETS = tuple(range(1, 11))


def _recorded_sites(source: HistorySource) -> set[str]:
    items = source.watch_items()
    return {subject for kind, subject, origin, _site in items if kind == "domain" and origin == "own"}


def _your_sites(conn: Connection, source: HistorySource) -> list[str]:
    return sorted(_recorded_sites(source) | set(own_sites(conn)))


def is_your_site(conn: Connection, source: HistorySource, domain: str) -> bool:
    """Whether ``domain`` is one the page lists as yours, asking nothing of the service: the history's
    own sites, and the service's list of your sites when a cache holds it."""
    if domain in _recorded_sites(source):
        return True
    try:
        listing = data.cached_answer(conn, "sites")
    except ApiError:  # a failed list of your sites kept in the cache: the history decides alone
        return False
    return listing is not None and domain in sites_of(listing)


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
    site = left.selectbox(
        "Your site", sites, key=SITE_KEY, bind="query-params", help="The sites of your API key."
    )
    target = right.selectbox(
        "Target position",
        TARGETS,
        index=TARGETS.index(TARGET_POSITION),
        key=TARGET_KEY,
        help="The clicks gained are counted for reaching this position, under the team's CTR curve.",
    )
    return str(site), int(target)
