"""The demo history with an alert of every rule, for the browser tests of the alerts' Chart links.

``demo_with_every_rule`` seeds a store as the app seeds an empty one in Sandbox mode (the sandbox's
demo history ending on the pinned day, its last 30 days evaluated) and adds what the demo lacks:

- the demo's own Trust Map alerts of 21 Oct 2024 (example.com: a new spam-risky link from
  cleverledger.com and a strong link lost from luckymarket.org), evaluated on that day;
- an exchange proposal sent to luckymarket.org a week before, so that day it is also a partner that
  stopped linking;
- a watched competitor, ``slipping-rival.com``, whose traffic validation, verification and referring
  domains go in the week before the pinned day, and a keyword watched for example.com that leaves the
  top 10 in that week (recorded through the store's own writes, then evaluated).

``ALERTS`` names each rule's alert as its card's title reads, and what its chart must show.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

from client.settings import key_fingerprint
from components.core.history.store import DEMO_ALERT_DAYS, seed_demo_history
from sandbox import DEMO_KEY
from services.alerts.evaluate import evaluate_alerts
from store import HistoryStore
from tests.store.alert_history import approve_exchange, lookup
from tests.store.samples import keyword_report

ACCOUNT = key_fingerprint(DEMO_KEY)
PINNED = date(2025, 1, 6)
OWN = "example.com"
RIVAL = "slipping-rival.com"
KEYWORD = "privacy analytics audit"
MAPS_DAY = date(2024, 10, 21)
PARTNER = "luckymarket.org"


@dataclass(frozen=True)
class RuleAlert:
    """One rule's alert on the Alerts page: words of its card's title, and the evidence its chart shows
    (the chart's title, or the referring domain in the churn table; the before and after words)."""

    title: str
    tab: str
    chart: str | None = None
    referring_domain: str | None = None
    before: str | None = None
    after: str | None = None


ALERTS: dict[str, RuleAlert] = {
    "authority_drop": RuleAlert(
        "semrush.com: TrueDR fell 2 points", "Domain trends", "DR and TrueDR", None, "TrueDR 91", "TrueDR 89"
    ),
    "traffic_validation_lost": RuleAlert(
        f"{RIVAL}: traffic is no longer validated", "Domain trends", "Traffic", None,
        "traffic validated, Traffic 5,000", "traffic not validated, Traffic 5,000",
    ),
    "verification_lost": RuleAlert(
        f"{RIVAL}: no longer verified", "Domain trends", "DR and TrueDR", None, "verified, DR 50",
        "not verified, DR 50",
    ),
    "referring_domains_fell": RuleAlert(
        f"{RIVAL}: referring domains fell", "Domain trends", "Referring domains", None,
        "Referring domains 1,000", "Referring domains 900",
    ),
    "keyword_left_top10": RuleAlert(
        f"“{KEYWORD}” for {OWN} left the top 10", "Keyword positions", "Positions", None, "#4",
        "not ranking",
    ),
    "keyword_moved": RuleAlert(
        "“specialty coffee roaster” for northwind-coffee.com rose 6 positions", "Keyword positions",
        "Positions", None, "#21", "#15",
    ),
    "spam_risky_link": RuleAlert(
        f"{OWN}: new spam-risky link from cleverledger.com", "Trust Map churn", None, "cleverledger.com"
    ),
    "strong_link_lost": RuleAlert(
        f"{OWN} lost a dofollow link from {PARTNER}", "Trust Map churn", None, PARTNER
    ),
    "partner_stopped_linking": RuleAlert(
        f"{PARTNER} no longer links to {OWN}", "Trust Map churn", None, PARTNER
    ),
}  # fmt: skip


def _rival_and_keyword(store: HistoryStore) -> None:
    """Ten days ending the day before the pinned day: the rival's flags go on days 6 and 7 and its
    referring domains fall 10 % on day 8; the watched keyword leaves the results on day 5."""
    start = PINNED - timedelta(days=10)
    store.watchlist.watch(ACCOUNT, "domain", RIVAL)
    store.watchlist.watch(ACCOUNT, "keyword", KEYWORD, site=OWN)
    days = [start + timedelta(days=n) for n in range(10)]
    store.snapshots.seed(
        ACCOUNT,
        lookups=[
            (d, lookup(RIVAL, validated=n < 6, verified=n < 7, referring=1000 if n < 8 else 900))
            for n, d in enumerate(days)
        ],
        keyword_reports=[
            (d, keyword_report(KEYWORD, domain=OWN, position=4 if n < 5 else None), OWN)
            for n, d in enumerate(days)
        ],
        source="job",
    )
    evaluate_alerts(store, ACCOUNT, as_of=days[-1], days=len(days))


def demo_with_every_rule(url: str) -> None:
    """Seed the store at ``url`` (a new SQLite file) as described above."""
    with HistoryStore.open(url) as store:
        seed_demo_history(store, ACCOUNT, DEMO_KEY, PINNED)
        evaluate_alerts(store, ACCOUNT, as_of=PINNED, days=DEMO_ALERT_DAYS)
        approve_exchange(store, ACCOUNT, PARTNER, OWN, MAPS_DAY - timedelta(days=20))
        evaluate_alerts(store, ACCOUNT, as_of=MAPS_DAY, days=1)
        _rival_and_keyword(store)
