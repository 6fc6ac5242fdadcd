"""Domain overview: one site's lookup as cards, evidence and charts, or several sites side by side."""

from __future__ import annotations

from functools import partial

import streamlit as st

from client.errors import ApiError, InvalidInputError, NotFoundError
from client.inputs import parse_domain_list
from client.models import Lookup
from components.common.text import escape_md, safe_http_url
from components.core.auth import access
from components.core.cache import data
from components.core.cache.connection import Connection, current_connection
from components.core.nav.pages import OVERVIEW, page_header
from components.core.nav.shared_inputs import domain_or_demo
from components.core.ui.errors import read_or_show_error, show_error
from components.core.ui.tables import SITE_RATING_COLUMNS, WRAPPED_ROW_HEIGHT, score_column, table_with_export
from components.core.writes.quota_spends import (
    read_priced,
    request_spend,
    run_requested_spend,
    show_spend_outcome,
    spend_requested,
)
from components.history.widgets import watch_controls
from components.overview.charts import changes_chart, compare_chart
from components.overview.frames import backlinks_frame, changes_frame, compare_frame, merged_note
from components.overview.widgets import authority_cards, compare_details, evidence_cards, site_heading

#: Comparing more sites than this is a bulk job (the bulk DR checker), not a side-by-side view.
MAX_COMPARE = 20
DEMO_DOMAINS = ("stripe.com", "example.com", "hubspot.com", "github.com")
#: An entry that is not a domain is shown as typed, up to this many characters.
MAX_ENTRY_CHARS = 200
#: The write slot of "Check its DR": its click waits here for the run that spends the unit.
DR_SLOT = "overview_dr"

BACKLINK_COLUMNS = {
    "source_domain": st.column_config.TextColumn("Linking domain"),
    "dr": score_column("DR"),
    "follow": st.column_config.CheckboxColumn("Follow"),
    "anchor": st.column_config.TextColumn("Anchor text"),
    "url": st.column_config.LinkColumn("Linking page"),
}
#: The comparison at a glance, narrow enough to fit the page at 1280 px (with the Problem column too).
#: A site's title, confidence, verification, backlinks and weekly changes read in full in "Each site in
#: full" under the table, and are in both CSVs.
COMPARE_COLUMNS = {
    "domain": st.column_config.TextColumn("Domain", pinned=True, width=150),
    "title": st.column_config.TextColumn("Title"),
    **SITE_RATING_COLUMNS,
    "dr": {**SITE_RATING_COLUMNS["dr"], "width": 64},
    "true_dr": {**SITE_RATING_COLUMNS["true_dr"], "width": 68},
    "trust_score": {**SITE_RATING_COLUMNS["trust_score"], "width": 58, "help": "Backlink trust, 0–100"},
    "gap": st.column_config.NumberColumn("TrueDR − DR", format="%+d", width=90),
    "confidence": st.column_config.TextColumn("Confidence"),
    "traffic": st.column_config.NumberColumn(
        "Traffic", format="localized", width=88, help="Estimated monthly visits"
    ),
    "referring_domains": st.column_config.NumberColumn("Referring domains", format="localized", width=125),
    "backlinks": st.column_config.NumberColumn("Backlinks", format="localized"),
    "dr_weekly_change": st.column_config.NumberColumn("DR change this week", format="%+.1f"),
    "true_dr_weekly_change": st.column_config.NumberColumn("TrueDR change this week", format="%+.1f"),
    "traffic_change": st.column_config.NumberColumn("Traffic change this week", format="%+.0f"),
    "verified": st.column_config.CheckboxColumn("Verified"),
    "error": st.column_config.TextColumn("Problem", width=165),
}
COMPARE_ORDER = ["domain", "dr", "true_dr", "gap", "trust_score", "traffic", "referring_domains"]


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


def _single(conn: Connection, raw: str) -> None:
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


def _compare(conn: Connection, text: str) -> None:
    """One row per entry, in the order typed: duplicates merged (and named), non-domains kept as rows."""
    parsed = parse_domain_list(text, limit=MAX_COMPARE)
    if not parsed.entries:
        st.caption("Enter two or more domains, one per line or separated by commas.")
        return
    if note := merged_note(parsed.duplicates):
        st.caption(note)  # the entries are code spans: shown as typed
    rows = [e for e in parsed.entries if e.same_as is None]
    progress = st.progress(0.0, text="Looking up domains…")
    results: list[tuple[str, Lookup | ApiError]] = []
    for i, entry in enumerate(rows, start=1):
        if entry.problem is not None or entry.domain is None:
            results.append(
                (entry.text[:MAX_ENTRY_CHARS], InvalidInputError(entry.problem or "Not a domain."))
            )
            continue
        try:
            results.append((entry.domain, data.lookup(conn, entry.domain)))
        except ApiError as exc:
            results.append((entry.domain, exc))
        progress.progress(i / len(rows), text=f"Looked up {i} of {len(rows)}")
    progress.empty()
    frame = compare_frame(results)
    failed = int(frame["error"].notna().sum())
    order = list(COMPARE_ORDER)
    if failed:
        verb = "has" if failed == 1 else "have"
        st.caption(
            f"{failed} of {len(frame)} entries {verb} a problem; the Problem column says which and why."
        )
        order.insert(1, "error")  # failures are explained next to their domain, not off-screen
    if parsed.domains:
        st.plotly_chart(data.figure(compare_chart, frame), key="compare_chart")
    table_with_export(
        frame,
        what="domain-comparison",
        key="compare",
        column_config=COMPARE_COLUMNS,
        column_order=order,
        row_height=WRAPPED_ROW_HEIGHT if failed else None,  # a problem reads in full, over a few lines
        narrowed_to_fit=True,
    )
    compare_details([r for _, r in results if isinstance(r, Lookup)])


conn = current_connection()
page_header(
    OVERVIEW, "DR, TrueDR, trust and the evidence behind them for listed sites. Lookups spend no quota."
)

compare_mode = st.toggle("Compare several domains", key="compare", bind="query-params")
if compare_mode:
    compare_text = st.text_area(
        "Domains to compare",
        key="domains",
        bind="query-params",
        placeholder="stripe.com\nhubspot.com\nexample.com",
        help=f"One per line or separated by commas; URLs and subdomains are fine. Up to {MAX_COMPARE}.",
    )
    _compare(conn, compare_text or "")
else:
    domain_or_demo(
        conn,
        help_text="A domain, subdomain or URL; it is rated as its registrable domain.",
        show=_single,
        demos=DEMO_DOMAINS,
        demo_key="demo",
    )
