"""A site's referring domains (its Trust Map sample) and the backlinks drawn from them, on any day.

On the epoch day a site has the members it was always given. Over time a few leave for a while,
a few new ones (now and then a spam-risky one) link to it, and a few live links are lost for a while
(``sandbox.drift`` decides when); each member's DR is what /dr says for it that day. The site's own
first ``STABLE_MEMBERS`` never leave, so its top and bottom backlinks always exist.
"""

from __future__ import annotations

import math
import random
from datetime import date
from functools import lru_cache

from client.models import Backlink, ReferringDomain
from sandbox.clock import days_from_epoch, resolve
from sandbox.data import (
    KNOWN_SITES,
    MAP_SIZE,
    _clamp,
    base_dr,
    base_profile,
    made_up_domain,
    rating_at,
    site_name,
)
from sandbox.drift import extra_joined, extra_members, link_lost, map_day, member_gone
from sandbox.hashing import rng_for
from sandbox.words import ADJECTIVES, ANCHORS, NOUNS

#: Share of the members that join later whose links look spammy (the history's "new spam risk").
SPAMMY_NEWCOMERS = 0.35
#: (domain, dofollow, backlinks, spam score): what never changes about a member.
_Member = tuple[str, bool, int, int]


def _importance(dr: int, dofollow: bool, live: bool, backlinks: int, spam: int) -> float:
    """How much a referring domain matters to the site: strong, followed, live and clean links win."""
    score = dr * 0.55 + (18 if dofollow else 4) + (12 if live else 0)
    score += min(15.0, math.log2(backlinks + 1) * 2) - spam * 0.35
    return round(max(0.0, min(100.0, score)), 1)


def _referring_name(r: random.Random) -> str:
    # A few links come from famous sites, as in real link profiles; the rest from small ones.
    if r.random() < 0.12:
        return r.choice(tuple(KNOWN_SITES))
    return made_up_domain(r)


def _member(r: random.Random, name: str, *, spammy: bool = False) -> ReferringDomain:
    dr = base_dr(name)
    dofollow = r.random() < 0.72
    live = r.random() < 0.86
    backlinks = max(1, int(10 ** r.uniform(0, 2.4)))
    spam = _clamp(r.betavariate(1.2, 5) * 100 + max(0, 30 - dr) * 0.5)
    if spammy:
        spam = max(spam, _clamp(r.uniform(55, 95)))
    return _shown((name, dofollow, backlinks, spam), dr, live)


@lru_cache(maxsize=2048)
def _members(domain: str) -> tuple[tuple[ReferringDomain, ...], tuple[ReferringDomain, ...]]:
    """The epoch's members in the order they were drawn, and the extra ones that may join later."""
    r = rng_for("referring", domain)
    wanted = min(base_profile(domain).referring_domains, MAP_SIZE)
    seen: set[str] = {domain}
    rows: list[ReferringDomain] = []
    while len(rows) < wanted:
        name = _referring_name(r)
        if name in seen:
            continue
        seen.add(name)
        rows.append(_member(r, name))
    extra_r = rng_for("referring-extra", domain)
    extras: list[ReferringDomain] = []
    while len(extras) < extra_members(wanted):
        name = _referring_name(extra_r)
        if name in seen:
            continue
        seen.add(name)
        extras.append(_member(extra_r, name, spammy=extra_r.random() < SPAMMY_NEWCOMERS))
    return tuple(rows), tuple(extras)


@lru_cache(maxsize=131072)
def _shown(row: _Member, dr: int, live: bool) -> ReferringDomain:
    """A member as a map row with that day's DR and status (shared: the same on many days)."""
    domain, dofollow, backlinks, spam = row
    return ReferringDomain(
        domain=domain,
        dr=dr,
        backlinks=backlinks,
        link_type="dofollow" if dofollow else "nofollow",
        status="live" if live else "lost",
        importance=_importance(dr, dofollow, live, backlinks, spam),
        spam_score=spam,
    )


@lru_cache(maxsize=2048)
def _member_keys(domain: str) -> tuple[tuple[tuple[_Member, bool], ...], tuple[tuple[_Member, bool], ...]]:
    """The members as (what never changes, live on the epoch), for walking many days cheaply."""

    def keys(rows: tuple[ReferringDomain, ...]) -> tuple[tuple[_Member, bool], ...]:
        return tuple(
            (
                (row.domain, row.link_type == "dofollow", row.backlinks or 0, int(row.spam_score or 0)),
                row.status == "live",
            )
            for row in rows
        )

    epoch_members, extras = _members(domain)
    return keys(epoch_members), keys(extras)


@lru_cache(maxsize=4096)
def _present(domain: str, week: int) -> tuple[tuple[_Member, bool], ...]:
    """The members of the map re-read on day ``week`` (a ``map_day``), each with its link live or lost."""
    epoch_members, extras = _member_keys(domain)
    present = [(m, live) for i, (m, live) in enumerate(epoch_members) if not member_gone(domain, i, week)]
    joined = [extra_joined(domain, j, week) for j in range(len(extras))]
    if base_profile(domain).referring_domains >= MAP_SIZE:
        # A big site's sample stays full: when more left than joined, the next newcomers fill it.
        missing = MAP_SIZE - len(present) - sum(joined)
        for j in range(len(extras)):
            if missing > 0 and not joined[j]:
                joined[j], missing = True, missing - 1
    present += [member for member, joins in zip(extras, joined, strict=True) if joins]
    return tuple((m, live and not link_lost(domain, m[0], week)) for m, live in present)


@lru_cache(maxsize=4096)
def _rows_at(domain: str, t: int) -> tuple[ReferringDomain, ...]:
    if t == 0:
        rows = list(_members(domain)[0])
    else:
        rows = [_shown(m, rating_at(m[0], t), live) for m, live in _present(domain, map_day(t))]
    rows.sort(key=lambda row: (-(row.importance or 0), row.domain))
    return tuple(rows[:MAP_SIZE])


def referring_domains(domain: str, day: date | None = None) -> tuple[ReferringDomain, ...]:
    """The site's referring domains on ``day`` (default: the sandbox's day), at most ``MAP_SIZE``,
    most important first. Each name's ``dr`` is exactly what /dr says for that name that day."""
    return _rows_at(domain, days_from_epoch(resolve(day)))


@lru_cache(maxsize=65536)
def _link_words(domain: str, source: str) -> tuple[str, str]:
    """The path and anchor of the source's link to the site (fixed, whatever the day)."""
    r = rng_for("backlink", domain, source)
    path = f"{r.choice(NOUNS)}/{r.choice(ADJECTIVES)}-{r.choice(NOUNS)}"
    return path, r.choice((*ANCHORS, site_name(domain), domain))


def _backlink(row: ReferringDomain, domain: str) -> Backlink:
    path, anchor = _link_words(domain, row.domain)
    return Backlink(
        source_domain=row.domain,
        dr=row.dr,
        url=f"https://{row.domain}/{path}",
        anchor=anchor,
        follow=row.link_type == "dofollow",
    )


def top_and_bottom_backlinks(
    domain: str, count: int = 5, day: date | None = None
) -> tuple[list[Backlink], list[Backlink]]:
    """The strongest and weakest public backlinks, drawn from the same referring domains as the map."""
    rows = sorted(referring_domains(domain, day), key=lambda row: (-(row.dr or 0), row.domain))
    top = [_backlink(row, domain) for row in rows[:count]]
    bottom = [_backlink(row, domain) for row in reversed(rows[-count:])]
    return top, bottom
