"""Streamlit pieces of the keyword pages: which of your sites they work on, and the tracked-keyword writes.

Tracked keywords are owner-scoped, so the keyword pages need one of the key's own sites: they come
from the cached "list my sites" read (GET /sites). When that list cannot be read, the pages fall back
to a typed domain and the service's 404 says whether it is yours. The last site opened on the
Tracked keywords page is kept for the session (under the sidebar's result prefix, so it is forgotten
when the key changes) and offered when a suggestion is to be tracked.

A tracked-keyword write is asked for in a widget callback and sent once by the page after its
controls are drawn disabled (``components.core.writes.writes.request_write``); each drops the site's
cached list, so the page shows what the service now holds.
"""

from __future__ import annotations

from urllib.parse import urlsplit

import streamlit as st

from analysis.text import escape_md
from client.errors import (
    ApiError,
    BadRequestError,
    ConflictError,
    InvalidInputError,
    NotFoundError,
    PaymentRequiredError,
    RateLimitedError,
)
from client.growth_models import SiteList
from components.core.cache import data
from components.core.cache.connection import Connection
from components.core.ui.sidebar import RESULT_PREFIX
from components.core.writes.writes import flash, refused, request_write

_LAST_SITE = RESULT_PREFIX + "keyword_site"
#: One slot for every tracked-keyword write: while one runs, every control of the page is disabled.
TRACKED_SLOT = "tracked_keywords"
LIVE_SERP_NOTE = (
    "Adding or refreshing a keyword the service has not fetched recently pays a live Google search, "
    "which the service rate-limits more strictly than other calls."
)


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
    return sites_of(listing)


def sites_of(listing: SiteList) -> dict[str, str]:
    """The sites of a list of your sites as {domain: slug}, in the service's order."""
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


# --- tracked-keyword writes (call from widget callbacks or form submits only) ---------------------


def _request(operation: str, slug: str, *args: str, success: str, keyword: str) -> None:
    """Ask for a write to the site's tracked keywords; once sent, it drops the site's cached list.
    ``keyword`` is what the audit log names (a refresh or removal itself carries only its id)."""
    request_write(
        TRACKED_SLOT,
        operation,
        slug,
        *args,
        invalidates=[("tracked_keywords", slug)],
        success=success,
        target=keyword,
    )


def request_add(slug: str, domain: str, typed: str) -> None:
    """Check the typed keyword, then ask for the add; a refused keyword is reported, not sent."""
    try:
        keyword = data.keyword(typed)
    except InvalidInputError as exc:
        flash(TRACKED_SLOT, refused("add_tracked_keyword", exc))
        return
    success = f"Now tracking “{escape_md(keyword)}” for {escape_md(domain)}."
    _request("add_tracked_keyword", slug, keyword, success=success, keyword=keyword)


def request_refresh(slug: str, target_id: str, keyword: str) -> None:
    success = f"Refreshed the snapshot of “{escape_md(keyword)}”."
    _request("refresh_tracked_keyword", slug, target_id, success=success, keyword=keyword)


def request_remove(slug: str, target_id: str, keyword: str) -> None:
    success = f"Stopped tracking “{escape_md(keyword)}”."
    _request("remove_tracked_keyword", slug, target_id, success=success, keyword=keyword)


def refusal_context(err: ApiError, limit: int | None) -> str | None:
    """What the Tracked keywords page knows about a refused write beyond the shared error words."""
    if isinstance(err, ConflictError):
        return "That keyword is already tracked for this site: nothing was added."
    if isinstance(err, InvalidInputError):
        return None
    if isinstance(err, BadRequestError):
        at = f" ({limit})" if limit else ""
        return (
            "The service refuses a keyword it considers invalid, and any new keyword once the site "
            f"tracks its limit{at}: remove one to make room."
        )
    if isinstance(err, RateLimitedError):
        return LIVE_SERP_NOTE
    if isinstance(err, PaymentRequiredError):
        return "Adds and refreshes spend your plan's monthly keyword checks; they renew next month."
    if isinstance(err, NotFoundError):
        return "That keyword is no longer tracked, or the site is not one of yours; the list shows what is."
    return None
