"""Tracked keywords of one of your sites: stored snapshots, and add / refresh / remove, each sent once.

The site and its list are drawn by ``components.keywords.widgets.tracked``, the edits by
``…widgets.tracked_edits``.
"""

from __future__ import annotations

from components.core.cache.connection import current_connection
from components.core.nav.pages import TRACKED_KEYWORDS, page_header
from components.keywords.widgets.tracked import pick_site, show_site
from components.keywords.widgets.tracked_edits import prefill_keyword_to_add

conn = current_connection()
page_header(
    TRACKED_KEYWORDS,
    "The keywords you follow for one of your sites, each with its stored difficulty snapshot. Reading "
    "this list never triggers a live Google search: it shows what the service stored at the last check.",
)
prefill_keyword_to_add()  # before the keyword field is drawn
picked = pick_site(conn)
if picked is not None:
    show_site(conn, *picked)
