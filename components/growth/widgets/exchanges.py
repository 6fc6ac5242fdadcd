"""The Link exchanges page's Streamlit parts: the candidate filters, the candidates table, and the
proposal (partner picker, why it fits, the editable draft, its preview and Approve)."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from analysis.growth.frames import (
    default_proposal_text,
    partner_choice,
    partner_facts,
    quota_text,
    was_proposed,
)
from analysis.text import escape_md
from client.errors import ApiError
from client.growth_inputs import MAX_MESSAGE_CHARS, MAX_SUBJECT_CHARS, DiscoveryFilters
from client.growth_models import ExchangeCandidate, ExchangeContact
from client.models import Lookup
from components.core.auth import access
from components.core.cache import data
from components.core.cache.connection import Connection
from components.core.ui.tables import WRAPPED_ROW_HEIGHT, table_with_export
from components.core.writes.writes import show_flash
from components.growth.widgets.filters import RATINGS_COLUMNS, rating_floor, result_count, result_limit
from components.growth.widgets.proposals import (
    APPROVE_SLOT,
    LAST_CONTACT,
    PREVIEW_SLOT,
    PreviewedProposal,
    approve_proposal,
    preview_proposal,
    previewed_proposal,
    proposed_partners,
    show_text_changed,
)

DEFAULT_CANDIDATES = 10
#: Narrow enough that the whole table fits the page at 1280 px. Why a partner fits is shown in full,
#: with its kind of opportunity, category, traffic check and title, for the partner picked below.
COLUMNS = {
    "domain": st.column_config.TextColumn("Partner", pinned=True),
    "proposal": st.column_config.TextColumn(
        "Your proposal", width=130, help="Partners the service confirmed a proposal to this session."
    ),
    **{name: {**config, "width": "small"} for name, config in RATINGS_COLUMNS.items()},
    "why": st.column_config.TextColumn("Why it fits", width=300),
    "slug": None,
}
#: Why a partner fits comes right after its name (and whether you proposed to it); the ratings follow.
ORDER = ["domain", "proposal", "why", "true_dr", "dr", "trust_score"]


def candidate_filters() -> DiscoveryFilters:
    """The filters of the candidates read (in an expander, each kept in the URL)."""
    with st.expander("Candidate filters", icon=":material/tune:"):
        cols = st.columns(3)
        validated = cols[0].toggle("Traffic validated only", key="ex_validated", bind="query-params")
        with cols[1]:
            min_true_dr = rating_floor("Minimum TrueDR", key="ex_min_true_dr")
        with cols[2]:
            limit = result_limit("Candidates", key="ex_limit", default=DEFAULT_CANDIDATES)
    return DiscoveryFilters(
        traffic_validated=validated,
        min_true_dr=min_true_dr,
        limit=limit,
    )


def category_labels(conn: Connection) -> dict[str, str]:
    """Category value → its label, or nothing when the list cannot be read."""
    try:
        return {c.value: c.label or c.value for c in data.categories(conn).categories}
    except ApiError:
        return {}  # the values themselves are shown instead


def candidates_table(frame: pd.DataFrame, domain: str) -> None:
    """How many candidates are left (the page stops when none is) and their table."""
    result_count(
        frame,
        noun="candidate",
        order="best fit first",
        none_left="No candidates match these filters. Relax them to see more partners.",
    )
    table_with_export(
        frame,
        what="exchange-candidates",
        subject=domain,
        key="candidates",
        column_config=COLUMNS,
        column_order=ORDER,
        row_height=WRAPPED_ROW_HEIGHT,  # why each partner fits, wrapped over a few lines
        narrowed_to_fit=True,
    )
    st.caption("Pick a partner below to read why it fits in full.")


def _preview_panel(
    conn: Connection,
    previewed: PreviewedProposal,
    partner: str,
    fields: tuple[str, str],
    locked: str | None = None,
) -> None:
    """Inside the proposal form: what the preview showed, and Approve, which submits the ``fields``
    (subject and message keys) with the click, so the text judged is the text on screen."""
    draft = previewed.draft
    to = draft.preview.to
    with st.container(border=True):
        st.markdown("**Preview** · nothing has been sent. Approving sends exactly this, once.")
        name = escape_md(to.domain if to and to.domain else draft.target)
        title = f" — {escape_md(to.title)}" if to and to.title else ""
        st.markdown(f"**To:** {name}{title}")
        st.markdown(f"**Subject:** {escape_md(draft.subject)}")
        st.text(draft.message)
        quota = quota_text(draft.preview)
        if quota:
            st.caption(quota + " Approving uses one.")
        st.form_submit_button(
            "Approve and send",
            key="ex_approve",
            type="primary",
            icon=":material/send:",
            on_click=approve_proposal,
            args=(conn, previewed, partner, *fields),
            disabled=locked is not None,
            help=locked,
        )
    st.caption("Changed the text? Preview it again: only previewed text can be approved.")


def _partner_detail(
    lookup: Lookup, partner: ExchangeCandidate, labels: dict[str, str], proposed: bool
) -> None:
    """The picked partner's row in full (why it fits, and what the narrow table leaves out), with a
    warning when this site already proposed to it, before anything can be previewed or approved."""
    if proposed:
        st.warning(
            f"**Already proposed.** The service confirmed a proposal from {escape_md(lookup.domain)} to "
            f"{escape_md(partner.domain)} this session. Pick another partner rather than proposing twice.",
            icon=":material/mark_email_read:",
        )
    reason = partner.opportunity.reason if partner.opportunity else None
    why = escape_md(reason) if reason else "the service gave no reason."
    st.markdown(f"**Why {escape_md(partner.domain)} fits:** {why}")
    if facts := partner_facts(partner, labels):
        st.caption(escape_md(facts))


def proposal(
    conn: Connection, lookup: Lookup, candidates: list[ExchangeCandidate], labels: dict[str, str]
) -> None:
    """Propose an exchange: pick a partner, edit the draft, preview it (a dry run), then approve it."""
    st.subheader("Propose an exchange", anchor=False)
    show_flash(PREVIEW_SLOT, subject="this proposal")
    show_flash(APPROVE_SLOT, subject="this proposal")
    last = st.session_state.get(LAST_CONTACT)
    if isinstance(last, ExchangeContact) and (quota := quota_text(last)):
        st.caption(quota)
    by_slug = {c.slug or c.domain: c for c in candidates}
    proposed = proposed_partners(lookup.domain)
    target = st.selectbox(
        "Partner",
        list(by_slug),
        format_func=lambda s: partner_choice(by_slug[s]),
        key=f"ex_target:{lookup.domain}",
    )
    if target is None:
        return
    partner = by_slug[target]
    _partner_detail(lookup, partner, labels, was_proposed(partner, proposed))
    subject, message = default_proposal_text(lookup, partner)
    subject_key, message_key = f"ex_subject:{lookup.domain}:{target}", f"ex_message:{lookup.domain}:{target}"
    _, locked = access.write_permission()
    access.read_only_note(locked)
    with st.form(f"proposal:{lookup.domain}:{target}", border=True):
        st.text_input("Subject", value=subject, key=subject_key, max_chars=MAX_SUBJECT_CHARS)
        st.text_area("Message", value=message, key=message_key, height=230, max_chars=MAX_MESSAGE_CHARS)
        st.form_submit_button(
            "Preview (dry run: nothing is sent)",
            icon=":material/visibility:",
            on_click=preview_proposal,
            args=(conn, lookup.domain, target, subject_key, message_key),
            disabled=locked is not None,
            help=locked,
        )
        show_text_changed()
        previewed = previewed_proposal(lookup.domain, target)
        if previewed is not None:
            _preview_panel(conn, previewed, partner.domain, (subject_key, message_key), locked)
        else:
            st.caption(
                "Preview the proposal to see exactly what would be sent; approving comes after the preview."
            )
