"""Site-level demo facts: DR, listing, Trust Map readiness, titles, categories and profiles.

Everything here is a pure function of the (already normalised) registrable domain and the day, so
every route that mentions a domain (its own rating, a SERP row, a referring domain, a backlink)
reports the same numbers for it that day, on every run and every machine. The numbers drift with the
day (``sandbox.drift``) and are exactly the ``base_*`` ones on the epoch day. No I/O and no state:
what changes while the sandbox runs lives in ``sandbox.state``; the Trust Map's members live in
``sandbox.links``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, timedelta
from functools import lru_cache

from client.errors import InvalidInputError
from client.inputs import normalise_domain
from sandbox.catalog import DEMO_SITES, KNOWN_SITES
from sandbox.clock import EPOCH_DAY, days_from_epoch, resolve
from sandbox.drift import Knots, climb, knots, knotted, members_present, shift, wobble
from sandbox.hashing import rng_for, unit
from sandbox.words import ADJECTIVES, NOUNS, TAGLINES, TLDS

#: The sandbox's "now" for stored data (report dates, SERP fetch times), so bodies are reproducible.
SANDBOX_EPOCH = datetime(2025, 1, 6, 9, 0, tzinfo=UTC)
assert SANDBOX_EPOCH.date() == EPOCH_DAY, "the numbers drift from the day the demo data stands for"

#: Share of ordinary domains that are approved (listed) sites, and of those whose Trust Map is cold.
LISTED_SHARE = 0.8
COLD_MAP_SHARE = 1 / 7
#: Share of ordinary listed sites with no title, and with no traffic signal from the provider.
UNTITLED_SHARE = 0.06
MISSING_TRAFFIC_SHARE = 0.15
#: A Trust Map answer carries at most this many referring domains (the spec's limit).
MAP_SIZE = 60
#: Every listed site has at least this many referring domains, so five top and five bottom
#: backlinks always exist.
MIN_REFERRING_DOMAINS = 10

CATEGORIES: tuple[tuple[str, str], ...] = (
    ("saas", "SaaS"),
    ("ecommerce", "E-commerce"),
    ("marketing", "Marketing"),
    ("finance", "Finance"),
    ("health", "Health & fitness"),
    ("travel", "Travel"),
    ("education", "Education"),
    ("news-media", "News & media"),
    ("developer-tools", "Developer tools"),
    ("agency", "Agency"),
    ("local-business", "Local business"),
    ("other", "Other"),
)
MAX_CATEGORIES_PER_SITE = 3


#: Extra listed sites whose saved site-check reports show the three non-real verdicts.
SUSPICIOUS_SITE = "rankboost-links.net"
SHELL_SITE = "pixelvault-app.io"
UNREACHABLE_SITE = "closed-corner-shop.co.uk"
FLAGGED_SITES: tuple[str, ...] = (SUSPICIOUS_SITE, SHELL_SITE, UNREACHABLE_SITE)


def slug_of(domain: str) -> str:
    """The service's site identifier: the registrable domain with dots as hyphens."""
    return domain.replace(".", "-")


def domain_for_slug(slug: str) -> str | None:
    """The listed domain a slug stands for, or None.

    Slugs are not reversible (``a-b-com`` could be ``a-b.com`` or ``a.b-com``...), so each split is
    tried and the first that is its own registrable domain and listed wins.
    """
    parts = slug.lower().split("-")
    for i in range(1, len(parts)):
        candidate = "-".join(parts[:i]) + "." + ".".join(parts[i:])
        try:
            if normalise_domain(candidate) == candidate and is_listed(candidate):
                return candidate
        except InvalidInputError:
            continue
    return None


@lru_cache(maxsize=16384)
def base_dr(domain: str) -> int:
    """Domain Rating 0–100 on the epoch day: well-known and demo sites fixed, others skewed to 5–60.

    What a site's demo data is built from (which SERPs it wins, how spammy its links look), so
    those never change with the day; ``dr_for`` is the rating a day reports.
    """
    if domain in KNOWN_SITES:
        return KNOWN_SITES[domain].dr
    if domain in DEMO_SITES:
        return DEMO_SITES[domain].dr
    # Beta(1.8, 4.2) puts ~90% of values between 5 and 60, with a thin tail of strong sites.
    return max(0, min(100, round(rng_for("dr", domain).betavariate(1.8, 4.2) * 100)))


def is_listed(domain: str) -> bool:
    """Whether the domain is an approved site: known, owned, seeded, or a stable ~80% of the rest."""
    if domain in KNOWN_SITES or domain in DEMO_SITES or domain in FLAGGED_SITES:
        return True
    return unit("listed", domain) < LISTED_SHARE


def is_map_cold(domain: str) -> bool:
    """Whether the listed site's Trust Map cache is cold (503); never for owned or well-known sites."""
    if domain in KNOWN_SITES or domain in DEMO_SITES:
        return False
    return is_listed(domain) and unit("cold-map", domain) < COLD_MAP_SHARE


def site_name(domain: str) -> str:
    """A human name from the domain (``acme-widgets.com`` → ``Acme Widgets``) for titles and text."""
    label = domain.split(".", 1)[0]
    return " ".join(word.capitalize() for word in label.split("-") if word) or domain


def title_for(domain: str) -> str | None:
    """The homepage title; a few ordinary sites have none, as when the provider could not read it."""
    if domain in KNOWN_SITES:
        return KNOWN_SITES[domain].title
    if domain in DEMO_SITES:
        return DEMO_SITES[domain].title
    if unit("untitled", domain) < UNTITLED_SHARE:
        return None
    return f"{site_name(domain)} — {rng_for('title', domain).choice(TAGLINES)}"


def category_for(domain: str) -> str:
    """The site's category value (one of ``CATEGORIES``)."""
    if domain in KNOWN_SITES:
        return KNOWN_SITES[domain].category
    if domain in DEMO_SITES:
        return DEMO_SITES[domain].category
    return CATEGORIES[int(unit("category", domain) * len(CATEGORIES))][0]


def made_up_domain(r: random.Random, words: tuple[str, ...] = ()) -> str:
    """A plausible, valid registrable domain drawn from the word lists (and optional extra words)."""
    first = r.choice(words) if words and r.random() < 0.5 else r.choice(ADJECTIVES)
    joiner = "-" if r.random() < 0.3 else ""
    return f"{first}{joiner}{r.choice(NOUNS)}.{r.choice(TLDS)}"


@dataclass(frozen=True)
class SiteProfile:
    """Every number the sandbox knows about one listed site; lookup, map and checks read from it."""

    domain: str
    dr: int
    true_dr: int
    trust_score: int
    confidence_score: float
    traffic: int | None
    traffic_validated: bool
    referring_domains: int
    backlinks: int
    global_rank: int
    gained_domains: int
    lost_domains: int
    dr_weekly_change: int
    true_dr_weekly_change: int
    dr_monthly_change: int
    true_dr_monthly_change: int
    traffic_change: int | None
    report_created_at: datetime
    verified: bool
    title: str | None
    category: str

    @property
    def confidence(self) -> str:
        if self.confidence_score >= 0.75:
            return "high"
        return "medium" if self.confidence_score >= 0.5 else "low"


def _clamp(value: float, low: int = 0, high: int = 100) -> int:
    return max(low, min(high, round(value)))


def _has_traffic(domain: str) -> bool:
    if domain in DEMO_SITES:
        return not DEMO_SITES[domain].traffic_missing
    if domain in KNOWN_SITES:
        return True
    return unit("traffic-missing", domain) >= MISSING_TRAFFIC_SHARE


def _verified(domain: str, r: random.Random) -> bool:
    if domain in DEMO_SITES:
        return DEMO_SITES[domain].verified
    return domain in KNOWN_SITES or r.random() < 0.55


@lru_cache(maxsize=16384)
def base_profile(domain: str) -> SiteProfile:
    """The profile of a site on the epoch day (meaningful for listed sites; computed for any domain)."""
    r = rng_for("profile", domain)
    dr = base_dr(domain)
    # TrueDR discounts links that bring no traffic, so it usually sits at or below DR.
    true_dr = _clamp(dr - r.randint(0, 15) if r.random() < 0.8 else dr + r.randint(1, 4))
    trust = _clamp(35 + dr * 0.5 + r.gauss(0, 12))
    traffic = int(10 ** (1.2 + dr / 22 + r.uniform(-0.5, 0.5))) if _has_traffic(domain) else None
    validated = traffic is not None and traffic >= 1000 and r.random() < 0.75
    confidence_score = round(
        max(0.05, min(0.99, 0.25 + trust / 200 + (0.2 if validated else 0) + r.uniform(-0.1, 0.1))), 2
    )
    referring = max(MIN_REFERRING_DOMAINS, int(10 ** (1.0 + dr / 26 + r.uniform(-0.3, 0.3))))
    dr_week = r.choice((-1, 0, 0, 0, 1, 1, 2))
    true_week = r.choice((-2, -1, 0, 0, 1, 1, 2))
    return SiteProfile(
        domain=domain,
        dr=dr,
        true_dr=true_dr,
        trust_score=trust,
        confidence_score=confidence_score,
        traffic=traffic,
        traffic_validated=validated,
        referring_domains=referring,
        backlinks=referring * r.randint(3, 40),
        global_rank=max(1, int(10 ** (7.6 - dr / 15 + r.uniform(-0.3, 0.3)))),
        gained_domains=r.randint(0, max(1, referring // 40)),
        lost_domains=r.randint(0, max(1, referring // 60)),
        dr_weekly_change=dr_week,
        true_dr_weekly_change=true_week,
        dr_monthly_change=dr_week + r.randint(-2, 3),
        true_dr_monthly_change=true_week + r.randint(-3, 3),
        traffic_change=None if traffic is None else int(traffic * r.uniform(-0.15, 0.2)),
        report_created_at=SANDBOX_EPOCH - timedelta(days=r.randint(0, 27), minutes=r.randint(0, 1439)),
        verified=_verified(domain, r),
        title=title_for(domain),
        category=category_for(domain),
    )


# --- the profile on any day --------------------------------------------------------------------
#: How far a rating swings: owned sites climb (``DemoSite.climb``), well-known sites barely move, the
#: rest wander a few points.
DR_SWING = {"owned": (0.8, 0.4), "known": (1.0, 0.3), "other": (2.0, 0.5)}
#: Weeks-long ups and downs within a month (``sandbox.drift.wobble``): DR's and TrueDR's own, in points
#: (a well-known site's barely move); trust's in points; traffic's (at least, at most: a small site's
#: few visits are noisier) and a large site's referring domains' as shares of the number.
DR_WOBBLE = {"owned": 1.3, "known": 0.45, "other": 1.0}
TRUE_DR_WOBBLE = {"owned": 1.0, "known": 0.5, "other": 0.6}
TRUST_WOBBLE, TRAFFIC_WOBBLE, REFERRING_WOBBLE = 1.2, (0.04, 0.1), 0.012


def _kind(domain: str) -> str:
    return "owned" if domain in DEMO_SITES else "known" if domain in KNOWN_SITES else "other"


def _dr_shift(domain: str, t: int) -> float:
    """How far the site's rating has moved on day ``t`` (before the weekly/monthly knots)."""
    kind = _kind(domain)
    amplitude, step = DR_SWING[kind]
    moved = shift(("dr", domain), t, amplitude, step) + wobble(("dr", domain), t, DR_WOBBLE[kind])
    if kind != "owned":
        return moved
    return moved + climb(t, DEMO_SITES[domain].climb, DEMO_SITES[domain].climb_lead)


def _true_dr_shift(domain: str, t: int) -> float:
    own = wobble(("true-dr", domain), t, TRUE_DR_WOBBLE[_kind(domain)])
    return _dr_shift(domain, t) + shift(("true-dr", domain), t, 0.8, 0.3) + own


def _rating_day(domain: str, t: int) -> int:
    """The day a rating stands for: owned and well-known sites are rated daily, the rest weekly
    (the last rating on or before ``t``), which keeps a Trust Map of many small sites cheap."""
    if domain in DEMO_SITES or domain in KNOWN_SITES:
        return t
    return t - t % 7


@lru_cache(maxsize=16384)
def _knots(domain: str) -> tuple[Knots, Knots, Knots]:
    """Bends of DR, TrueDR and traffic so the epoch's weekly and monthly changes are the history's."""
    p = base_profile(domain)
    week, month = _rating_day(domain, -7), _rating_day(domain, -30)
    dr = {
        week: -p.dr_weekly_change - _dr_shift(domain, week),
        month: -p.dr_monthly_change - _dr_shift(domain, month),
    }
    true_dr = {
        -7: -p.true_dr_weekly_change - _true_dr_shift(domain, -7),
        -30: -p.true_dr_monthly_change - _true_dr_shift(domain, -30),
    }
    traffic = {}
    if p.traffic and p.traffic_change is not None:
        traffic = {-30: -p.traffic_change / p.traffic - _traffic_shift(domain, -30)}
    return knots(dr), knots(true_dr), knots(traffic)


def _traffic_shift(domain: str, t: int) -> float:
    own = shift(("traffic", domain), t, 0.05, 0.015) + wobble(("traffic", domain), t, _traffic_wobble(domain))
    return 0.015 * _dr_shift(domain, t) + own


@lru_cache(maxsize=16384)
def _traffic_wobble(domain: str) -> float:
    """A dozen visits a month still move by one or two, where a few per cent of them would round away."""
    least, most = TRAFFIC_WOBBLE
    return min(most, least + 0.25 / max(1, base_profile(domain).traffic or 0) ** 0.5)


def _raw_dr(domain: str, t: int) -> int:
    """The rating before clamping to 0–100, so weekly changes are exact differences."""
    return _raw_dr_rated(domain, _rating_day(domain, t))


@lru_cache(maxsize=65536)
def _raw_dr_rated(domain: str, t: int) -> int:
    if t == 0:
        return base_dr(domain)
    return base_dr(domain) + round(_dr_shift(domain, t) + knotted(t, _knots(domain)[0]))


def _raw_true_dr(domain: str, t: int) -> int:
    base = base_profile(domain).true_dr
    if t == 0:
        return base
    return base + round(_true_dr_shift(domain, t) + knotted(t, _knots(domain)[1]))


def _traffic_at(domain: str, t: int) -> int | None:
    base = base_profile(domain).traffic
    if base is None or t == 0:
        return base
    return max(0, round(base * (1 + _traffic_shift(domain, t) + knotted(t, _knots(domain)[2]))))


def _referring_at(domain: str, t: int) -> int:
    """Referring domains: small sites count their map's members, big ones move a few per cent."""
    base = base_profile(domain).referring_domains
    if t == 0:
        return base
    if base < MAP_SIZE:
        return max(MIN_REFERRING_DOMAINS, members_present(domain, base, t))
    moved = 0.01 * _dr_shift(domain, t) + shift(("referring", domain), t, 0.02, 0.01)
    moved += wobble(("referring", domain), t, REFERRING_WOBBLE)
    return max(MAP_SIZE, round(base * (1 + moved)))


def dr_for(domain: str, day: date | None = None) -> int:
    """Domain Rating 0–100 on ``day`` (default: the sandbox's day): what /dr, /lookup and every row
    that names the domain report for it that day."""
    return rating_at(domain, days_from_epoch(resolve(day)))


@lru_cache(maxsize=262144)
def rating_at(domain: str, t: int) -> int:
    """``dr_for`` by days from the epoch (for callers that walk many days)."""
    return _clamp(_raw_dr(domain, t))


def site_profile(domain: str, day: date | None = None) -> SiteProfile:
    """The profile of a site on ``day`` (default: the sandbox's day); the epoch day's is ``base_profile``."""
    return _profile_at(domain, days_from_epoch(resolve(day)))


@lru_cache(maxsize=16384)
def _profile_at(domain: str, t: int) -> SiteProfile:
    p = base_profile(domain)
    if t == 0:
        return p
    dr_move = _dr_shift(domain, t)
    trust_move = shift(("trust", domain), t, 2.5, 1.0) + wobble(("trust", domain), t, TRUST_WOBBLE)
    referring = _referring_at(domain, t)
    traffic = _traffic_at(domain, t)
    month_ago = _traffic_at(domain, t - 30)
    net_now = referring - _referring_at(domain, t - 30)
    net_epoch = p.referring_domains - _referring_at(domain, -30)
    return replace(
        p,
        dr=_clamp(_raw_dr(domain, t)),
        true_dr=_clamp(_raw_true_dr(domain, t)),
        trust_score=_clamp(p.trust_score + 0.5 * dr_move + trust_move),
        confidence_score=round(
            max(0.05, min(0.99, p.confidence_score + shift(("confidence", domain), t, 0.03, 0.01))), 2
        ),
        traffic=traffic,
        referring_domains=referring,
        backlinks=p.backlinks * referring // p.referring_domains,
        global_rank=max(1, round(p.global_rank * 10 ** (-dr_move / 15))),
        gained_domains=max(0, p.gained_domains + max(0, net_now) - max(0, net_epoch)),
        lost_domains=max(0, p.lost_domains + max(0, -net_now) - max(0, -net_epoch)),
        dr_weekly_change=_raw_dr(domain, t) - _raw_dr(domain, t - 7),
        true_dr_weekly_change=_raw_true_dr(domain, t) - _raw_true_dr(domain, t - 7),
        dr_monthly_change=_raw_dr(domain, t) - _raw_dr(domain, t - 30),
        true_dr_monthly_change=_raw_true_dr(domain, t) - _raw_true_dr(domain, t - 30),
        traffic_change=None if traffic is None or month_ago is None else traffic - month_ago,
        report_created_at=p.report_created_at + timedelta(days=t),
    )
