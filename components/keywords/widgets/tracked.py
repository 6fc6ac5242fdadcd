"""Tracked keywords, the site: which of your sites the page shows, how full its list is, its table,
and the whole site view with the edits (``tracked_edits``) between the meters and the table.

Tracked keywords are kept only for the key's own sites: another site is answered with a 404, shown
as "not one of your sites". Reading the list never triggers a live Google search.
"""

from __future__ import annotations

from functools import partial

import streamlit as st

from analysis.keywords.frames.report import TIER_LABELS
from analysis.keywords.frames.tracked import Usage, gap_reading, tracked_column_order, tracked_frame, usage
from analysis.text import escape_md
from client.errors import InvalidInputError, NotFoundError
from client.models import TrackedKeywords
from components.core.auth import access
from components.core.cache import data
from components.core.cache.connection import Connection
from components.core.nav.shared_inputs import DOMAIN_KEY
from components.core.ui.errors import read_or_show_error, show_error
from components.core.ui.tables import table_with_export
from components.core.writes.writes import run_requested_write, write_requested
from components.keywords.widgets.pieces import TRACKED_SLOT, owned_sites, remember_site
from components.keywords.widgets.tracked_edits import add_form, manage, show_outcome

SITE_KEY = DOMAIN_KEY

#: DRs are whole numbers; a median falls halfway between two results at most ("%g" shows 40, 40.5).
#: Column labels stay short so the whole table fits a laptop screen; the help says the rest.
COLUMNS = {
    "keyword": st.column_config.TextColumn("Keyword", pinned=True),
    "user_position": st.column_config.NumberColumn("Position", format="%d", help="Empty: not ranking"),
    "position_change": st.column_config.NumberColumn(
        "Moved", format="%+d", help="Places moved since the check before: positive is up"
    ),
    "median_dr": st.column_config.NumberColumn(
        "Median DR", format="%g", help="The DR needed: median DR of the top 10"
    ),
    "gap": st.column_config.NumberColumn(
        "Gap", format="%+g", help="Median DR − your DR: below 0 you are above the median"
    ),
    "search_volume": st.column_config.NumberColumn("Volume", format="localized", help="Searches a month"),
    "cpc": st.column_config.NumberColumn("CPC", format="dollar"),
    "impressions": st.column_config.NumberColumn(
        "Impressions", format="localized", help="Search Console impressions, last 28 days"
    ),
    "gsc_position": st.column_config.NumberColumn(
        "GSC position", format="%.1f", help="Average position in Search Console, last 28 days"
    ),
    "last_checked_at": st.column_config.DatetimeColumn(
        "Checked", format="D MMM", help="Day of the stored snapshot (UTC)"
    ),
    # Not shown at first (frames.tracked.SHOWN_COLUMNS); the column menu lists them under these labels.
    "tier": st.column_config.TextColumn("Tier", help="Historical labels for the gap, not plan names"),
    "min_dr": st.column_config.NumberColumn("Min DR", format="%g", help="The lowest DR in the top 10"),
    "user_dr": st.column_config.NumberColumn("Your DR", format="%d", help="At the check"),
    "prev_position": st.column_config.NumberColumn("Previous position", format="%d"),
    "id": st.column_config.TextColumn("ID"),
}


# --- picking the site -----------------------------------------------------------------------------


def _normalised(raw: str | None) -> str | None:
    try:
        return data.domain_or_none(raw)
    except InvalidInputError:
        return None


def pick_site(conn: Connection) -> tuple[str, str] | None:
    """(domain, slug) of the site to show: one of your sites, or a typed one when they cannot be listed."""
    mine = owned_sites(conn)
    requested = st.query_params.get(SITE_KEY)  # read first: the picker drops a value that is not yours
    if mine:
        wanted = _normalised(requested)
        if wanted in mine and wanted != requested:
            st.session_state[SITE_KEY] = wanted  # www.example.com/x in a link still opens example.com
        domain = st.selectbox(
            "Your site", list(mine), key=SITE_KEY, bind="query-params", help="The sites of your API key."
        )
        if requested and wanted not in mine:
            st.info(
                f"**{escape_md(requested.strip()[:100])} is not one of your sites**, so it has no tracked "
                f"keywords here. Showing {escape_md(domain)}; pick another of yours above.",
                icon=":material/lock_person:",
            )
        return domain, mine[domain]
    if mine is not None:
        st.info(
            "This API key has no sites yet. Keywords are tracked per site: add your site first "
            "(My sites), then come back.",
            icon=":material/info:",
        )
        return None
    text = st.text_input(
        "Your site",
        key=SITE_KEY,
        bind="query-params",
        placeholder="example.com",
        help="Your sites could not be listed just now: type the domain of one of them.",
    )
    if not text or not text.strip():
        st.caption("Enter the domain of one of your sites.")
        return None
    try:
        domain = data.domain(text)
        return domain, data.slug(domain)
    except InvalidInputError as exc:
        show_error(exc)
        return None


def _not_owned(domain: str, err: NotFoundError) -> None:
    st.info(
        f"**{escape_md(domain)} is not one of your sites.** Tracked keywords are kept only for sites "
        "that belong to this API key, and the service answers as if any other site did not exist. "
        "Check the spelling, or enter the domain of a site you added to VerifiedDR.",
        icon=":material/lock_person:",
    )
    if err.message:
        st.caption(f"Service said: {escape_md(err.message)}")


# --- what the site tracks -------------------------------------------------------------------------


def _meters(use: Usage) -> None:
    cols = st.columns(2)
    with cols[0]:
        if use.limit:
            st.progress(
                min(1.0, use.tracked / use.limit),
                text=f"{use.tracked} of {use.limit} tracked keywords"
                + (" — the limit: remove one to add another" if use.at_limit else ""),
            )
        else:
            st.caption(f"{use.tracked} tracked keywords; the service did not say the limit.")
    with cols[1]:
        if use.checks_limit:
            used = use.checks_used or 0
            st.progress(
                min(1.0, used / use.checks_limit),
                text=f"{used} of {use.checks_limit} keyword checks used this month (adds and refreshes)",
            )
        elif use.uncapped_checks_words:
            st.caption(use.uncapped_checks_words)


def _table(listing: TrackedKeywords, domain: str) -> None:
    frame = tracked_frame(listing)
    if frame.empty:
        st.info(f"{escape_md(domain)} tracks no keywords yet. Add one above.", icon=":material/info:")
        return
    table_with_export(
        frame,
        what="tracked-keywords",
        subject=domain,
        key="tracked",
        column_config=COLUMNS,
        column_order=tracked_column_order(frame),
    )
    st.caption(escape_md(gap_reading(frame, domain)))
    if frame["impressions"].isna().all():
        st.caption("Search Console impressions show here when Search Console is connected for this site.")
    tiers = ", ".join(f"{escape_md(label)}" for label in TIER_LABELS.values())
    st.caption(
        f"The service also gives each gap a tier: {tiers}. Tiers are its historical labels, not plan "
        "names. Tier, Min DR and more are one click away in the table's column menu (the eye icon)."
    )


def show_site(conn: Connection, domain: str, slug: str) -> None:
    """The site's tracked keywords: the last edit's outcome, the meters, the edits, then the table."""
    listing = read_or_show_error(
        data.tracked_keywords, conn, slug, subject=domain, not_found=partial(_not_owned, domain)
    )
    if listing is None:
        return
    remember_site(domain)

    outcome = show_outcome(conn, slug, listing.limit)
    if (
        outcome is not None
        and outcome.error is not None
        and not data.is_cached(conn, "tracked_keywords", slug)
    ):
        # The refusal said the stored list was stale: read it again.
        reread = read_or_show_error(data.tracked_keywords, conn, slug, subject=domain)
        if reread is None:
            return
        listing = reread
    use = usage(listing)
    _meters(use)
    busy = write_requested(TRACKED_SLOT)
    _, locked = access.write_permission()
    access.read_only_note(locked)
    left, right = st.columns(2, gap="large")
    with left:
        st.markdown("**Add a keyword**")
        add_form(slug, domain, use, busy, locked)
    with right:
        st.markdown("**Refresh or remove one**")
        manage(listing, slug, use, busy, locked)
    run_requested_write(conn, TRACKED_SLOT, note="Sending your change to the service…")
    _table(listing, domain)
