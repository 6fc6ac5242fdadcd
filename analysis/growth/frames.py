"""Discovery and exchange answers → pandas DataFrames. Pure: no Streamlit, no network.

Missing signals stay missing (nullable dtypes, NA), never 0: a pending site without TrueDR must not
look like a site whose TrueDR is zero. Partners this site already proposed to are marked in the
candidate table, so nobody proposes twice by accident.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

import pandas as pd

from analysis.shaping import typed_frame
from analysis.text import escape_md
from analysis.wording import whole_number
from client.growth_inputs import MAX_MESSAGE_CHARS, MAX_SUBJECT_CHARS
from client.growth_models import (
    Discovery,
    ExchangeCandidate,
    ExchangeCandidates,
    ExchangeContact,
)
from client.models import Lookup

#: The mark of a partner this site already proposed an exchange to.
ALREADY_PROPOSED = "Already proposed"

DISCOVERY_COLUMNS: dict[str, str] = {
    "domain": "string",
    "dr": "Int64",
    "true_dr": "Int64",
    "trust_score": "Int64",
    "confidence": "string",
    "traffic_validated": "boolean",
    "category": "string",
    "verified": "boolean",
    "title": "string",
}
CANDIDATE_COLUMNS: dict[str, str] = {
    **{k: v for k, v in DISCOVERY_COLUMNS.items() if k != "verified"},
    "proposal": "string",
    "opportunity": "string",
    "why": "string",
    "slug": "string",
}


def _lookup_row(site: Lookup, labels: Mapping[str, str]) -> dict[str, Any]:
    a = site.authority
    return {
        "domain": site.domain,
        "dr": a.dr,
        "true_dr": a.true_dr,
        "trust_score": a.trust_score,
        "confidence": a.confidence,
        "traffic_validated": a.traffic_validated,
        "category": labels.get(site.category, site.category) if site.category else None,
        "verified": site.verified,
        "title": site.title,
    }


def discovery_frame(found: Discovery, labels: Mapping[str, str] | None = None) -> pd.DataFrame:
    """One row per discovered site, in the service's order (TrueDR, then DR); categories by label."""
    return typed_frame([_lookup_row(s, labels or {}) for s in found.sites], DISCOVERY_COLUMNS)


def was_proposed(candidate: ExchangeCandidate, proposed: Collection[str]) -> bool:
    """Whether ``proposed`` (partner domains or slugs) names this candidate."""
    return candidate.domain in proposed or (candidate.slug is not None and candidate.slug in proposed)


def _kind(candidate: ExchangeCandidate) -> str | None:
    """The kind of opportunity in words: ``link_exchange`` → "link exchange"."""
    kind = candidate.opportunity.type if candidate.opportunity else None
    return kind.replace("_", " ") if kind else None


def partner_facts(candidate: ExchangeCandidate, labels: Mapping[str, str] | None = None) -> str:
    """What the narrow table leaves out, in one line: the kind of opportunity, the category, whether
    the traffic is validated, and the site's title; facts the service did not give are left out."""
    validated = candidate.authority.traffic_validated
    parts = [
        (_kind(candidate) or "").capitalize(),
        (labels or {}).get(candidate.category, candidate.category) if candidate.category else "",
        "" if validated is None else ("traffic validated" if validated else "traffic not validated"),
        candidate.title or "",
    ]
    return " · ".join(part for part in parts if part)


def partner_choice(candidate: ExchangeCandidate) -> str:
    """How a partner reads in the picker: its domain and TrueDR.

    Fixed for the session (not "already proposed"): a picker whose option labels change while one is
    chosen keeps showing the old label in the browser. The table and a warning carry that mark.
    """
    return f"{candidate.domain} · TrueDR {whole_number(candidate.authority.true_dr)}"


def candidates_frame(
    found: ExchangeCandidates, labels: Mapping[str, str] | None = None, proposed: Collection[str] = ()
) -> pd.DataFrame:
    """Exchange candidates with the kind of opportunity, why each fits, and which were proposed to.

    ``proposed`` holds the partners (domains or slugs) the service confirmed a proposal to this session.
    """
    rows = []
    for c in found.candidates:
        row = _lookup_row(c, labels or {})
        row.pop("verified")
        row.update(
            proposal=ALREADY_PROPOSED if was_proposed(c, proposed) else None,
            opportunity=_kind(c),
            why=c.opportunity.reason if c.opportunity else None,
            slug=c.slug,
        )
        rows.append(row)
    return typed_frame(rows, CANDIDATE_COLUMNS)


def default_proposal_text(lookup: Lookup, partner: ExchangeCandidate) -> tuple[str, str]:
    """A starting draft (subject, message) in plain words: who you are and what you propose (the
    ratings stay yours), each cut to what the service accepts."""
    you = lookup.domain
    about = f" ({lookup.title})" if lookup.title else ""
    same = partner.opportunity is not None and partner.opportunity.type == "link_exchange"
    fit = "We write for the same audience" if same else "Our audiences overlap"
    subject = f"Link exchange: {you} and {partner.domain}"
    message = (
        f"Hi {partner.domain} team,\n\n"
        f"I run {you}{about}. {fit}, and I think a link exchange between our sites would help "
        "readers on both sides.\n\n"
        "Would you be open to exchanging a relevant link? I am happy to suggest pages on both sites "
        "where a link genuinely helps.\n\n"
        f"Best regards,\n{you}"
    )
    return subject[:MAX_SUBJECT_CHARS], message[:MAX_MESSAGE_CHARS]


def quota_text(contact: ExchangeContact | None) -> str | None:
    """The month's proposal quota as the service last gave it (markdown), or None when it gave none."""
    quota = contact.quota if contact else None
    if quota is None or (quota.used is None and quota.limit is None):
        return None
    used = whole_number(quota.used) if quota.used is not None else "unknown"
    of = f" of {whole_number(quota.limit)}" if quota.limit is not None else ""
    plan = f" (plan {escape_md(quota.plan)})" if quota.plan else ""
    return f"Exchange proposals used this month: {used}{of}{plan}."
