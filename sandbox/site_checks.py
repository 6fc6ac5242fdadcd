"""Saved site-check reports and the plain rules that turn their signals into a verdict.

The service only reads reports created when a site was submitted with ``siteCheck: true``, so the
sandbox keeps a fixed set: the demo-owned sites, a few well-known ones, and one site per non-real
verdict. The verdict and its reasons are computed from the stored signals by the rules below, never
typed in, so every reason a screen shows can be traced to a number in the same report.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from client.models import ShellSignals, SiteCheck
from sandbox.data import (
    DEMO_SITES,
    SHELL_SITE,
    SUSPICIOUS_SITE,
    UNREACHABLE_SITE,
    site_profile,
)
from sandbox.hashing import rng_for

#: Well-known sites with a saved report (all real).
KNOWN_CHECKED_SITES: tuple[str, ...] = (
    "google.com",
    "github.com",
    "wikipedia.org",
    "stripe.com",
    "shopify.com",
)

#: Thresholds of the verdict rules.
SHELL_MAX_VISIBLE_CHARS = 200
SHELL_MAX_TEXT_RATIO = 0.05
YOUNG_DOMAIN_YEARS = 1.0
THIN_FOOTPRINT_KEYWORDS = 10
THIN_FOOTPRINT_MIN_REFERRING = 100
SPAM_SCORE_RISKY = 50
#: A site needs this many red flags to be called suspicious; a single one is reported, not judged.
SUSPICIOUS_MIN_FLAGS = 2


@dataclass(frozen=True)
class Signals:
    """What the crawler and the providers reported; None where a provider had no value."""

    reachable: bool | None
    https: bool | None
    title: str | None
    shell: ShellSignals | None
    domain_age_years: float | None
    ranked_keywords: int | None
    spam_score: float | None


def _red_flags(s: Signals, referring: int | None) -> list[str]:
    flags: list[str] = []
    if s.domain_age_years is not None and s.domain_age_years < YOUNG_DOMAIN_YEARS:
        flags.append(f"The domain is only {s.domain_age_years:g} years old.")
    if (
        s.ranked_keywords is not None
        and s.ranked_keywords < THIN_FOOTPRINT_KEYWORDS
        and (referring or 0) >= THIN_FOOTPRINT_MIN_REFERRING
    ):
        flags.append(f"It ranks for only {s.ranked_keywords} keywords despite {referring} referring domains.")
    if s.spam_score is not None and s.spam_score >= SPAM_SCORE_RISKY:
        flags.append(f"Backlink spam score is {s.spam_score:g} ({SPAM_SCORE_RISKY} or more is risky).")
    if s.https is False:
        flags.append("The homepage is not served over HTTPS.")
    return flags


def judge(s: Signals, referring: int | None) -> tuple[str, list[str]]:
    """The verdict and its reasons, first matching rule wins: unreachable, shell, suspicious, real."""
    if s.reachable is False:
        return "unreachable", ["The homepage did not answer over HTTP or HTTPS."]
    if s.shell is not None and s.shell.is_shell:
        chars = s.shell.visible_text_chars
        return "shell", [
            f"The homepage renders only {chars} visible characters without JavaScript.",
            *_red_flags(s, referring),
        ]
    flags = _red_flags(s, referring)
    return ("suspicious" if len(flags) >= SUSPICIOUS_MIN_FLAGS else "real"), flags


def _healthy_signals(domain: str) -> Signals:
    r = rng_for("site-check", domain)
    chars = r.randint(1800, 24000)
    dr = site_profile(domain).dr
    return Signals(
        reachable=True,
        https=True,
        title=site_profile(domain).title,
        shell=ShellSignals(
            is_shell=False,
            visible_text_chars=chars,
            text_ratio=round(r.uniform(0.12, 0.45), 3),
            outbound_links=r.randint(5, 120),
        ),
        domain_age_years=round(r.uniform(1.5, 24), 1),
        # The organic footprint grows with authority: a DR 6 blog ranks for dozens, Google for millions.
        ranked_keywords=int(10 ** (1.3 + dr / 19 + r.uniform(-0.3, 0.3))),
        spam_score=r.randint(0, 25),
    )


def _seeded_signals() -> dict[str, Signals]:
    signals = {domain: _healthy_signals(domain) for domain in (*DEMO_SITES, *KNOWN_CHECKED_SITES)}
    # A young blog: one red flag, reported as a reason, still judged real.
    signals["tinyblog.net"] = replace(signals["tinyblog.net"], domain_age_years=0.7)
    # The traffic provider has no keyword footprint for this site: a missing signal, not a failure.
    signals["northwind-coffee.com"] = replace(signals["northwind-coffee.com"], ranked_keywords=None)
    signals[SUSPICIOUS_SITE] = Signals(
        reachable=True,
        https=True,
        title="Rank Boost Links — Buy DR 70+ backlinks",
        shell=ShellSignals(is_shell=False, visible_text_chars=2400, text_ratio=0.18, outbound_links=340),
        domain_age_years=0.4,
        ranked_keywords=3,
        spam_score=71,
    )
    signals[SHELL_SITE] = Signals(
        reachable=True,
        https=True,
        title="PixelVault",
        shell=ShellSignals(is_shell=True, visible_text_chars=38, text_ratio=0.004, outbound_links=0),
        domain_age_years=2.3,
        ranked_keywords=14,
        spam_score=12,
    )
    signals[UNREACHABLE_SITE] = Signals(
        reachable=False,
        https=None,
        title=None,
        shell=None,
        domain_age_years=6.2,
        ranked_keywords=None,
        spam_score=None,
    )
    return signals


_SIGNALS = _seeded_signals()

#: Names of the sites with a saved report, by the verdict the rules give them.
SEEDED_SITE_CHECKS: tuple[str, ...] = tuple(_SIGNALS)


def saved_report(domain: str) -> SiteCheck | None:
    """The saved report of a domain, or None when the site was never submitted with a site check."""
    signals = _SIGNALS.get(domain)
    return None if signals is None else report_of(domain, signals)


def report_of(domain: str, signals: Signals) -> SiteCheck:
    """The report a site check writes from its signals: the rules' verdict and the site's links.

    Saved reports and the ones a submission writes both come from here, so they cannot differ in
    shape. Link counts come from the same profile as /lookup, so the two screens agree.
    """
    p = site_profile(domain)
    verdict, reasons = judge(signals, p.referring_domains)
    return SiteCheck(
        domain=domain,
        verdict=verdict,
        reasons=reasons,
        reachable=signals.reachable,
        https=signals.https,
        title=signals.title,
        # A copy: saved signals are module data that a report must not share.
        shell=signals.shell.model_copy() if signals.shell else None,
        domain_age_years=signals.domain_age_years,
        ranked_keywords=signals.ranked_keywords,
        referring_domains=p.referring_domains,
        backlinks=p.backlinks,
        spam_score=signals.spam_score,
    )


def seeded_by_verdict() -> dict[str, list[str]]:
    """Which seeded domains get which verdict (for docs, tests and the demo's hints)."""
    result: dict[str, list[str]] = {}
    for domain in SEEDED_SITE_CHECKS:
        report = saved_report(domain)
        if report is not None and report.verdict is not None:
            result.setdefault(report.verdict, []).append(domain)
    return result
