"""The My sites page's Streamlit parts: the Your sites tab (counts, the ratings chart, the table and
links to each site's pages) and the Submit a site tab (the form, its write and what the service
answered)."""

from __future__ import annotations

import streamlit as st

from analysis.sites.charts import ratings_bars
from analysis.sites.frames.sites import VERDICT_COLOURS, sites_frame
from analysis.text import escape_md
from analysis.wording import whole_number
from client.errors import ApiError, InvalidInputError
from client.growth_inputs import MAX_DESCRIPTION_CHARS, MAX_TITLE_CHARS, NewSite
from client.growth_models import SubmittedSite
from client.models import Categories
from components.core.auth import access
from components.core.cache import data
from components.core.cache.connection import Connection
from components.core.nav import pages
from components.core.ui.errors import read_or_show_error, show_error
from components.core.ui.sidebar import RESULT_PREFIX
from components.core.ui.tables import SITE_RATING_COLUMNS, table_with_export
from components.core.writes.writes import flash, refused, show_flash
from components.sites.widgets import writes as site_writes

TAB_KEY = "sites_tab"
#: The last submission the service accepted this session (a ``SubmittedSite``), shown under the form.
LAST_SUBMISSION = RESULT_PREFIX + "last_submission"
SITE_COLUMNS = {
    "domain": st.column_config.TextColumn("Site", pinned=True),
    "status": st.column_config.TextColumn("Status"),
    **SITE_RATING_COLUMNS,
    # Narrow rating bars, so the table fits a laptop-wide page.
    "dr": {**SITE_RATING_COLUMNS["dr"], "width": "small"},
    "true_dr": {**SITE_RATING_COLUMNS["true_dr"], "width": "small"},
    "traffic": st.column_config.NumberColumn("Traffic", format="localized"),
    "referring_domains": st.column_config.NumberColumn("Referring domains", format="localized"),
    "verified": st.column_config.CheckboxColumn(
        "Badge", help="Your VerifiedDR badge was verified on the site."
    ),
    "gsc_connected": st.column_config.CheckboxColumn(
        "Search Console", help="A Search Console property is connected."
    ),
    "site_check_verdict": st.column_config.TextColumn("Site check"),
    "categories": st.column_config.TextColumn("Categories"),
    "created": st.column_config.TextColumn("Added"),
    "slug": None,
}
#: What the table shows at first; the rest of ``SITE_COLUMNS`` is one click away in its column menu.
#: All of them would be wider than a laptop-wide page, and a column scrolled off to the right is missed.
SHOWN_COLUMNS = [
    "domain",
    "status",
    "dr",
    "true_dr",
    "trust_score",
    "traffic",
    "referring_domains",
    "verified",
    "gsc_connected",
]
#: The pages a site opens on, with the link's own label or icon where it is not the page's.
SITE_PAGES: tuple[tuple[pages.AppPage, str | None, str | None], ...] = (
    (pages.SITE, "Details, TrueDR, export, verify", None),
    (pages.AI_VISIBILITY, None, None),
    (pages.SEARCH_CONSOLE, None, None),
    (pages.MONITOR, None, None),
    (pages.EXCHANGES, None, None),
    (pages.SITE_CHECK, None, ":material/fact_check:"),
)


def your_sites_tab(conn: Connection) -> None:
    listing = read_or_show_error(data.sites, conn, subject="your sites")
    if listing is None:
        return
    frame = sites_frame(listing)
    if frame.empty:
        st.info("This key has no sites yet. Submit one in the next tab.", icon=":material/add_circle:")
        return
    pending = int((frame["status"] == "pending").sum())
    cols = st.columns(3)
    of = f" of {listing.site_limit}" if listing.site_limit is not None else ""
    cols[0].metric("Sites", f"{len(frame)}{of}", border=True, help="How many sites your plan holds.")
    cols[1].metric("Badge verified", int(frame["verified"].fillna(False).sum()), border=True)
    cols[2].metric("Pending review", pending, border=True, help="Ratings other than DR follow the review.")
    st.plotly_chart(
        data.figure(ratings_bars, frame, title="DR and TrueDR of your sites"), key="my_sites_chart"
    )
    table_with_export(
        frame,
        what="my-sites",
        key="my_sites",
        column_config=SITE_COLUMNS,
        column_order=SHOWN_COLUMNS,
        narrowed_to_fit=True,
    )
    st.caption(
        "Traffic validation, the site-check verdict, categories and the date added: in the table's column "
        "menu (the eye icon)."
    )
    with st.container(horizontal=True, vertical_alignment="bottom"):
        chosen = st.selectbox(
            "Open a site", list(frame["domain"].astype(str)), key="my_sites_open", width=300
        )
        if chosen:
            for page, label, icon in SITE_PAGES:
                pages.link_to(page, label=label, icon=icon, query_params={"domain": chosen})


def _submit(conn: Connection) -> None:
    state = st.session_state
    try:
        site = NewSite(
            url=state.get("submit_url", ""),
            title=state.get("submit_title"),
            description=state.get("submit_description"),
            categories=tuple(state.get("submit_categories") or ()),
            x_handle=state.get("submit_x"),
            site_check=bool(state.get("submit_check")),
        )
    except InvalidInputError as exc:
        flash("submit_site", refused("submit_site", exc))
        return
    outcome = site_writes.submit_site(conn, site)
    if outcome.ok:
        state[LAST_SUBMISSION] = outcome.value
    flash("submit_site", outcome)


def _submission_result(submitted: SubmittedSite) -> None:
    site, check = submitted.site, submitted.site_check
    domain = site.domain or site.slug
    with st.container(border=True):
        status = escape_md(site.status or "received")
        st.markdown(f"**{escape_md(domain)}** is **{status}**.")
        if site.status == "pending":
            st.caption("DR is known at once; TrueDR, trust and traffic follow the review.")
        if check is None:
            st.caption("No site check was asked for, so there is no site-check report.")
            return
        verdict = check.verdict or "unknown"
        st.badge(
            f"Site check: {escape_md(verdict)}",
            color=VERDICT_COLOURS.get(verdict, "gray"),
            icon=":material/fact_check:",
        )
        if check.reasons:
            st.markdown("\n".join(f"- {escape_md(reason)}" for reason in check.reasons))
        else:
            st.caption("Nothing wrong found.")
        st.caption(
            f"Referring domains {whole_number(check.referring_domains)} · ranked keywords "
            f"{whole_number(check.ranked_keywords)} · spam score {whole_number(check.spam_score)}"
        )
        pages.link_to(
            pages.SITE_CHECK,
            label="Open the full site-check report",
            icon=":material/fact_check:",
            query_params={"domain": domain},
            help="Reading a saved report spends one quota unit.",
        )
        st.caption("Opening the full report spends one quota unit.")


def submit_tab(conn: Connection) -> None:
    """The submission form (a write, for editors), its outcome, and the last accepted submission."""
    try:
        categories: Categories | None = data.categories(conn)
    except ApiError as exc:
        categories = None
        show_error(exc, subject="the category list")
    labels = {c.value: c.label or c.value for c in categories.categories} if categories else {}
    most = categories.max_per_site if categories else None
    _, locked = access.write_permission()
    access.read_only_note(locked)
    with st.form("submit_site_form", clear_on_submit=False):
        st.text_input("Site URL", key="submit_url", placeholder="https://example.com")
        st.text_input("Title (optional)", key="submit_title", max_chars=MAX_TITLE_CHARS)
        st.text_area(
            "Description (optional)", key="submit_description", max_chars=MAX_DESCRIPTION_CHARS, height=90
        )
        st.multiselect(
            "Categories",
            options=list(labels),
            format_func=lambda v: labels.get(v, v),
            max_selections=most,
            placeholder=f"Choose up to {most}" if most else "Choose categories",
            key="submit_categories",
            help=f"At most {most} per site." if most else "The category list could not be loaded.",
            disabled=not labels,
        )
        st.text_input("X handle (optional)", key="submit_x", placeholder="@yourbrand")
        st.checkbox(
            "Run a site check too (creates the site-check report)",
            key="submit_check",
            value=True,
            help="The fraud verdict (real, suspicious, shell or unreachable) with its reasons.",
        )
        st.form_submit_button(
            "Submit site",
            type="primary",
            icon=":material/send:",
            on_click=_submit,
            args=(conn,),
            disabled=locked is not None,
            help=locked,
        )
    show_flash("submit_site", subject="this submission")
    last = st.session_state.get(LAST_SUBMISSION)
    if isinstance(last, SubmittedSite):
        _submission_result(last)
