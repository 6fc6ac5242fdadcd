"""The caller's sites: records with metrics, submissions, trends, the TrueDR breakdown, export and
badge verification (``sandbox.monitor`` watches them).

Seeded sites (``sandbox.accounts``) are approved and carry the same numbers /lookup gives. A
submitted site is approved at once when the domain is already listed, otherwise it is pending review:
it has a DR (any domain does) and its other ratings are null until review, which shows the app's
"missing, not zero" path. ``SiteStore`` holds what submissions and verifications change; it is not
thread-safe on its own (``SandboxState`` calls it under its lock).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from client.growth_inputs import NewSite, normalise_url
from client.growth_models import (
    SiteDetail,
    SiteExport,
    SiteRecord,
    TrendPoint,
    TrueDrReport,
    TrueDrSignal,
    Verification,
)
from client.inputs import normalise_domain
from client.models import Authority, ShellSignals, SiteCheck
from sandbox import resources
from sandbox.accounts import Account
from sandbox.clock import today
from sandbox.data import (
    CATEGORIES,
    DEMO_SITES,
    MAX_CATEGORIES_PER_SITE,
    SANDBOX_EPOCH,
    dr_for,
    is_listed,
    site_profile,
    slug_of,
    title_for,
)
from sandbox.hashing import rng_for, unit
from sandbox.problems import ApiProblem, bad_request, conflict
from sandbox.site_checks import Signals, report_of, saved_report

#: Sites each plan may hold; the free plan's one site is already taken by the seed.
SITE_LIMITS: Mapping[str, int] = {"free": 1, "pro": 10, "agency": 50}
TREND_WEEKS = 12
#: Signals of the private TrueDR breakdown: (name, label, share of the weight).
TRUE_DR_SIGNALS: tuple[tuple[str, str, float], ...] = (
    ("referringDomainQuality", "Referring-domain quality", 0.28),
    ("trafficValidation", "Traffic validation", 0.24),
    ("spamSignals", "Spam signals", 0.16),
    ("linkVelocity", "Link velocity", 0.12),
    ("anchorDiversity", "Anchor diversity", 0.10),
    ("topicalRelevance", "Topical relevance", 0.10),
)
_CATEGORY_VALUES = {value for value, _ in CATEGORIES}


@dataclass(frozen=True)
class Submission:
    owner: str
    site: NewSite
    domain: str
    created_at: datetime


@dataclass
class SiteStore:
    """Submitted sites, their site-check reports and badge verifications."""

    submissions: dict[str, Submission] = field(default_factory=dict)
    reports: dict[str, SiteCheck] = field(default_factory=dict)
    verifications: dict[str, tuple[datetime, bool]] = field(default_factory=dict)

    def domains_of(self, key: str) -> tuple[str, ...]:
        return tuple(d for d, s in self.submissions.items() if s.owner == key)

    def submission(self, domain: str) -> Submission | None:
        return self.submissions.get(domain)


# --- submissions ------------------------------------------------------------------------------


def parse_submission(body: object) -> NewSite:
    """The POST /sites body as a ``NewSite``; 400 for a missing URL or an unknown category."""
    if not isinstance(body, dict) or not isinstance(body.get("url"), str):
        raise bad_request(
            'Send {"url": "https://…"} with optional title, description, categories, siteCheck.'
        )
    categories = body.get("categories") or []
    if not isinstance(categories, list) or not all(isinstance(c, str) for c in categories):
        raise bad_request("categories is a list of category values (see GET /categories).")
    unknown = [c for c in categories if c.strip().lower() not in _CATEGORY_VALUES]
    if unknown:
        raise bad_request(f"Unknown category: {', '.join(unknown)}. GET /categories lists the values.")
    for name in ("title", "description", "xHandle"):
        if body.get(name) is not None and not isinstance(body[name], str):
            raise bad_request(f"{name} is text.")
    site_check = body.get("siteCheck", False)
    if not isinstance(site_check, bool):
        raise bad_request("siteCheck is true or false.")
    site = NewSite(
        url=body["url"],
        title=body.get("title"),
        description=body.get("description"),
        categories=tuple(categories),
        x_handle=body.get("xHandle"),
        site_check=site_check,
    )
    if len(site.categories) > MAX_CATEGORIES_PER_SITE:
        raise bad_request(f"At most {MAX_CATEGORIES_PER_SITE} categories per site.")
    return site


def submit(
    store: SiteStore, account: Account, owned: tuple[str, ...], site: NewSite, taken: bool, now: datetime
) -> Submission:
    """File a submission: 409 when the site is already someone's, 402 at the plan's site limit."""
    domain = site.domain
    if domain in owned:
        raise conflict(f"{domain} is already one of your sites.")
    if taken:
        raise conflict(f"{domain} was already submitted by another account.")
    limit = SITE_LIMITS.get(account.tier, SITE_LIMITS["pro"])
    if len(owned) >= limit:
        raise ApiProblem(
            402, f"Your plan holds {limit} site{'s' if limit != 1 else ''}; this would be one more."
        )
    submission = Submission(owner=account.key, site=site, domain=domain, created_at=now)
    store.submissions[domain] = submission
    if site.site_check:
        store.reports[domain] = new_site_check(domain)
    return submission


def new_site_check(domain: str) -> SiteCheck:
    """The report a fresh site check writes: mostly real sites, a deterministic few of each other verdict."""
    r = rng_for("submitted-check", domain)
    roll = unit("submitted-verdict", domain)
    reachable = roll < 0.95
    shell = 0.85 <= roll < 0.95
    risky = 0.7 <= roll < 0.85
    chars = r.randint(20, 150) if shell else r.randint(1500, 20000)
    signals = Signals(
        reachable=reachable,
        https=reachable,
        title=title_for(domain) if reachable else None,
        shell=ShellSignals(
            is_shell=shell,
            visible_text_chars=chars,
            text_ratio=round(r.uniform(0.001, 0.04) if shell else r.uniform(0.1, 0.4), 3),
            outbound_links=r.randint(0, 3) if shell else r.randint(5, 90),
        )
        if reachable
        else None,
        domain_age_years=round(r.uniform(0.2, 0.8) if risky else r.uniform(1.2, 15), 1),
        ranked_keywords=r.randint(0, 5) if risky else r.randint(15, 4000),
        spam_score=r.randint(55, 85) if risky else r.randint(0, 30),
    )
    return report_of(domain, signals)


# --- records ------------------------------------------------------------------------------------


def _approved(domain: str, store: SiteStore) -> bool:
    return store.submission(domain) is None or is_listed(domain)


def _verified(domain: str, store: SiteStore) -> bool:
    seen = store.verifications.get(domain)
    if seen is not None:
        return seen[1]
    return site_profile(domain).verified if _approved(domain, store) else False


def record(domain: str, store: SiteStore) -> SiteRecord:
    """One site of the caller as GET /sites lists it."""
    submission = store.submission(domain)
    report = store.reports.get(domain) or (saved_report(domain) if submission is None else None)
    demo = DEMO_SITES.get(domain)
    base = SiteRecord(
        slug=slug_of(domain),
        domain=domain,
        url=submission.site.url if submission else f"https://{domain}/",
        title=(submission.site.title if submission else None) or title_for(domain),
        description=submission.site.description if submission else None,
        categories=list(submission.site.categories) if submission else [site_profile(domain).category],
        x_handle=submission.site.x_handle if submission else None,
        status="approved" if _approved(domain, store) else "pending",
        verified=_verified(domain, store),
        dr=dr_for(domain),
        gsc_connected=bool(demo and demo.gsc_connected),
        site_check_verdict=report.verdict if report else None,
        created_at=submission.created_at if submission else _seeded_created_at(domain),
        last_verified_at=store.verifications[domain][0] if domain in store.verifications else None,
    )
    if not _approved(domain, store):
        return base
    p = site_profile(domain)
    return base.model_copy(
        update={
            "true_dr": p.true_dr,
            "trust_score": p.trust_score,
            "confidence": p.confidence,
            "traffic": p.traffic,
            "traffic_validated": p.traffic_validated,
            "referring_domains": p.referring_domains,
            "backlinks": p.backlinks,
            "dr_weekly_change": p.dr_weekly_change,
            "true_dr_weekly_change": p.true_dr_weekly_change,
        }
    )


def _seeded_created_at(domain: str) -> datetime:
    return SANDBOX_EPOCH - timedelta(days=rng_for("created", domain).randint(60, 900))


def trends(domain: str, store: SiteStore) -> list[TrendPoint]:
    """Weekly DR, TrueDR and traffic ending at the current values (one point for a pending site)."""
    if not _approved(domain, store):
        submission = store.submission(domain)
        day = submission.created_at.date() if submission else SANDBOX_EPOCH.date()
        return [TrendPoint(date=day, dr=dr_for(domain))]
    # The same history the sandbox's lookups give day by day (sandbox.drift), one point a week,
    # so the last step is the weekly change the record and /lookup report.
    end = today()
    points: list[TrendPoint] = []
    for week in range(TREND_WEEKS - 1, -1, -1):
        day = end - timedelta(weeks=week)
        p = site_profile(domain, day)
        points.append(TrendPoint(date=day, dr=p.dr, true_dr=p.true_dr, traffic=p.traffic))
    return points


def detail(domain: str, store: SiteStore) -> SiteDetail:
    return SiteDetail(**record(domain, store).model_dump(), trends=trends(domain, store))


def true_dr_report(domain: str, store: SiteStore) -> TrueDrReport:
    """TrueDR with per-signal impacts that add up exactly to TrueDR − DR (none while pending)."""
    rec = record(domain, store)
    if rec.true_dr is None:
        return TrueDrReport(
            domain=domain, slug=rec.slug, dr=rec.dr, true_dr=None, breakdown=[], computed_at=None
        )
    p = site_profile(domain)
    r = rng_for("truedr-breakdown", domain)
    gap = p.true_dr - p.dr
    # Some signals lift TrueDR and others hold it back; together they make up the whole gap.
    scale = max(2.0, abs(gap) / 2)
    share = gap / len(TRUE_DR_SIGNALS)
    impacts = [round(r.uniform(-1, 1) * scale + share, 1) for _ in TRUE_DR_SIGNALS]
    impacts[-1] = round(gap - sum(impacts[:-1]), 1)
    signals: list[TrueDrSignal] = []
    for (name, label, weight), impact in zip(TRUE_DR_SIGNALS, impacts, strict=True):
        missing = name == "trafficValidation" and p.traffic is None
        signals.append(
            TrueDrSignal(
                signal=name,
                label=label,
                score=None if missing else max(0, min(100, round(50 + impact * 6 + r.uniform(-8, 8)))),
                weight=weight,
                impact=impact,
                note="The traffic provider has no value for this site." if missing else None,
            )
        )
    return resources.copied(
        TrueDrReport,
        p,
        "dr true_dr trust_score confidence",
        domain=domain,
        slug=slug_of(domain),
        breakdown=signals,
        computed_at=SANDBOX_EPOCH,
    )


def authority_of(rec: SiteRecord) -> Authority:
    """The authority block of export and the monitor: the record's own ratings (null while pending)."""
    return resources.copied(Authority, rec, "dr true_dr trust_score confidence traffic_validated")


def export(domain: str, store: SiteStore) -> SiteExport:
    rec = record(domain, store)
    authority = authority_of(rec)
    snippets = resources.snippets(domain) if is_listed(domain) else None
    return SiteExport(site=rec, authority=authority, snippets=snippets)


# --- verify ---------------------------------------------------------------------------------


def parse_verify(body: object) -> tuple[str, str]:
    """The URL to re-check and its registrable domain; 400 when missing or not a web address."""
    if not isinstance(body, dict) or not isinstance(body.get("url"), str):
        raise bad_request('Send {"url": "https://…"}: the page where the badge is embedded.')
    url = normalise_url(body["url"])
    return url, normalise_domain(url)


def verify(store: SiteStore, url: str, domain: str, now: datetime) -> Verification:
    """Look for the badge at the URL: seeded sites as their profile says, new ones deterministically."""
    if _approved(domain, store) and store.submission(domain) is None:
        found = site_profile(domain).verified
    else:
        found = unit("badge-embedded", domain) < 0.5
    store.verifications[domain] = (now, found)
    message = (
        f"Found the VerifiedDR badge on {url}, linking to {domain}'s page."
        if found
        else f"No VerifiedDR badge found on {url}. Paste the badge snippet into that page and verify again."
    )
    return Verification(
        url=url,
        domain=domain,
        verified=found,
        badge_found=found,
        link_found=found,
        checked_at=now,
        message=message,
    )
