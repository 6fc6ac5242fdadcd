"""Streamlit pieces of the keyword pages: the shared ``pieces`` (which of your sites they work on, and
the tracked-keyword writes), re-exported here, and one module per page part: ``research`` (one
keyword's top 10), ``comparison`` (several keywords side by side), ``tracked`` (a site's tracked
keywords) and ``tracked_edits`` (adding, refreshing and removing them).

Only ``pieces`` is imported here: the page modules draw on the history widgets, which import
``owned_sites`` from this package, so importing them here would make that import circular.
"""

from __future__ import annotations

from components.keywords.widgets.pieces import (
    LIVE_SERP_NOTE,
    TRACKED_SLOT,
    last_tracked_site,
    owned_sites,
    refusal_context,
    remember_site,
    request_add,
    request_refresh,
    request_remove,
    site_to_track,
)

__all__ = [
    "LIVE_SERP_NOTE",
    "TRACKED_SLOT",
    "last_tracked_site",
    "owned_sites",
    "refusal_context",
    "remember_site",
    "request_add",
    "request_refresh",
    "request_remove",
    "site_to_track",
]
