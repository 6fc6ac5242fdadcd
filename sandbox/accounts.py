"""The two demo API keys, what each may do, and which sites each owns.

The keys stand for the two situations the app must handle: a paying account with a running growth
program (everything works) and a free account that authenticates but meets the program gate.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

DEMO_KEY = "vdr_demo"
FREE_KEY = "vdr_free"


@dataclass(frozen=True)
class Account:
    """What a key is allowed: its tier header, the growth program, its sites and check allowance."""

    key: str
    tier: str
    growth_program: bool
    sites: tuple[str, ...]
    #: Monthly tracked-keyword checks (adds and refreshes); None on paid plans, as the service says.
    monthly_checks: int | None
    #: Well-known competitors the key follows beside its own sites. They compete for its sites'
    #: keywords: each enters the top 10 of a keyword about a site's topic for weeks at a time
    #: (``sandbox.keyword_data.followed_competitors``), as a market's big players do.
    competitors: tuple[str, ...] = ()


ACCOUNTS: dict[str, Account] = {
    DEMO_KEY: Account(
        key=DEMO_KEY,
        tier="pro",
        growth_program=True,
        sites=("example.com", "acme-widgets.com", "northwind-coffee.com"),
        monthly_checks=None,
        competitors=("semrush.com", "ahrefs.com", "moz.com", "hubspot.com"),
    ),
    FREE_KEY: Account(
        key=FREE_KEY,
        tier="free",
        growth_program=False,
        sites=("tinyblog.net",),
        monthly_checks=10,
        competitors=("medium.com", "wordpress.org", "notion.so"),
    ),
}

#: Every site some demo key owns; they are always listed, never cold, and have rich seed data.
OWNED_SITES: tuple[str, ...] = tuple(site for account in ACCOUNTS.values() for site in account.sites)


def fingerprint(key: str | None) -> str | None:
    """A short, non-reversible tag for a key, so logs can tell keys apart without holding them."""
    if key is None:
        return None
    return hashlib.sha256(key.encode("utf-8", "surrogateescape")).hexdigest()[:8]


def bearer_token(header: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header, or None when it is not one."""
    if not header:
        return None
    parts = header.split()
    if len(parts) != 2 or parts[0].lower() != "bearer":
        return None
    return parts[1]


def owner_of(site: str) -> Account | None:
    """The account that owns a registrable domain, if any."""
    for account in ACCOUNTS.values():
        if site in account.sites:
            return account
    return None
