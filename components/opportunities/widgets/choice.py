"""Which of your sites the list is for (your own sites as the history keeps them, else as the service
lists them) and the position its clicks are counted at, both kept in the page's address under the link
schema's names (``analysis.links``: ``?site=example.com&target=3``), so a link or a shared address opens
the page on them. A link naming a site that is not yours, or a position that is not one of the first
page's, opens the page on its defaults and says so. And whether a domain is one of your sites, decided
the same way without asking the service (the Coach's opportunities)."""

from __future__ import annotations

import streamlit as st

from analysis.links import OPPORTUNITIES_SITE_PARAM, OPPORTUNITIES_TARGET_PARAM
from analysis.opportunities import TARGET_POSITION
from analysis.text import escape_md
from client.errors import ApiError, InvalidInputError
from components.core.cache import data
from components.core.cache.connection import Connection
from components.core.history.source import HistorySource
from components.history.widgets import own_sites
from components.keywords.widgets.pieces import sites_of

SITE_KEY = OPPORTUNITIES_SITE_PARAM
TARGET_KEY = OPPORTUNITIES_TARGET_PARAM
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


def _normalised(raw: str) -> str | None:
    try:
        return data.domain_or_none(raw)
    except InvalidInputError:
        return None


def _linked_site(sites: list[str]) -> str | None:
    """The site the address names, as it was written when it is not one of ``sites`` (None when it is,
    or names none). Any spelling of one of your sites opens it (``www.`` and a path included)."""
    requested = st.query_params.get(SITE_KEY)
    if not requested:
        return None
    wanted = _normalised(requested)
    if wanted in sites:
        if wanted != requested:
            st.session_state[SITE_KEY] = wanted
        return None
    return requested.strip()[:100]


def _linked_target() -> str | None:
    """The target position the address names, as written, when it is not one of ``TARGETS``."""
    requested = st.query_params.get(TARGET_KEY)
    if requested is None or requested.strip() in {str(t) for t in TARGETS}:
        return None
    return requested.strip()[:20]


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
    stranger, bad_target = _linked_site(sites), _linked_target()  # read first: the pickers drop them
    left, right = st.columns([2, 1])
    site = left.selectbox(
        "Your site", sites, key=SITE_KEY, bind="query-params", help="The sites of your API key."
    )
    target = right.selectbox(
        "Target position",
        TARGETS,
        index=TARGETS.index(TARGET_POSITION),
        key=TARGET_KEY,
        bind="query-params",
        help="The clicks gained are counted for reaching this position, under the team's CTR curve.",
    )
    if stranger is not None:
        st.info(
            f"**{escape_md(stranger)} is not one of your sites**, so the link cannot open its opportunities. "
            f"Showing {escape_md(str(site))}; pick another of yours above.",
            icon=":material/lock_person:",
        )
    if bad_target is not None:
        st.info(
            f"The link's target position “{escape_md(bad_target)}” is not one of positions "
            f"{TARGETS[0]} to {TARGETS[-1]}: the clicks are counted for position {int(target)}.",
            icon=":material/info:",
        )
    return str(site), int(target)
