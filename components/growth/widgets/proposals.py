"""The link-exchange writes, with what this session knows about them: the last preview, the partners
proposed to, an approval refused because the text changed, the last proposal quota.

Each write is sent once per user action (``components.core.writes.writes``). A preview is a dry run
(nothing is sent, so no cached read changes); approving sends exactly the previewed draft, and only
while the subject and message on screen are still the ones previewed. Call the writes from widget
callbacks or form submits only, never in the page body.
"""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from analysis.text import escape_md
from client.errors import ConflictError
from client.growth_models import ExchangeContact
from client.outreach import ExchangeDraft
from components.core.cache.connection import Connection
from components.core.ui.sidebar import RESULT_PREFIX
from components.core.writes.writes import WriteOutcome, flash, write_once

#: The last successful preview, with the text it was asked for (a ``PreviewedProposal``).
PREVIEWED = RESULT_PREFIX + "exchange_draft"
#: (your site, partner domain) pairs the service confirmed a proposal for this session: sent from here,
#: or refused as already sent. The Coach's "Next" reads it too, to skip partners already contacted.
PROPOSED = RESULT_PREFIX + "exchange_sent"
#: The partner whose approval was refused because the text changed after its preview (shown once).
TEXT_CHANGED = RESULT_PREFIX + "exchange_text_changed"
#: The service's last answer to a send, for its proposal quota.
LAST_CONTACT = RESULT_PREFIX + "exchange_last_contact"
PREVIEW_SLOT, APPROVE_SLOT = "exchange_preview", "exchange_approve"


@dataclass(frozen=True)
class PreviewedProposal:
    """A previewed draft and the subject and message exactly as they were on screen when previewed.

    The screen text is kept beside the draft (which holds the service's echo, trimmed) so that an
    approval compares like with like: the fields as they are now against the fields as they were.
    """

    draft: ExchangeDraft
    subject: str
    message: str

    def still_shows(self, subject: str, message: str) -> bool:
        """Whether the fields still hold the previewed text, so approving sends what the person sees."""
        return (subject, message) == (self.subject, self.message)


def preview_exchange(conn: Connection, domain: str, target: str, subject: str, message: str) -> WriteOutcome:
    """A dry run: nothing is sent, so no read changes."""
    return write_once(conn, "preview_exchange", domain, target, subject, message, success="Preview ready.")


def approve_exchange(conn: Connection, draft: ExchangeDraft) -> WriteOutcome:
    to = draft.preview.to
    name = to.domain if to and to.domain else draft.target
    return write_once(conn, "approve_exchange", draft, success=f"Proposal sent to {escape_md(name)}.")


def previewed_proposal(site: str, target: str) -> PreviewedProposal | None:
    """This session's preview of a proposal from ``site`` to ``target``, if that is the last one."""
    previewed = st.session_state.get(PREVIEWED)
    if isinstance(previewed, PreviewedProposal) and (
        previewed.draft.exchanges_for,
        previewed.draft.target,
    ) == (site, target):
        return previewed
    return None


def proposed_partners(site: str) -> set[str]:
    """Partners the service confirmed a proposal from ``site`` to this session (domains or slugs)."""
    return {partner for source, partner in st.session_state.get(PROPOSED) or set() if source == site}


def _note_proposed(site: str, partner: str) -> None:
    st.session_state.setdefault(PROPOSED, set()).add((site, partner))


def preview_proposal(conn: Connection, site: str, target: str, subject_key: str, message_key: str) -> None:
    """Form callback: preview the text on screen; keep the draft with that text, or say why not.

    A failed preview drops the earlier one: the panel only ever shows the last text asked for.
    """
    subject, message = st.session_state.get(subject_key, ""), st.session_state.get(message_key, "")
    st.session_state.pop(PREVIEWED, None)
    outcome = preview_exchange(conn, site, target, subject, message)
    if outcome.ok:
        st.session_state[PREVIEWED] = PreviewedProposal(outcome.value, subject, message)
    else:
        flash(PREVIEW_SLOT, outcome)


def approve_proposal(
    conn: Connection, previewed: PreviewedProposal, partner: str, subject_key: str, message_key: str
) -> None:
    """Form callback: send the previewed draft, only while the fields still hold the previewed text.

    Edited text is never sent unseen: the draft is dropped and the page asks for a new preview. A
    send the service confirms, or refuses as already sent (409), marks ``partner`` as proposed to.
    """
    subject, message = st.session_state.get(subject_key, ""), st.session_state.get(message_key, "")
    site = previewed.draft.exchanges_for
    if not previewed.still_shows(subject, message):
        st.session_state.pop(PREVIEWED, None)
        st.session_state[TEXT_CHANGED] = partner
        return
    outcome = approve_exchange(conn, previewed.draft)
    if outcome.ok or isinstance(outcome.error, ConflictError):
        st.session_state.pop(PREVIEWED, None)
        _note_proposed(site, partner)
    if outcome.ok and isinstance(outcome.value, ExchangeContact):
        st.session_state[LAST_CONTACT] = outcome.value
    flash(APPROVE_SLOT, outcome)


def show_text_changed() -> None:
    """Once, where the preview was: the approval was refused because the text changed after it."""
    partner = st.session_state.pop(TEXT_CHANGED, None)
    if partner is None:
        return
    st.warning(
        f"**Nothing was sent to {escape_md(partner)}: the text changed since the preview.** Approving "
        "sends only text you have seen previewed. Preview the new text, check it, then approve it.",
        icon=":material/edit_note:",
    )
