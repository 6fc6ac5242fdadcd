"""Top 10s made to catch every rule of the market's definition — ties, a keyword watched for two sites,
missing days, a domain twice in one top 10, unknown volumes, positions past the curve — and tags and
brand terms for every kind of group: the rows the market's sums are tested on, at the database and from
its daily roll-ups."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Any

from sqlalchemy import insert

from store import HistoryStore
from store.models import KeywordSnapshotRow, SerpResultRow

ACCOUNT = "a" * 16
SITE, OTHER = "acme.com", "beta.com"
DAY = date(2026, 3, 2)
#: A curve with a zero and fewer places than a top 10 holds: positions 9 and 10 earn nothing.
SHORT_CTR = (10.0, 5.0, 5.0, 2.0, 1.0, 1.0, 0.5, 0.0)


def serp_row(
    site: str, keyword: str, day: date, position: int, domain: str, dr: int | None = 30
) -> dict[str, Any]:
    return {
        "account": ACCOUNT,
        "site": site,
        "keyword": keyword,
        "day": day,
        "position": position,
        "domain": domain,
        "dr": dr,
        "source": "job",
        "recorded_at": datetime.now(UTC),
    }


def _rows() -> list[dict[str, Any]]:
    rows = []
    for n in range(6):
        day = DAY + timedelta(days=n)
        for k, keyword in enumerate(("acme pricing", "cheap widgets", "widget reviews", "widget tips")):
            if (n, k) in {(2, 1), (3, 1), (4, 2)}:  # a failed read: no top 10 that day
                continue
            for position in range(1, 13 if k == 2 else 11):  # positions past the curve, past 10 too
                domain = f"d{(position * 3 + k + n // 2) % 7}.com"
                if position == 1 + (k + n) % 5:
                    domain = SITE
                rows.append(
                    serp_row(SITE, keyword, day, position, domain, None if position == 4 else 20 + position)
                )
        # a domain twice in one top 10, counted once at its best place
        rows.append(serp_row(OTHER, "beta widgets", day, 1, "twice.com"))
        rows.append(serp_row(OTHER, "beta widgets", day, 3, "twice.com"))
        rows.extend(serp_row(OTHER, "beta widgets", day, p, f"e{p}.com") for p in (2, 4, 5))
        # watched for two sites: "acme pricing" under beta.com too, with another top 10 (acme.com's is kept)
        rows.extend(serp_row(OTHER, "acme pricing", day, p, f"f{p}.com") for p in range(1, 11))
        # a keyword only beta.com watches, on some days: ties at equal places across keywords
        if n % 2 == 0:
            rows.extend(serp_row(OTHER, "gadget deals", day, p, f"d{p}.com") for p in range(1, 11))
    return rows


def _keyword_rows() -> list[dict[str, Any]]:
    """Volumes for some keywords only (unknown for "gadget deals"), and impressions where no volume is
    known; two sites on one day with different volumes (the greater site's is the latest)."""
    rows = []
    for n in range(6):
        day = DAY + timedelta(days=n)
        for site, keyword, volume, impressions in (
            (SITE, "acme pricing", 100 + n, None),
            (OTHER, "acme pricing", 900, None),
            (SITE, "cheap widgets", None, 40 + n),
            (SITE, "widget reviews", 300, 7),
            (SITE, "widget tips", 10, None),
            (OTHER, "beta widgets", 50 if n < 4 else None, 5),
            (OTHER, "gadget deals", None, None),
        ):
            rows.append(
                {
                    "account": ACCOUNT,
                    "site": site,
                    "keyword": keyword,
                    "day": day,
                    "position": None,
                    "search_volume": volume,
                    "impressions": impressions,
                    "source": "job",
                    "recorded_at": datetime.now(UTC),
                }
            )
    return rows


def fill_market(store: HistoryStore) -> HistoryStore:
    # Rows inserted directly: their months first.
    store.partitions.ensure(row["day"] for row in [*_rows(), *_keyword_rows()])
    with store.engine.begin() as conn:
        conn.execute(insert(SerpResultRow.__table__), _rows())
        conn.execute(insert(KeywordSnapshotRow.__table__), _keyword_rows())
    store.groups.set_keyword_tags(ACCOUNT, "cheap widgets", ["pricing"])
    store.groups.set_keyword_tags(ACCOUNT, "acme pricing", ["pricing", "brand-ish"])
    store.groups.set_keyword_tags(ACCOUNT, "gadget deals", ["deals"])
    store.groups.set_brand_terms(ACCOUNT, OTHER, ["gadget", "acme"])  # beta.com's terms; acme.com: its name
    return store
