"""The Coach's "Next" tab: the single best next action and, for the partner action, whom to contact;
then, for one of your own sites, the keyword of its opportunities list worth pushing first.

The only tab that reads exchange candidates (asked for as the vdr CLI asks: traffic-validated,
TrueDR floor, a few). Nothing is sent from here: the partner card links to the Link exchanges page,
where a proposal is previewed before it can be sent.
"""

from __future__ import annotations

import streamlit as st

from analysis.coach import rules as coach
from analysis.text import escape_md
from analysis.wording import whole_number
from client.growth_inputs import DiscoveryFilters
from client.growth_models import ExchangeCandidate
from client.models import Lookup
from components.coach.widgets.opportunities import opportunity_actions
from components.coach.widgets.pieces import action_card, data_used, score_text
from components.core.cache import data
from components.core.cache.connection import Connection
from components.core.nav.pages import EXCHANGES, link_to
from components.core.ui.errors import read_or_show_error
from components.core.ui.sidebar import RESULT_PREFIX

#: Exchange candidates as the vdr CLI's "next" asks for them: traffic-validated, TrueDR 20+, a few.
PARTNER_FILTERS = DiscoveryFilters(
    traffic_validated=True, min_true_dr=coach.PARTNER_MIN_TRUE_DR, limit=coach.PARTNER_CANDIDATE_LIMIT
)
#: The Link exchanges page's own filters, set to match, so the suggested partner is in its list.
EXCHANGES_QUERY = {"ex_validated": "true", "ex_min_true_dr": str(coach.PARTNER_MIN_TRUE_DR)}
#: Where the Link exchanges page records (domain, partner) pairs it sent a proposal for this session.
EXCHANGES_SENT_KEY = RESULT_PREFIX + "exchange_sent"


def load_candidates(conn: Connection, domain: str) -> list[ExchangeCandidate] | None:
    """Exchange candidates as the vdr CLI asks for them; None (with the error shown) when unavailable."""
    found = read_or_show_error(
        data.exchange_candidates, conn, domain, PARTNER_FILTERS, subject=f"exchange candidates for {domain}"
    )
    return None if found is None else found.candidates


def contacted_partners(domain: str) -> set[str]:
    """Partners this session already sent a proposal to from ``domain`` (kept by the exchanges page)."""
    sent = st.session_state.get(EXCHANGES_SENT_KEY) or set()
    return {target for source, target in sent if source == domain}


def partner_card(pick: coach.PartnerPick, domain: str) -> None:
    """The partner to contact, why it fits, and a link to preview a proposal on Link exchanges."""
    with st.container(border=True):
        title = f" — {escape_md(pick.title)}" if pick.title else ""
        st.markdown(f"**{escape_md(pick.domain)}**{title}")
        cols = st.columns(3)
        cols[0].metric("TrueDR", score_text(pick.true_dr))
        cols[1].metric("DR", score_text(pick.dr))
        cols[2].metric("Traffic", whole_number(pick.traffic))
        if pick.reason:
            angle = escape_md((pick.angle or "partnership").replace("_", " "))
            st.markdown(f"**Why it fits** ({angle}): {escape_md(pick.reason)}")
        link_to(
            EXCHANGES,
            label=f"Preview a proposal to {escape_md(pick.domain)}",
            icon=":material/visibility:",
            query_params=EXCHANGES_QUERY | {"domain": domain},
            help="Opens Link exchanges with this site chosen. Pick the partner there; a preview (a dry run) "
            "comes first and nothing is sent until you approve the previewed text.",
        )
    st.caption(
        "Proposals are sent from one of your own sites, always previewed first. Based on: "
        f"{coach.plain_sources((coach.SRC_CANDIDATES,))} with validated traffic and TrueDR "
        f"{coach.PARTNER_MIN_TRUE_DR}+."
    )
    data_used((coach.SRC_CANDIDATES,), coach.PARTNER.cli_for(domain))


def next_tab(conn: Connection, lookup: Lookup, domain: str) -> None:
    """The top action; when it is the partner action, the best candidate not yet contacted."""
    action = coach.ranked_actions(lookup)[0]
    candidates = load_candidates(conn, domain) if action.key == coach.PARTNER.key else None
    step = coach.next_step(lookup, candidates, contacted_partners(domain))
    action_card(step.action, 1, domain, "Next")
    if step.action.key == coach.PARTNER.key:
        _partner(step, candidates, domain)
    st.markdown("#### The keyword worth pushing first")
    opportunity_actions(conn, domain, count=1, with_watched=False)


def _partner(step: coach.NextStep, candidates: list[ExchangeCandidate] | None, domain: str) -> None:
    st.markdown("#### The partner to contact")
    if step.partner is not None:
        partner_card(step.partner, domain)
    elif candidates is not None:
        st.info(escape_md(step.partner_note or ""), icon=":material/person_search:")
        link_to(EXCHANGES, label="See all exchange candidates", query_params={"domain": domain})
