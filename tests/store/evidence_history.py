"""A constructed history in which every alert rule fires exactly once, on a known day against a known
earlier snapshot: what the link tests (store, AppTest) follow from each alert to its evidence.

Ten days from ``start`` (day 0 to day 9), recorded through the store's own writes; ``EXPECTED`` says per
rule what the alert is about and which days it compared (``days`` as offsets from ``start``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

from services.alerts.evaluate import evaluate_alerts
from store import HistoryStore
from tests.store.alert_history import approve_exchange, lookup
from tests.store.samples import keyword_report, tracked, trust_map_of

DROP, FELL, LAPSED = "drop.com", "fell.com", "lapsed.com"
#: A watched competitor that takes second place in the watched keyword's top 10 on day 5.
RIVAL = "rival.io"
WATCHED_KEYWORD = "cookie free analytics"
SPAM, STRONG, PARTNER = "spam-new.biz", "big.com", "partner.io"
LAST = 9


@dataclass(frozen=True)
class Expected:
    """One rule's alert: its subject, the chart's subject, (earlier day, day) as offsets, and what the
    link names beside them: the metric, referring domain or keyword site ("own-slug" / "own": the own
    site's slug / domain)."""

    subject: str
    chart_subject: str
    days: tuple[int, int]
    metric: str | None = None
    referring_domain: str | None = None
    site: str | None = None


def expected(own: str, slug: str) -> dict[str, Expected]:
    """What each rule finds in ``every_rule_history`` of the own site ``own`` (tracked as ``slug``)."""
    return {
        "authority_drop": Expected(DROP, DROP, (1, 8), metric="dr"),
        "referring_domains_fell": Expected(FELL, FELL, (1, 8), metric="referring_domains"),
        "traffic_validation_lost": Expected(LAPSED, LAPSED, (5, 6), metric="traffic_validated"),
        "verification_lost": Expected(LAPSED, LAPSED, (6, 7), metric="verified"),
        "keyword_left_top10": Expected("crm tools", "crm tools", (4, 5), site=slug),
        "keyword_moved": Expected("crm software", "crm software", (6, 7), site=slug),
        "spam_risky_link": Expected(own, own, (2, 9), referring_domain=SPAM),
        "strong_link_lost": Expected(own, own, (2, 9), referring_domain=STRONG),
        "partner_stopped_linking": Expected(PARTNER, own, (2, 9), referring_domain=PARTNER),
        # The watched keyword leaves the own site's top 10 on day 4: 33.3 % visibility (4th of its only
        # keyword) to 0 %, first a week's fall on day 7 (against day 0).
        "visibility_fell": Expected(own, own, (0, 7), metric="all", site=own),
        "competitor_top3": Expected(WATCHED_KEYWORD, own, (4, 5), site=own),
    }


#: The watched keyword's alert (rule keyword_left_top10, site: the own domain it is measured for).
WATCHED = Expected(WATCHED_KEYWORD, WATCHED_KEYWORD, (3, 4))


def every_rule_history(store: HistoryStore, account: str, own: str, slug: str, start: date) -> None:
    """Record the history, then evaluate its ten days (the alerts are in the store afterwards)."""

    def day(n: int) -> date:
        return start + timedelta(days=n)

    store.watchlist.watch(account, "domain", own, origin="own")
    for domain in (DROP, FELL, LAPSED, RIVAL):
        store.watchlist.watch(account, "domain", domain)
    days = range(LAST + 1)
    lookups = [(day(n), lookup(DROP, dr=50 if n < 8 else 47)) for n in days]
    lookups += [(day(n), lookup(FELL, referring=1000 if n < 8 else 940)) for n in days]
    lookups += [(day(n), lookup(LAPSED, validated=n < 6, verified=n < 7)) for n in days]
    trackeds = [
        (day(n), tracked(slug, {"crm tools": 7 if n < 5 else 14, "crm software": 20 if n < 7 else 14}))
        for n in days
    ]
    store.watchlist.watch(account, "keyword", WATCHED_KEYWORD, site=own)
    reports = [
        (day(n), keyword_report(WATCHED_KEYWORD, domain=own, position=4 if n < 4 else None), own)
        for n in days
    ]
    for _day, report, _site in reports[5:]:
        report.results[1] = report.results[1].model_copy(update={"domain": RIVAL})
    clean = (40, "dofollow", "live", 5.0)
    before = {"a.com": clean, STRONG: (70, "dofollow", "live", 1.0), PARTNER: (35, "dofollow", "live", 2.0)}
    after = {"a.com": clean, STRONG: (70, "dofollow", "lost", 1.0), SPAM: (12, "nofollow", "live", 64.0)}
    maps = [(day(2), trust_map_of(own, before)), (day(9), trust_map_of(own, after))]
    store.snapshots.seed(
        account, lookups=lookups, trust_maps=maps, trackeds=trackeds, keyword_reports=reports, source="job"
    )
    approve_exchange(store, account, PARTNER, own, day(0))
    evaluate_alerts(store, account, as_of=day(LAST), days=LAST + 1)
