"""Constructed histories for the alert rule tests: lookups with exactly the authority numbers a test
wants (built from the client's own models, as the service sends them), recorded day by day into a store.
Trust Maps, tracked keywords and keyword reports come from ``tests.store.samples``."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, date, datetime, time, timedelta

from client.models import Authority, Evidence, Lookup
from store import HistoryStore
from store.audit import AuditEvent

D0 = date(2025, 3, 3)
OWN = "example.com"
RIVAL = "rival.com"


def day(n: int) -> date:
    return D0 + timedelta(days=n)


def lookup(
    domain: str = OWN,
    *,
    dr: int = 50,
    true_dr: int = 45,
    referring: int = 1000,
    validated: bool | None = True,
    verified: bool | None = True,
) -> Lookup:
    return Lookup(
        domain=domain,
        authority=Authority(dr=dr, true_dr=true_dr, trust_score=60, traffic_validated=validated),
        evidence=Evidence(traffic=5000, referring_domains=referring, backlinks=20_000),
        verified=verified,
    )


def watch_own(store: HistoryStore, account: str, *competitors: str) -> None:
    store.watchlist.watch(account, "domain", OWN, origin="own")
    for domain in competitors:
        store.watchlist.watch(account, "domain", domain)


def record_lookups(store: HistoryStore, account: str, answers: Sequence[Lookup], start: int = 0) -> None:
    """One lookup a day from ``day(start)`` on."""
    store.snapshots.seed(
        account, lookups=[(day(start + n), answer) for n, answer in enumerate(answers)], source="job"
    )


def approve_exchange(store: HistoryStore, account: str, partner: str, own: str, on: date) -> None:
    """Ann's approved link exchange with ``partner`` on ``on`` (9:00 UTC), as the audit log keeps it: what
    the partner-stopped-linking alert watches."""
    store.audit.record(
        AuditEvent(
            person="ann@acme.com",
            role="editor",
            account=account,
            operation="approve_exchange",
            target=partner,
            outcome="sent",
            detail=f"Subject: Swap links?, from {own}",
            at=datetime.combine(on, time(9), tzinfo=UTC),
        )
    )
