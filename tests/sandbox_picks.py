"""Sandbox inputs picked by computing with the sandbox's own rules, never assumed by name: generated
domains a rule selects, sites that reach each branch of the coach's rules, a keyword with an unresolved
DR. Shared by the test kinds that need the same kind of input."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import cache

from analysis.coach import rules as coach
from client.models import Lookup
from sandbox import data as sandbox_data
from sandbox import resources
from sandbox.keyword_data import serp_on


def first_domain(predicate: Callable[[str], bool], prefix: str) -> str:
    """The first generated ``<prefix><n>.com`` that a sandbox rule selects: found, never hard-coded."""
    for i in range(5000):
        domain = f"{prefix}{i}.com"
        if predicate(domain):
            return domain
    raise AssertionError(f"no {prefix}* domain matched")


def new_domain(prefix: str, listed: bool | None = None) -> str:
    """A domain under a prefix of the test's own, so nobody owns it yet; listed or not when asked."""
    return first_domain(lambda domain: listed is None or sandbox_data.is_listed(domain) == listed, prefix)


#: Where to look for sandbox sites: the famous and demo ones, then made-up names (deterministic).
CANDIDATES = (*sandbox_data.DEMO_SITES, *sandbox_data.KNOWN_SITES, *(f"site{i}.com" for i in range(400)))


@cache
def _sandbox_lookup(domain: str) -> Lookup:
    return resources.lookup(domain, "http://sandbox")


def listed_domains() -> Iterator[str]:
    """The candidates the sandbox lists, in order."""
    return (d for d in CANDIDATES if sandbox_data.is_listed(d))


def domain_where(test: Callable[[Lookup], bool], *, warm_map: bool = True) -> str:
    """The first sandbox site whose lookup passes ``test`` (and whose Trust Map is warm, if asked)."""
    for domain in listed_domains():
        if (not warm_map or not sandbox_data.is_map_cold(domain)) and test(_sandbox_lookup(domain)):
            return domain
    raise LookupError("no sandbox site fits")


def domain_for_issue(kind: str) -> str:
    """The first sandbox site whose main issue is ``kind`` (e.g. "inflated")."""
    return domain_where(lambda lookup: coach.main_issue(lookup).kind == kind)


def keyword_with_unknown_dr(prefix: str) -> str:
    """The first ``<prefix> <n>`` keyword whose sandbox top 10 holds a result with an unresolved DR on the
    sandbox's day (the top 10 drifts with the day)."""
    for i in range(200):
        keyword = f"{prefix} {i}"
        if any(row.dr is None for row in serp_on(keyword)):
            return keyword
    raise AssertionError("the sandbox should leave some DRs unresolved")
