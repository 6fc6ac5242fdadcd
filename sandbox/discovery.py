"""Discovery of trusted sites (GET /find) and link-exchange candidates and proposals (/find).

The sites come from one fixed pool of listed domains (the well-known ones, the demo-owned ones and a
few hundred made-up ones), each described by the same ``site_profile`` that /lookup uses, so a
discovery row and the lookup of that row agree to the point. Filters and ranking are the contract
notes': category, minimum TrueDR and DR, traffic validated, verified unless unverified sites are
asked for, at most 50, ranked by TrueDR then DR.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache

from client.growth_inputs import (
    MAX_FIND_LIMIT,
    MAX_MESSAGE_CHARS,
    MAX_SUBJECT_CHARS,
    DiscoveryFilters,
)
from client.growth_models import (
    ContactQuota,
    ContactTarget,
    Discovery,
    ExchangeCandidate,
    ExchangeCandidates,
    ExchangeContact,
    FindFilters,
    Opportunity,
)
from client.inputs import normalise_domain
from client.models import Lookup
from sandbox import resources
from sandbox.data import (
    CATEGORIES,
    DEMO_SITES,
    KNOWN_SITES,
    SiteProfile,
    domain_for_slug,
    is_listed,
    made_up_domain,
    site_profile,
    slug_of,
)
from sandbox.hashing import rng_for
from sandbox.problems import ApiProblem, bad_request, conflict, not_found

#: Made-up listed sites in the discovery pool, besides the well-known and demo-owned ones.
POOL_SIZE = 420
DEFAULT_FIND_LIMIT = 20
DEFAULT_CANDIDATE_LIMIT = 10
#: Exchange partners are of similar strength: at most this many TrueDR points apart.
CANDIDATE_TRUE_DR_WINDOW = 20
#: Proposals each plan may send per month (the contact quota the service reports).
CONTACT_LIMITS: Mapping[str, int | None] = {"pro": 20, "agency": 100, "free": 0}
_CATEGORY_LABELS = dict(CATEGORIES)
_TRUE = ("true", "1", "yes")


@lru_cache(maxsize=1)
def pool() -> tuple[str, ...]:
    """Every listed site discovery can return, in a fixed order."""
    names: dict[str, None] = dict.fromkeys((*KNOWN_SITES, *DEMO_SITES))
    for i in range(POOL_SIZE * 3):
        if len(names) >= POOL_SIZE + len(KNOWN_SITES) + len(DEMO_SITES):
            break
        name = made_up_domain(rng_for("discovery-pool", i))
        if is_listed(name):
            names.setdefault(name, None)
    return tuple(names)


def _flag(params: Mapping[str, str], name: str) -> bool:
    return params.get(name, "").strip().lower() in _TRUE


def _int_param(params: Mapping[str, str], name: str, low: int, high: int) -> int | None:
    raw = params.get(name)
    if raw is None or raw.strip() == "":
        return None
    try:
        value = int(raw)
    except ValueError:
        raise bad_request(f"{name} must be a whole number from {low} to {high}.") from None
    if not low <= value <= high:
        raise bad_request(f"{name} must be a whole number from {low} to {high}.")
    return value


def filters_from_query(params: Mapping[str, str], default_limit: int) -> DiscoveryFilters:
    """The documented query parameters as filters; 400 for an unknown category or out-of-range value."""
    category = (params.get("category") or "").strip().lower() or None
    if category is not None and category not in _CATEGORY_LABELS:
        raise bad_request(f"Unknown category '{category}'. GET /categories lists the values.")
    limit = _int_param(params, "limit", 1, MAX_FIND_LIMIT)
    return DiscoveryFilters(
        category=category,
        min_true_dr=_int_param(params, "minTrueDr", 0, 100),
        min_dr=_int_param(params, "minDr", 0, 100),
        traffic_validated=_flag(params, "trafficValidated"),
        include_unverified=_flag(params, "includeUnverified"),
        limit=limit if limit is not None else default_limit,
    )


def _echo(filters: DiscoveryFilters, exchanges_for: str | None = None) -> FindFilters:
    return resources.copied(FindFilters, filters, exchanges_for=exchanges_for)


def _matches(p: SiteProfile, f: DiscoveryFilters) -> bool:
    if f.category is not None and p.category != f.category:
        return False
    if f.min_true_dr is not None and p.true_dr < f.min_true_dr:
        return False
    if f.min_dr is not None and p.dr < f.min_dr:
        return False
    if f.traffic_validated and not p.traffic_validated:
        return False
    return f.include_unverified or p.verified


def _light_lookup(domain: str, base_url: str) -> Lookup:
    """A lookup object without the backlink samples, which discovery lists do not carry."""
    lookup = resources.lookup(domain, base_url)
    lookup.evidence.top_backlinks = None
    lookup.evidence.bottom_backlinks = None
    return lookup


def find(filters: DiscoveryFilters, base_url: str) -> Discovery:
    """GET /find without exchangesFor: listed sites ranked by TrueDR, then DR, then name."""
    profiles = [site_profile(d) for d in pool()]
    chosen = sorted(
        (p for p in profiles if _matches(p, filters)), key=lambda p: (-p.true_dr, -p.dr, p.domain)
    )
    limit = filters.limit or DEFAULT_FIND_LIMIT
    sites = [_light_lookup(p.domain, base_url) for p in chosen[:limit]]
    return Discovery(filters=_echo(filters), sites=sites)


def _fit(you: SiteProfile, them: SiteProfile) -> float:
    """How well a partner fits: same category, similar TrueDR, validated traffic, trusted links."""
    score = 30.0 if them.category == you.category else 0.0
    score += CANDIDATE_TRUE_DR_WINDOW - abs(them.true_dr - you.true_dr)
    score += 10.0 if them.traffic_validated else 0.0
    return score + them.trust_score / 10


def _opportunity(you: SiteProfile, them: SiteProfile) -> Opportunity:
    same = them.category == you.category
    label = _CATEGORY_LABELS.get(them.category, them.category)
    parts = [
        f"Same category ({label})" if same else f"Adjacent audience ({label})",
        f"TrueDR {them.true_dr} next to your {you.true_dr}",
    ]
    if them.traffic_validated:
        parts.append("traffic validated")
    parts.append(f"trust score {them.trust_score}")
    kind = "link_exchange" if same else "resource_link"
    return Opportunity(type=kind, reason="; ".join(parts) + ".")


def candidate_domains(domain: str, filters: DiscoveryFilters, exclude: tuple[str, ...]) -> list[str]:
    """Every pool site that fits as a partner of ``domain`` under the filters, best fit first."""
    you = site_profile(domain)
    skip = {domain, *exclude}
    rows: list[tuple[float, str]] = []
    for name in pool():
        if name in skip:
            continue
        them = site_profile(name)
        if abs(them.true_dr - you.true_dr) > CANDIDATE_TRUE_DR_WINDOW or not _matches(them, filters):
            continue
        rows.append((_fit(you, them), name))
    rows.sort(key=lambda row: (-row[0], row[1]))
    return [name for _, name in rows]


def exchange_candidates(
    domain: str, filters: DiscoveryFilters, exclude: tuple[str, ...], base_url: str
) -> ExchangeCandidates:
    """GET /find?exchangesFor=: partners for a listed domain, each with why it fits."""
    you = site_profile(domain)
    names = candidate_domains(domain, filters, exclude)[: filters.limit or DEFAULT_CANDIDATE_LIMIT]
    candidates = []
    for name in names:
        lookup = _light_lookup(name, base_url).model_dump()
        candidates.append(ExchangeCandidate(**lookup, opportunity=_opportunity(you, site_profile(name))))
    return ExchangeCandidates(
        domain=domain, redacted=False, filters=_echo(filters, exchanges_for=domain), candidates=candidates
    )


# --- POST /find: preview (dry run) or send one proposal --------------------------------------


@dataclass(frozen=True)
class SentProposal:
    key: str
    exchanges_for: str
    target: str
    subject: str
    message: str
    at: datetime


@dataclass
class OutreachLog:
    """Proposals sent per key; a dry run leaves no trace."""

    sent: list[SentProposal] = field(default_factory=list)

    def used(self, key: str) -> int:
        return sum(1 for s in self.sent if s.key == key)

    def already_sent(self, key: str, exchanges_for: str, target: str) -> bool:
        return any((s.key, s.exchanges_for, s.target) == (key, exchanges_for, target) for s in self.sent)


@dataclass(frozen=True)
class Proposal:
    exchanges_for: str
    target: str
    subject: str
    message: str
    dry_run: bool


_PROPOSAL_HELP = (
    'Send {"exchangesFor": your domain, "target": a candidate slug or domain, "subject", "message"}; '
    'add "dryRun": true to preview first.'
)


def _text(body: Mapping[str, object], name: str, limit: int) -> str:
    value = body.get(name)
    if not isinstance(value, str) or not value.strip():
        raise bad_request(
            "A proposal needs a subject and a message: outreach is human-approved, so preview it "
            "(dryRun: true) and then approve the previewed text."
        )
    text = value.strip()
    if len(text) > limit:
        raise bad_request(f"The {name} is at most {limit} characters.")
    return text


def parse_proposal(body: object) -> Proposal:
    """The POST /find body (``opportunitiesFor`` accepted for ``exchangesFor``); 400 when malformed."""
    if not isinstance(body, dict):
        raise bad_request(_PROPOSAL_HELP)
    source = body.get("exchangesFor", body.get("opportunitiesFor"))
    target = body.get("target")
    if not isinstance(source, str) or not isinstance(target, str) or not target.strip():
        raise bad_request(_PROPOSAL_HELP)
    dry_run = body.get("dryRun", False)
    if not isinstance(dry_run, bool):
        raise bad_request("dryRun is true or absent.")
    return Proposal(
        exchanges_for=normalise_domain(source),
        target=target.strip().lower(),
        subject=_text(body, "subject", MAX_SUBJECT_CHARS),
        message=_text(body, "message", MAX_MESSAGE_CHARS),
        dry_run=dry_run,
    )


def resolve_target(proposal: Proposal, exclude: tuple[str, ...]) -> str:
    """The candidate a proposal goes to, by slug or domain; 404 when it is not a candidate."""
    raw = proposal.target
    domain = normalise_domain(raw) if "." in raw else domain_for_slug(raw)
    fits = domain is not None and domain in candidate_domains(
        proposal.exchanges_for, DiscoveryFilters(include_unverified=True), exclude
    )
    if not fits:
        raise not_found(f"'{raw}' is not an exchange candidate for {proposal.exchanges_for}.")
    assert domain is not None
    return domain


def contact(
    log: OutreachLog, key: str, tier: str, proposal: Proposal, target: str, now: datetime
) -> ExchangeContact:
    """Preview (nothing stored) or send once: 409 for a repeat, 402 when the month's quota is spent."""
    limit = CONTACT_LIMITS.get(tier)
    if not proposal.dry_run:
        if log.already_sent(key, proposal.exchanges_for, target):
            raise conflict(f"A proposal from {proposal.exchanges_for} to {target} was already sent.")
        if limit is not None and log.used(key) >= limit:
            raise ApiProblem(
                402, f"Monthly exchange-proposal quota used up ({limit} of {limit}). It renews next month."
            )
        log.sent.append(
            SentProposal(key, proposal.exchanges_for, target, proposal.subject, proposal.message, now)
        )
    p = site_profile(target)
    return ExchangeContact(
        dry_run=proposal.dry_run,
        sent=not proposal.dry_run,
        to=ContactTarget(domain=target, title=p.title, slug=slug_of(target)),
        subject=proposal.subject,
        message=proposal.message,
        quota=ContactQuota(used=log.used(key), limit=limit, plan=tier),
    )
