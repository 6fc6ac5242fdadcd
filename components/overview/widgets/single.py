"""One site on the Domain overview: its lookup as cards, evidence, weekly changes, public links and
backlinks; for a site that is not listed, its plain DR, read once an editor asks (it spends quota)."""

from __future__ import annotations

from functools import partial

import streamlit as st

from analysis.overview.charts import changes_chart
from analysis.overview.frames import backlinks_frame, changes_frame
from analysis.text import escape_md, safe_http_url
from client.errors import ApiError, InvalidInputError, NotFoundError
from client.models import Lookup
from components.core.auth import access
from components.core.cache import data
from components.core.cache.connection import Connection
from components.core.ui.errors import read_or_show_error, show_error
from components.core.ui.tables import score_column, table_with_export
from components.core.writes.quota_spends import (
    read_priced,
    request_spend,
    run_requested_spend,
    show_spend_outcome,
    spend_requested,
)
from components.history.widgets import watch_controls
from components.overview.widgets.cards import authority_cards, evidence_cards, site_heading

#: The write slot of "Check its DR": its click waits here for the run that spends the unit.
DR_SLOT = "overview_dr"

BACKLINK_COLUMNS = {
    "source_domain": st.column_config.TextColumn("Linking domain"),
    "dr": score_column("DR"),
    "follow": st.column_config.CheckboxColumn("Follow"),
    "anchor": st.column_config.TextColumn("Anchor text"),
    "url": st.column_config.LinkColumn("Linking page"),
}


def _unlisted(conn: Connection, domain: str) -> None:
    """No lookup for unlisted sites; offer the DR, which any domain has, but which spends quota."""
    st.info(
        f"**{escape_md(domain)} is not listed**, so there is no TrueDR, trust or evidence for it. "
        "Its plain Domain Rating is available for any domain.",
        icon=":material/info:",
    )
    # A priced read is a write (components.core.writes.quota_spends): editors click for it, once; a rating
    # read in the last 15 minutes is shown to anyone for free.
    cached = partial(data.is_cached, conn, "dr", domain)
    show_spend_outcome(DR_SLOT, subject=domain, answered=cached)
    if not cached():
        _, locked = access.write_permission()
        access.read_only_note(locked)
        st.button(
            "Check its DR (spends 1 quota unit)",
            key=f"dr_check_{domain}",
            icon=":material/speed:",
            disabled=locked is not None or spend_requested(DR_SLOT),
            help=locked,
            on_click=request_spend,
            args=(DR_SLOT, "dr", domain),
        )
        run_requested_spend(
            conn, DR_SLOT, lambda subjects, units: read_priced(conn, "dr", subjects[0], units)
        )
        return
    rating = read_or_show_error(data.dr, conn, domain, subject=domain)
    if rating is None:
        return
    st.metric("DR", "not available" if rating.dr is None else rating.dr, border=True)
    st.caption(f"Source: {escape_md(rating.source or 'not given')}")


def _links(lookup: Lookup) -> None:
    links = lookup.links
    page = safe_http_url(links.page) if links else None
    badge = safe_http_url(links.badge) if links else None
    if not (page or badge):
        st.caption("The service gave no public links for this site.")
        return
    cols = st.columns(2)
    if page:
        cols[0].link_button("Public VerifiedDR page", page, icon=":material/open_in_new:")
    if badge:
        cols[1].link_button("Badge image", badge, icon=":material/verified:")


def single_site(conn: Connection, raw: str) -> None:
    """The typed site's lookup in full; errors are explained, an unlisted site offers its DR."""
    try:
        lookup = data.lookup(conn, raw)
    except InvalidInputError as exc:
        show_error(exc)
        return
    except NotFoundError:
        _unlisted(conn, data.domain(raw))
        return
    except ApiError as exc:
        show_error(exc, subject=raw.strip())
        return

    site_heading(lookup.domain, lookup.title)
    watch_controls(conn, "domain", data.domain(raw), key="overview")
    authority_cards(lookup)
    evidence_cards(lookup)

    left, right = st.columns([3, 2])
    with left:
        st.plotly_chart(data.figure(changes_chart, changes_frame(lookup)), key="changes_chart")
    with right:
        st.markdown("**Public links**")
        _links(lookup)
        if lookup.category:
            st.caption(f"Category: {escape_md(lookup.category)}")

    e = lookup.evidence
    for label, links, key in (
        ("Strongest public backlinks", e.top_backlinks, "top_backlinks"),
        ("Weakest public backlinks", e.bottom_backlinks, "bottom_backlinks"),
    ):
        with st.expander(label, expanded=key == "top_backlinks"):
            frame = backlinks_frame(links)
            if frame.empty:
                st.caption("The service returned none.")
            else:
                table_with_export(
                    frame,
                    what=key.replace("_", "-"),
                    subject=lookup.domain,
                    key=key,
                    column_config=BACKLINK_COLUMNS,
                )
