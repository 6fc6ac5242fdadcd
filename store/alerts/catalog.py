"""The alert rules an account can switch on or off: their ids, plain names, default thresholds.

``RULES`` is the catalog, in the order the app lists the rules; ``RuleSetting`` is one account's choice
for one rule (a row of ``alert_rules``, or the defaults when there is none). ``check_setting`` says in
plain words what is wrong with a threshold before anything is stored.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass
from datetime import date


@dataclass(frozen=True)
class RuleSpec:
    """What a rule is about: ``name`` in plain words, its default ``threshold`` and the threshold's unit."""

    name: str
    default_threshold: float | None
    unit: str | None
    describes: str
    #: The largest sensible threshold (a percentage stops at 100).
    max_threshold: float | None = None


RULES: dict[str, RuleSpec] = {
    "authority_drop": RuleSpec(
        "DR or TrueDR dropped",
        2.0,
        "points",
        "DR or TrueDR of a watched domain dropped by at least this many points over 7 days.",
        100.0,
    ),
    "traffic_validation_lost": RuleSpec(
        "Traffic validation lost",
        None,
        None,
        "A watched domain's traffic was validated on the previous snapshot and is not any more.",
    ),
    "verification_lost": RuleSpec(
        "Verification lost",
        None,
        None,
        "A watched domain was verified on the previous snapshot and is not any more.",
    ),
    "keyword_left_top10": RuleSpec(
        "Keyword left the top 10",
        None,
        None,
        "A tracked or watched keyword ranked in the top 10 for its site on the previous snapshot "
        "and does not any more.",
    ),
    "keyword_moved": RuleSpec(
        "Keyword moved",
        5.0,
        "positions",
        "A tracked or watched keyword moved up or down for its site by at least this many positions "
        "since the previous snapshot.",
        100.0,
    ),
    "referring_domains_fell": RuleSpec(
        "Referring domains fell",
        5.0,
        "%",
        "A watched domain's referring domains fell by at least this percentage week over week.",
        100.0,
    ),
    "spam_risky_link": RuleSpec(
        "New spam-risky link",
        50.0,
        "spam score",
        "A new referring domain with at least this spam score appeared in one of your sites' Trust Maps.",
        100.0,
    ),
    "strong_link_lost": RuleSpec(
        "Strong link lost",
        50.0,
        "DR",
        "A dofollow link from a domain with at least this DR went from live to lost.",
        100.0,
    ),
    "visibility_fell": RuleSpec(
        "Visibility fell",
        10.0,
        "points",
        "One of your sites' visibility for a keyword group (all watched keywords, brand, non-brand or a "
        "tag) fell by at least this many points week over week.",
        100.0,
    ),
    "competitor_top3": RuleSpec(
        "Competitor entered a top 3",
        None,
        None,
        "A competitor you watch entered the top 3 of a keyword you watch for one of your sites.",
    ),
    "partner_stopped_linking": RuleSpec(
        "Partner stopped linking",
        None,
        None,
        "A site you sent an exchange proposal to linked to your site and no longer does.",
    ),
}


@dataclass(frozen=True)
class RuleSetting:
    """One account's setting of one rule."""

    rule: str
    threshold: float | None
    enabled: bool


def default_setting(rule: str) -> RuleSetting:
    return RuleSetting(rule, RULES[rule].default_threshold, True)


def check_setting(rule: str, threshold: float | None) -> float | None:
    """The threshold to store for ``rule``; ValueError in plain words for an unknown rule or bad number."""
    spec = RULES.get(rule)
    if spec is None:
        raise ValueError(f"there is no alert rule called {rule!r}")
    if spec.default_threshold is None:
        if threshold is not None:
            raise ValueError(f"“{spec.name}” has no threshold to set")
        return None
    if threshold is None:
        raise ValueError(f"“{spec.name}” needs a threshold ({spec.unit})")
    if isinstance(threshold, bool) or not isinstance(threshold, int | float) or not math.isfinite(threshold):
        raise ValueError(f"the threshold of “{spec.name}” must be a number")
    value = float(threshold)
    if value <= 0:
        raise ValueError(f"the threshold of “{spec.name}” must be more than 0")
    if spec.max_threshold is not None and value > spec.max_threshold:
        raise ValueError(f"the threshold of “{spec.name}” can be at most {spec.max_threshold:g}")
    return value


FINGERPRINT_LEN = 255
#: The History chart an alert links to.
CHARTS = ("domain", "keyword", "trust_map", "market", "market_churn")


@dataclass(frozen=True)
class Finding:
    """What a rule found on one day: an alert before it is stored.

    ``key`` names what it is about beyond the subject (a metric, a referring domain), so that
    ``fingerprint`` is one per (rule, subject, key, day): evaluating the day again finds the same one.
    With ``once`` it is one per (rule, subject, key): found again on a later day, it is already known.

    The evidence its chart link opens on (``analysis.links``): ``since`` is the day of the earlier
    snapshot the rule compared ``day`` with (the "before" point), ``metric`` the domain chart's number,
    ``referring_domain`` the link a Trust Map alert is about, ``site`` the site a keyword is measured for
    (a tracked site's slug, a watched keyword's domain; "" when a watched keyword's site is unknown).
    """

    rule: str
    subject: str
    day: date
    title: str
    chart: str
    chart_subject: str
    before: str | None = None
    after: str | None = None
    detail: str | None = None
    key: str = ""
    #: Told once ever per subject and key, whatever the day (a spam domain that leaves the sample and
    #: comes back is not news twice); otherwise once per day.
    once: bool = False
    since: date | None = None
    metric: str | None = None
    referring_domain: str | None = None
    site: str | None = None

    @property
    def fingerprint(self) -> str:
        parts = (self.subject, self.key) if self.once else (self.subject, self.key, self.day.isoformat())
        text = "|".join(part for part in parts if part)
        if len(text) <= FINGERPRINT_LEN:
            return text
        return f"{text[:180]}|{hashlib.sha256(text.encode()).hexdigest()[:40]}"
