"""Tracked keywords of one of your sites: stored snapshots, and add / refresh / remove, each sent once."""

from __future__ import annotations

import streamlit as st

from client.errors import ApiError, ConflictError, InvalidInputError, NotFoundError
from client.models import TrackedKeywords
from components.common.text import escape_md
from components.core import access, data
from components.core.connection import Connection, current_connection
from components.core.errors import read_or_show_error, show_error
from components.core.pages import TRACKED_KEYWORDS, page_header
from components.core.shared_inputs import DOMAIN_KEY
from components.core.sidebar import RESULT_PREFIX
from components.core.tables import table_with_export
from components.core.writes import (
    WriteOutcome,
    peek_flash,
    run_requested_write,
    show_flash,
    write_requested,
)
from components.keywords.frames.report import TIER_LABELS, present_columns
from components.keywords.frames.tracked import Usage, gap_reading, tracked_frame, usage
from components.keywords.widgets import (
    LIVE_SERP_NOTE,
    TRACKED_SLOT,
    owned_sites,
    refusal_context,
    remember_site,
    request_add,
    request_refresh,
    request_remove,
)

SITE_KEY = DOMAIN_KEY
ADD_KEY = "track"
PICK_KEY = "tracked_pick"
CONFIRM_KEY = RESULT_PREFIX + "tracked_confirm_remove"
#: Shown when at least one keyword has a value (Search Console columns need it connected).
OPTIONAL_COLUMNS = ("position_change", "impressions", "gsc_position", "search_volume", "cpc")

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
    # Not shown at first (see SHOWN_COLUMNS); the table's column menu lists them under these labels.
    "tier": st.column_config.TextColumn("Tier", help="Historical labels for the gap, not plan names"),
    "min_dr": st.column_config.NumberColumn("Min DR", format="%g", help="The lowest DR in the top 10"),
    "user_dr": st.column_config.NumberColumn("Your DR", format="%d", help="At the check"),
    "prev_position": st.column_config.NumberColumn("Previous position", format="%d"),
    "id": st.column_config.TextColumn("ID"),
}
#: The table's columns at first, in order. So that it fits a laptop screen, these wait in the table's
#: column menu (and the raw CSV): the tier (it follows from the gap, and the caption says how), the
#: lowest DR in the top 10 (Keyword research shows it with the whole top 10), your DR (said once
#: under the table), the previous position ("Moved" shows the change) and the service's id.
SHOWN_COLUMNS = (
    "keyword",
    "user_position",
    "position_change",
    "median_dr",
    "gap",
    "impressions",
    "gsc_position",
    "search_volume",
    "cpc",
    "last_checked_at",
)


# --- picking the site -----------------------------------------------------------------------------


def _normalised(raw: str | None) -> str | None:
    try:
        return data.domain_or_none(raw)
    except InvalidInputError:
        return None


def _pick_site(conn: Connection) -> tuple[str, str] | None:
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
        column_order=present_columns(frame[list(SHOWN_COLUMNS)], OPTIONAL_COLUMNS),
    )
    st.caption(escape_md(gap_reading(frame, domain)))
    if frame["impressions"].isna().all():
        st.caption("Search Console impressions show here when Search Console is connected for this site.")
    tiers = ", ".join(f"{escape_md(label)}" for label in TIER_LABELS.values())
    st.caption(
        f"The service also gives each gap a tier: {tiers}. Tiers are its historical labels, not plan "
        "names. Tier, Min DR and more are one click away in the table's column menu (the eye icon)."
    )


# --- writes ---------------------------------------------------------------------------------------


def _request_add(slug: str, domain: str) -> None:
    """Form submit: ask for the add of what was typed (sent once, after this callback)."""
    request_add(slug, domain, st.session_state.get(ADD_KEY) or "")


def _ask_remove(slug: str, target_id: str) -> None:
    st.session_state[CONFIRM_KEY] = (slug, target_id)


def _cancel_remove() -> None:
    st.session_state.pop(CONFIRM_KEY, None)


def _confirm_remove(slug: str, target_id: str, keyword: str) -> None:
    st.session_state.pop(CONFIRM_KEY, None)
    request_remove(slug, target_id, keyword)


def _show_outcome(conn: Connection, slug: str, limit: int | None) -> WriteOutcome | None:
    """The last write's message; a refusal that means the list is stale re-reads it."""
    outcome = show_flash(TRACKED_SLOT, subject="this keyword")
    if outcome is None or outcome.error is None:
        return outcome
    context = refusal_context(outcome.error, limit)
    if context:
        st.caption(context)
    if isinstance(outcome.error, NotFoundError | ConflictError):
        data.forget(conn, "tracked_keywords", slug)
    return outcome


def _add_form(slug: str, domain: str, use: Usage, busy: bool, locked: str | None) -> None:
    with st.form("track_form"):
        # Never disabled: Streamlit drops the value a disabled field was submitted with, and the
        # typed text must survive a failed add. The submit button is what waits.
        st.text_input("Keyword to track", key=ADD_KEY, placeholder="e.g. privacy friendly analytics")
        st.form_submit_button(
            "Track keyword",
            icon=":material/add_chart:",
            on_click=_request_add,
            args=(slug, domain),
            disabled=busy or use.at_limit or locked is not None,
            help=locked,
            type="primary",
        )
        cost = ""
        if use.checks_limit:
            cost = f" Spends 1 of your monthly checks ({use.checks_left} left)."
        st.caption(("The site is at its limit: remove a keyword first." if use.at_limit else "") + cost)


def _manage(listing: TrackedKeywords, slug: str, use: Usage, busy: bool, locked: str | None) -> None:
    keywords = {k.id: k.keyword for k in listing.keywords}
    if not keywords:
        st.caption("Nothing to refresh or remove yet.")
        return
    target_id = st.selectbox(
        "Tracked keyword", list(keywords), format_func=keywords.__getitem__, key=PICK_KEY, disabled=busy
    )
    if target_id is None:
        return
    keyword = keywords[target_id]
    cols = st.columns(2)
    cols[0].button(
        "Refresh snapshot",
        key="refresh_button",
        icon=":material/refresh:",
        on_click=request_refresh,
        args=(slug, target_id, keyword),
        disabled=busy or locked is not None,
        width="stretch",
        help=locked or "Re-measure the top 10 now. " + LIVE_SERP_NOTE,
    )
    cols[1].button(
        "Remove…",
        key="remove_button",
        icon=":material/delete:",
        on_click=_ask_remove,
        args=(slug, target_id),
        disabled=busy or locked is not None,
        help=locked,
        width="stretch",
    )
    if use.checks_limit:
        st.caption(f"A refresh spends 1 of your monthly checks ({use.checks_left} left).")
    if locked is None and st.session_state.get(CONFIRM_KEY) == (slug, target_id):
        with st.container(border=True):
            st.warning(
                f"Stop tracking **“{escape_md(keyword)}”**? Its stored snapshot is deleted; adding it "
                "again later starts a new one.",
                icon=":material/delete_forever:",
            )
            yes, no = st.columns(2)
            yes.button(
                "Yes, remove it",
                key="confirm_remove",
                type="primary",
                on_click=_confirm_remove,
                args=(slug, target_id, keyword),
                disabled=busy,
                width="stretch",
            )
            no.button("Cancel", key="cancel_remove", on_click=_cancel_remove, disabled=busy, width="stretch")


def _site(conn: Connection, domain: str, slug: str) -> None:
    try:
        listing = data.tracked_keywords(conn, slug)
    except NotFoundError as exc:
        _not_owned(domain, exc)
        return
    except ApiError as exc:
        show_error(exc, subject=domain)
        return
    remember_site(domain)

    outcome = _show_outcome(conn, slug, listing.limit)
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
        _add_form(slug, domain, use, busy, locked)
    with right:
        st.markdown("**Refresh or remove one**")
        _manage(listing, slug, use, busy, locked)
    run_requested_write(conn, TRACKED_SLOT, note="Sending your change to the service…")
    _table(listing, domain)


conn = current_connection()
page_header(
    TRACKED_KEYWORDS,
    "The keywords you follow for one of your sites, each with its stored difficulty snapshot. Reading "
    "this list never triggers a live Google search: it shows what the service stored at the last check.",
)
# Before the field is drawn: a keyword sent here by a link ("Track it") fills it once, and a
# successful add empties it (a failed one keeps the text). It is not bound to the URL: a link to
# this page must never carry a half-typed action.
if ADD_KEY in st.query_params:
    st.session_state[ADD_KEY] = st.query_params[ADD_KEY]
    del st.query_params[ADD_KEY]
_last = peek_flash(TRACKED_SLOT)
if _last is not None and _last.ok and not _last.duplicate and _last.operation == "add_tracked_keyword":
    st.session_state[ADD_KEY] = ""

picked = _pick_site(conn)
if picked is not None:
    _site(conn, *picked)
