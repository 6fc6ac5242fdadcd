"""Keyword suggestions demo data (GET /keywords/suggestions): what a domain ranks for, filtered as the
service filters it (positions 4–30, no one-word heads, no brand queries), best estimated traffic first.
A pure function of the domain; a few ordinary domains have none, as on the real service.
"""

from __future__ import annotations

from client.models import Suggestion
from sandbox.data import DEMO_SITES, category_for, site_name
from sandbox.hashing import rng_for, unit
from sandbox.keyword_data import ctr
from sandbox.words import MODIFIERS, TOPICS

#: Share of ordinary domains with no qualifying rankings (an empty suggestion list).
NO_SUGGESTIONS_SHARE = 0.1
SUGGESTION_WINDOW = (4, 30)
MAX_SUGGESTIONS = 20


def _raw_rankings(domain: str) -> list[tuple[str, int, int]]:
    """Everything the domain ranks for, before the service's filters: (keyword, position, volume)."""
    r = rng_for("rankings", domain)
    demo = DEMO_SITES.get(domain)
    topics = demo.themes if demo else TOPICS[category_for(domain)]
    brand = site_name(domain).lower()
    rows: list[tuple[str, int, int]] = []
    for _ in range(r.randint(20, 45)):
        if r.random() < 0.08:
            keyword = f"{brand} {r.choice(('login', 'pricing', 'reviews', 'app'))}"
        else:
            keyword = r.choice(MODIFIERS).format(t=r.choice(topics))
        rows.append((keyword, r.randint(1, 50), int(10 ** r.uniform(1.3, 4.6))))
    return rows


def suggestions(domain: str) -> list[Suggestion]:
    """GET /keywords/suggestions: winnable non-brand keywords, best estimated traffic value first."""
    if domain not in DEMO_SITES and unit("no-suggestions", domain) < NO_SUGGESTIONS_SHARE:
        return []
    brand = site_name(domain).lower()
    low, high = SUGGESTION_WINDOW
    best: dict[str, tuple[int, int]] = {}
    for keyword, position, volume in _raw_rankings(domain):
        if not low <= position <= high or len(keyword.split()) < 2 or brand in keyword:
            continue  # outside the window, a one-word head, or a brand query
        if keyword not in best or position < best[keyword][0]:
            best[keyword] = (position, volume)
    ranked = sorted(best.items(), key=lambda item: (-item[1][1] * ctr(item[1][0]), item[0]))
    return [
        Suggestion(keyword=keyword, position=position, search_volume=volume)
        for keyword, (position, volume) in ranked[:MAX_SUGGESTIONS]
    ]
