"""Which of the user's own sites the keyword pages work on.

Tracked keywords are owner-scoped, so the keyword pages need one of the key's own sites: they come
from the cached "list my sites" read (GET /sites). When that list cannot be read, the pages fall back
to a typed domain and the service's 404 says whether it is yours. The last site opened on the
Tracked keywords page is kept for the session (under the sidebar's result prefix, so it is forgotten
when the key changes) and offered when a suggestion is to be tracked.
"""

from __future__ import annotations

from urllib.parse import urlsplit

import streamlit as st

from client.errors import ApiError, InvalidInputError
from components.core import data
from components.core.connection import Connection
from components.core.sidebar import RESULT_PREFIX

_LAST_SITE = RESULT_PREFIX + "keyword_site"


def remember_site(domain: str) -> None:
    st.session_state[_LAST_SITE] = domain


def last_tracked_site() -> str | None:
    """The site last opened on the Tracked keywords page in this session, if any."""
    return st.session_state.get(_LAST_SITE)


def _label(domain: str | None, url: str | None, slug: str) -> str:
    """A site's domain as people write it; the slug only when the service gave nothing better."""
    for candidate in (domain, urlsplit(url).hostname if url else None):
        if candidate:
            try:
                return data.domain(candidate)
            except InvalidInputError:
                continue
    return slug


def owned_sites(conn: Connection) -> dict[str, str] | None:
    """Your sites as {domain: slug}, in the service's order; None when the list cannot be read."""
    try:
        listing = data.sites(conn)
    except ApiError:
        return None
    return {_label(s.domain, s.url, s.slug): s.slug for s in listing.sites}


def site_to_track(conn: Connection, domain: str | None) -> str | None:
    """The site a "track it" link should open: this domain if it is yours, else the last or first one."""
    mine = owned_sites(conn) or {}
    if domain and domain in mine:
        return domain
    last = last_tracked_site()
    if last and (not mine or last in mine):
        return last
    return next(iter(mine), None) or domain
