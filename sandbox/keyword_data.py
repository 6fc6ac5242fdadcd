"""Keyword demo data: the top 10 of a keyword, tracked-keyword snapshots (suggestions for a domain:
``sandbox.suggestions``).

A keyword's SERP is a pure function of the keyword (case-insensitive) and the day. ``serp`` is the
epoch day's top 10; ``serp_on`` is a day's: now and then one of the keyword's challengers enters it
for a stint of days to weeks in place of a row no demo key owns (so does one of the leaders of its
head terms, the sites ranking for its single words), two adjacent rows trade places for a while, and
so do the leading three and an owned row and its neighbour (``sandbox.serp_drift`` says when), so
domains enter and leave and positions move. Every row's DR is the same number /dr gives for that
domain on the day, so the report, the tracked snapshot and a DR lookup of any result always agree.
"""

from __future__ import annotations

import random
import re
import statistics
from datetime import UTC, date, datetime, timedelta
from functools import lru_cache

from client.models import KeywordReport, KeywordSnapshot, KeywordUser, SerpResult
from sandbox import serp_drift
from sandbox.accounts import owner_of
from sandbox.clock import days_from_epoch, resolve
from sandbox.data import (
    DEMO_SITES,
    KNOWN_SITES,
    SANDBOX_EPOCH,
    base_dr,
    dr_for,
    made_up_domain,
    site_name,
    slug_of,
)
from sandbox.hashing import rng_for, unit

TOP_N = 10
#: How many challengers (domains outside its epoch top 10 that enter it now and then) a keyword has.
CHALLENGERS = (2, 4)
#: How many leaders of each head term (a single word of the keyword) compete for the keyword too.
HEAD_LEADERS = 2
#: How many of the competitors a demo key follows hold rows of one keyword's top 10 on any day at most.
FOLLOWED_AT_ONCE = 2
#: Share of SERP rows whose DR the service could not resolve (sent as null, never as 0).
UNRESOLVED_SHARE = 1 / 12
#: Organic click-through rate by position 1..10; deeper positions decay from the last value.
_CTR_TOP10 = (0.28, 0.15, 0.10, 0.07, 0.05, 0.04, 0.03, 0.025, 0.02, 0.018)
_TOKEN = re.compile(r"[a-z0-9]+")


def tier_for(gap: float) -> str:
    """The keyword tier: boost when the user already clears the median, advanced within 10, else ultra."""
    if gap <= 0:
        return "boost"
    return "advanced" if gap <= 10 else "ultra"


def ctr(position: int) -> float:
    """Expected share of searches that click a result at this position."""
    if position <= len(_CTR_TOP10):
        return _CTR_TOP10[max(1, position) - 1]
    return _CTR_TOP10[-1] * 0.85 ** (position - len(_CTR_TOP10))


def difficulty(keyword: str) -> float:
    """0 (easy) to 1 (hard): harder keywords are held by stronger domains."""
    return unit("difficulty", keyword.casefold())


def _tokens(keyword: str) -> tuple[str, ...]:
    return tuple(t for t in _TOKEN.findall(keyword.casefold()) if 2 < len(t) <= 20)


def _pick_new(r: random.Random, hardness: float, lift: float, tokens: tuple[str, ...], used: set[str]) -> str:
    """A domain not in ``used`` (and added to it), rated for a top 10 as hard as ``hardness``, ``lift``
    places above its bottom (a little noise either way)."""
    target = 8 + hardness * 75 + lift * 1.5 + r.uniform(-12, 12)
    domain = _pick_domain(r, target, tokens, used)
    used.add(domain)
    return domain


def _pick_domain(r: random.Random, target: float, tokens: tuple[str, ...], used: set[str]) -> str:
    """A domain whose epoch (``base_dr``) rating is near the target: who may rank never moves with the day."""
    if target >= 72:
        strong = sorted(d for d, site in KNOWN_SITES.items() if site.dr >= target - 6 and d not in used)
        if strong:
            return r.choice(strong)
    best: tuple[float, str] | None = None
    for _ in range(60):
        name = made_up_domain(r, tokens)
        if name in used:
            continue
        distance = abs(base_dr(name) - target)
        if best is None or distance < best[0]:
            best = (distance, name)
        if distance <= 8:
            break
    if best is None:  # every draw collided: extremely unlikely, but never loop forever
        return next(d for d in KNOWN_SITES if d not in used)
    return best[1]


def _owned_positions(keyword: str, r: random.Random) -> dict[int, str]:
    """Demo-owned sites rank for most keywords about their topic, so trackedSlug shows up."""
    folded = keyword.casefold()
    placed: dict[int, str] = {}
    for site, demo in DEMO_SITES.items():
        if any(topic in folded for topic in demo.topics) and unit("owned-rank", site, folded) < 0.7:
            position = r.randint(3, TOP_N)
            while position in placed:
                position = position % TOP_N + 1
            placed[position] = site
    return placed


def _path(keyword: str) -> str:
    """The path every result's URL ends with: the keyword's words, else a stable token."""
    return "-".join(_tokens(keyword)) or f"q/{rng_for('path', keyword.casefold()).getrandbits(32):08x}"


def _row(keyword: str, position: int, domain: str) -> SerpResult:
    """A result as on the epoch day: its DR is ``base_dr``, or None when the service leaves it unresolved
    (a stable share of the keyword's non-owned domains, whichever day they rank)."""
    unresolved = (
        domain not in DEMO_SITES and unit("unresolved", keyword.casefold(), domain) < UNRESOLVED_SHARE
    )
    return SerpResult(
        position=position,
        domain=domain,
        dr=None if unresolved else base_dr(domain),
        url=f"https://{domain}/{_path(keyword)}",
        title=f"{keyword[:1].upper()}{keyword[1:]} — {site_name(domain)}",
        tracked_slug=slug_of(domain) if domain in DEMO_SITES else None,
    )


@lru_cache(maxsize=2048)
def serp(keyword: str) -> tuple[SerpResult, ...]:
    """The live US top 10 for a (normalised) keyword on the epoch day (see ``serp_on`` for any day)."""
    r = rng_for("serp", keyword.casefold())
    tokens = _tokens(keyword)
    hardness = difficulty(keyword)
    owned = _owned_positions(keyword, r)
    used: set[str] = set(owned.values())
    rows: list[SerpResult] = []
    for position in range(1, TOP_N + 1):
        domain = owned.get(position)
        if domain is None:
            domain = _pick_new(r, hardness, TOP_N - position, tokens, used)
        rows.append(_row(keyword, position, domain))
    return tuple(rows)


@lru_cache(maxsize=2048)
def challengers(keyword: str) -> tuple[SerpResult, ...]:
    """The keyword's challengers: 2–4 domains outside its epoch top 10 (never a demo-owned site), rated
    near its rows at 4–10, that enter it for a while now and then (``serp_drift``)."""
    r = rng_for("serp-challengers", keyword.casefold())
    tokens = _tokens(keyword)
    hardness = difficulty(keyword)
    used = {row.domain for row in serp(keyword)} | set(DEMO_SITES)
    rows: list[SerpResult] = []
    for _ in range(r.randint(*CHALLENGERS)):
        rows.append(_row(keyword, TOP_N, _pick_new(r, hardness, r.uniform(0, 6), tokens, used)))
    return tuple(rows)


@lru_cache(maxsize=2048)
def head_leaders(keyword: str) -> tuple[SerpResult, ...]:
    """The leaders of the keyword's head terms: the first ``HEAD_LEADERS`` domains no demo key owns of
    each of its words' own top 10s, outside its epoch top 10 and its challengers. They enter its top 10
    now and then (``serp_drift``), as the sites of a topic compete for all of its keywords, so a
    market's domains rank for several of its keywords rather than each for one."""
    tokens = _tokens(keyword)
    if len(tokens) < 2:
        return ()
    taken = {row.domain for row in (*serp(keyword), *challengers(keyword))} | set(DEMO_SITES)
    leaders: list[SerpResult] = []
    for token in tokens:
        heads = [row.domain for row in serp(token) if row.domain not in DEMO_SITES][:HEAD_LEADERS]
        for domain in heads:
            if domain not in taken:
                taken.add(domain)
                leaders.append(_row(keyword, TOP_N, domain))
    return tuple(leaders)


@lru_cache(maxsize=2048)
def followed_competitors(keyword: str) -> tuple[SerpResult, ...]:
    """The well-known competitors followed by the owners of the demo sites whose topic the keyword is
    about (outside its epoch top 10, its challengers and its head-term leaders): they compete for the
    keyword and hold one of its rows for weeks at a time (``serp_drift``), so a key's followed
    competitors rank for its sites' keywords, each its own days and places."""
    folded = keyword.casefold()
    taken = {row.domain for row in (*serp(keyword), *challengers(keyword), *head_leaders(keyword))}
    followed: list[str] = []
    for site, demo in DEMO_SITES.items():
        owner = owner_of(site)
        if owner is not None and any(topic in folded for topic in demo.topics):
            followed += [domain for domain in owner.competitors if domain not in taken]
    return tuple(_row(keyword, TOP_N, domain) for domain in dict.fromkeys(followed))


@lru_cache(maxsize=2048)
def open_places(keyword: str) -> tuple[int, ...]:
    """The epoch positions (4–10) a challenger may take: rows of a domain no demo key owns."""
    return tuple(row.position for row in serp(keyword) if row.position >= 4 and row.domain not in DEMO_SITES)


@lru_cache(maxsize=2048)
def owned_rows(keyword: str) -> tuple[str, ...]:
    """The demo-owned domains of the keyword's epoch top 10, best placed first."""
    return tuple(row.domain for row in serp(keyword) if row.domain in DEMO_SITES)


def _move_owned(rows: list[SerpResult], move: tuple[int, bool] | None) -> None:
    """Trade an owned row with its neighbour (above, or below when it is first or asked to go down),
    unless a swap has already moved it or the neighbour is owned too: an owned site moves one place at
    most, and never leaves the top 10."""
    owned = [i for i, row in enumerate(rows) if row.domain in DEMO_SITES]
    if move is None or not owned:
        return
    which, up = move
    i = owned[min(which, len(owned) - 1)]
    if rows[i].position != i + 1:  # a swap has moved it from its own place today
        return
    j = i - 1 if (up and i > 0) or i == len(rows) - 1 else i + 1
    if rows[j].domain not in DEMO_SITES:
        rows[i], rows[j] = rows[j], rows[i]


def _from(first: int, count: int) -> list[int]:
    """The indexes 0..count-1, starting at ``first`` and wrapping round."""
    return [(first + step) % count for step in range(count)]


def serp_on(keyword: str, day: date | None = None) -> list[SerpResult]:
    """The top 10 on ``day`` (default: the sandbox's day): the epoch's, with a challenger in place of one
    non-owned row at 4–10 during its stint (and a head term's leader in another, and each followed
    competitor of a demo key in another during its own, while rows are left), two adjacent rows
    traded during theirs (two of the leading three during theirs) and an owned row moved a place
    during its own (``serp_drift``), each resolved row rated as /dr rates it on the day. The epoch
    day's is exactly ``serp``."""
    day = resolve(day)
    t = days_from_epoch(day)
    folded = keyword.casefold()
    rows = list(serp(keyword))
    places = open_places(keyword)
    rivals = challengers(keyword)
    entry = serp_drift.entry_on(folded, t, len(rivals), len(places))
    if entry is not None:
        rows[places[entry[1]] - 1] = rivals[entry[0]]
    leaders = head_leaders(keyword)
    leader = serp_drift.leader_entry_on(folded, t, len(leaders), len(places))
    taken = set() if entry is None else {entry[1]}
    if leader is not None and len(places) > 1:
        place = leader[1] if entry is None or leader[1] != entry[1] else (leader[1] + 1) % len(places)
        rows[places[place] - 1] = leaders[leader[0]]
        taken.add(place)
    followed = followed_competitors(keyword)
    bands = [
        (serp_drift.rival_entry_on(folded, rival.domain, (rank, len(followed)), t, len(places)), rank)
        for rank, rival in enumerate(followed)
    ]
    wanting = sorted((wanted, rank) for wanted, rank in bands if wanted is not None)
    held = 0
    for (_, place), rank in wanting:  # who came first keeps its row: a later stint waits for room
        free = [p for p in _from(place, len(places)) if p not in taken]
        if free and held < FOLLOWED_AT_ONCE:
            rows[places[free[0]] - 1] = followed[rank]
            taken.add(free[0])
            held += 1
    swap = serp_drift.swap_on(folded, t, len(rows))
    if swap is not None:
        rows[swap - 1], rows[swap] = rows[swap], rows[swap - 1]
    top = serp_drift.top_swap_on(folded, t)
    if top is not None and (swap is None or swap > top + 2):  # rows a swap has not moved today
        rows[top - 1], rows[top] = rows[top], rows[top - 1]
    _move_owned(rows, serp_drift.owned_move_on(folded, t, len(owned_rows(keyword))))
    return [
        row.model_copy(
            update={"position": position, "dr": None if row.dr is None else dr_for(row.domain, day)}
        )
        for position, row in enumerate(rows, 1)
    ]


def median_and_min(results: list[SerpResult] | tuple[SerpResult, ...]) -> tuple[float | None, float | None]:
    """Median and lowest DR over the resolved rows; unresolved rows are left out, never counted as 0."""
    known = [row.dr for row in results if row.dr is not None]
    if not known:
        return None, None
    return float(statistics.median(known)), float(min(known))


def fetched_at(keyword: str, *, cached: bool, day: date | None = None) -> datetime:
    """When the service fetched the top 10 it answers with on ``day``: a live answer that morning (the
    epoch's hour), a cached one up to half a day before; never later than now, so a live answer of
    today is fetched at the latest now."""
    morning = SANDBOX_EPOCH + timedelta(days=days_from_epoch(resolve(day)))
    earlier = (
        timedelta(minutes=rng_for("fetched", keyword.casefold()).randint(1, 720)) if cached else timedelta()
    )
    return min(morning - earlier, datetime.now(UTC).replace(second=0, microsecond=0))


def keyword_report(
    keyword: str, user_domain: str | None, *, cached: bool, day: date | None = None
) -> KeywordReport:
    """GET /keywords for a normalised keyword (and optional normalised domain) on ``day``."""
    results = serp_on(keyword, day)
    median_dr, min_dr = median_and_min(results)
    user = None
    if user_domain is not None:
        user_dr = dr_for(user_domain, day)
        gap = None if median_dr is None else round(median_dr - user_dr, 1)
        user = KeywordUser(
            domain=user_domain, dr=user_dr, gap=gap, tier=None if gap is None else tier_for(gap)
        )
    fetched = fetched_at(keyword, cached=cached, day=day)
    return KeywordReport(
        keyword=keyword,
        cached=cached,
        results=results,
        median_dr=median_dr,
        min_dr=min_dr,
        user=user,
        fetched_at=fetched,
    )


def keyword_metrics(keyword: str) -> tuple[int, float]:
    """Monthly US search volume (rounded to tens) and cost per click in USD."""
    r = rng_for("metrics", keyword.casefold())
    return max(10, round(int(10 ** r.uniform(1.5, 4.5)), -1)), round(r.uniform(0.2, 9.5), 2)


def ranked_position(site: str, keyword: str, *, attempt: int = 0) -> int | None:
    """The site's Google position as the tracker measures it: its row in the epoch's top 10 when it has
    one, otherwise a deeper or no rank.

    ``attempt`` counts refreshes, so a re-check can move a rank outside the top 10 the way real
    rankings drift, while a top-10 rank matches the epoch's SERP (a day's report may show an owned
    site a place away from it: tracked positions are a separate measurement).
    """
    for row in serp(keyword):
        if row.domain == site:
            return row.position
    r = rng_for("position", site, keyword.casefold(), attempt)
    if r.random() < 0.25:
        return None
    return r.randint(11, 80)


def snapshot(
    site: str, keyword: str, *, position: int | None, previous: int | None, day: date | None = None
) -> KeywordSnapshot:
    """A stored difficulty snapshot of a tracked keyword, consistent with GET /keywords on ``day``."""
    median_dr, min_dr = median_and_min(serp_on(keyword, day))
    user_dr = dr_for(site, day)
    gap = None if median_dr is None else round(median_dr - user_dr, 1)
    volume, cpc = keyword_metrics(keyword)
    return KeywordSnapshot(
        median_dr=median_dr,
        gap=gap,
        min_dr=min_dr,
        user_dr=user_dr,
        tier=None if gap is None else tier_for(gap),
        search_volume=volume,
        cpc=cpc,
        user_position=position,
        prev_position=previous,
    )


def search_console(site: str, keyword: str, position: int | None) -> tuple[int | None, float | None]:
    """28-day impressions and average position, only for sites with Search Console connected."""
    demo = DEMO_SITES.get(site)
    if demo is None or not demo.gsc_connected:
        return None, None
    r = rng_for("gsc", site, keyword.casefold())
    volume, _ = keyword_metrics(keyword)
    impressions = int(volume * r.uniform(0.05, 1.2))
    average = position + r.uniform(-1.5, 1.5) if position is not None else r.uniform(20, 60)
    return impressions, round(max(1.0, average), 1)
