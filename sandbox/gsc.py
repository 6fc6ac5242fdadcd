"""Search Console performance and index audits for sites with a connected property.

A day's clicks and impressions are a pure function of the site and the date, so overlapping ranges
agree and the previous period is just the days before. Audits are stored per site (a seeded one for
each connected demo site); a fresh run has a 12-hour cooldown. ``AuditStore`` is not thread-safe on
its own (``SandboxState`` calls it under its lock).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta

from client.growth_inputs import GSC_RANGES
from client.visibility_models import (
    GscAudit,
    GscAuditResult,
    GscBreakdown,
    GscConnection,
    GscDay,
    GscMetrics,
    GscPerformance,
    GscPerformanceData,
    GscRow,
    InspectedPage,
    SitemapHealth,
)
from sandbox.data import DEMO_SITES, SANDBOX_EPOCH, site_profile
from sandbox.hashing import rng_for
from sandbox.keyword_data import ctr
from sandbox.problems import bad_request, conflict
from sandbox.tracked import SEED_KEYWORDS

RANGE_DAYS: dict[str, int] = {"28d": 28, "3m": 91, "6m": 182, "12m": 365, "16m": 486}
assert tuple(RANGE_DAYS) == GSC_RANGES
#: Search Console data lags a couple of days behind today.
DATA_LAG_DAYS = 2
AUDIT_COOLDOWN = timedelta(hours=12)
TOP_ROWS = 10
COUNTRIES = (("usa", 0.46), ("gbr", 0.14), ("deu", 0.09), ("can", 0.08), ("ind", 0.07), ("aus", 0.05))
DEVICES = (("DESKTOP", 0.58), ("MOBILE", 0.39), ("TABLET", 0.03))
NOT_INDEXED_STATES = (
    "Crawled - currently not indexed",
    "Discovered - currently not indexed",
    "Duplicate without user-selected canonical",
    "Excluded by 'noindex' tag",
    "Page with redirect",
)
_SECTIONS = ("blog", "guides", "features", "pricing", "docs", "compare", "about", "integrations")


def is_connected(site: str) -> bool:
    demo = DEMO_SITES.get(site)
    return bool(demo and demo.gsc_connected)


def require_connected(site: str) -> None:
    if not is_connected(site):
        raise bad_request(
            f"Search Console is not connected for {site}. Connect the property on VerifiedDR first."
        )


def check_range(raw: str | None) -> str:
    value = (raw or "28d").strip().lower()
    if value not in RANGE_DAYS:
        raise bad_request(f"Unsupported range '{raw}'. Use one of {', '.join(RANGE_DAYS)}.")
    return value


def _end() -> date:
    return SANDBOX_EPOCH.date() - timedelta(days=DATA_LAG_DAYS)


def _day(site: str, day: date) -> GscDay:
    """One day's totals: grows with DR, a weekday rhythm, a slow upward trend and some noise."""
    r = rng_for("gsc-day", site, day.isoformat())
    base = 40 * 10 ** (site_profile(site).dr / 30)
    trend = 1 + (day - SANDBOX_EPOCH.date()).days / 900
    weekday = 0.78 if day.weekday() >= 5 else 1.0
    impressions = max(0, int(base * trend * weekday * r.uniform(0.8, 1.2)))
    position = round(r.uniform(7, 15), 1)
    clicks = int(impressions * ctr(round(position)) * r.uniform(1.5, 2.5))
    return GscDay(
        date=day,
        clicks=clicks,
        impressions=impressions,
        ctr=round(clicks / impressions, 4) if impressions else None,
        position=position,
    )


def _totals(days: list[GscDay]) -> GscMetrics:
    clicks = sum(d.clicks or 0 for d in days)
    impressions = sum(d.impressions or 0 for d in days)
    weighted = sum((d.position or 0) * (d.impressions or 0) for d in days)
    return GscMetrics(
        clicks=clicks,
        impressions=impressions,
        ctr=round(clicks / impressions, 4) if impressions else None,
        position=round(weighted / impressions, 1) if impressions else None,
    )


def _split(totals: GscMetrics, shares: list[tuple[str, float]], dimension: str, site: str) -> list[GscRow]:
    rows = []
    for name, share in shares:
        r = rng_for("gsc-row", site, dimension, name)
        clicks = int((totals.clicks or 0) * share)
        impressions = int((totals.impressions or 0) * share)
        position = round(max(1.0, (totals.position or 20) + r.uniform(-6, 6)), 1)
        rows.append(
            GscRow(
                clicks=clicks,
                impressions=impressions,
                ctr=round(clicks / impressions, 4) if impressions else None,
                position=position,
                **{dimension: name},
            )
        )
    return rows


def _shares(names: list[str], site: str, dimension: str, cover: float) -> list[tuple[str, float]]:
    """Falling shares (Zipf-like) of ``cover`` of the total, for the top rows of a dimension."""
    weights = [1 / (i + 1) ** 1.1 for i in range(len(names))]
    total = sum(weights)
    r = rng_for("gsc-shares", site, dimension)
    return [(n, cover * w / total * r.uniform(0.9, 1.1)) for n, w in zip(names, weights, strict=True)]


def performance(site: str, range_: str) -> GscPerformance:
    """A connected site's report over ``range_``: it ends at the sandbox epoch less the data lag,
    not at the wall clock, so the same request always answers the same."""
    days = RANGE_DAYS[range_]
    end = _end()
    current = [_day(site, end - timedelta(days=i)) for i in reversed(range(days))]
    previous = [_day(site, end - timedelta(days=days + i)) for i in reversed(range(days))]
    totals = _totals(current)
    queries = list(SEED_KEYWORDS.get(site, ()))[:TOP_ROWS] + list(DEMO_SITES[site].themes)
    pages = [f"https://{site}/"] + [f"https://{site}/{section}" for section in _SECTIONS]
    snapshot = GscBreakdown(
        queries=_split(totals, _shares(queries[:TOP_ROWS], site, "query", 0.42), "query", site),
        pages=_split(totals, _shares(pages[:TOP_ROWS], site, "page", 0.9), "page", site),
        countries=_split(totals, list(COUNTRIES), "country", site),
        devices=_split(totals, list(DEVICES), "device", site),
    )
    return GscPerformance(
        range=range_,
        performance=GscPerformanceData(
            connection=GscConnection(
                connected=True,
                site_property=f"sc-domain:{site}",
                permission="siteOwner",
                last_sync_at=SANDBOX_EPOCH - timedelta(hours=6),
            ),
            start_date=current[0].date,
            end_date=end,
            series=current,
            totals=totals,
            previous_totals=_totals(previous),
            snapshot=snapshot,
        ),
    )


# --- index audits ---------------------------------------------------------------------------


def audit(site: str, number: int, at: datetime) -> GscAudit:
    """Audit number ``number`` of a site: sitemaps, and a sample of indexed and not-indexed pages."""
    r = rng_for("gsc-audit", site, number)
    submitted = r.randint(60, 400)
    indexed_count = int(submitted * r.uniform(0.7, 0.95))
    sitemaps = [
        SitemapHealth(
            url=f"https://{site}/{name}",
            status="success" if r.random() < 0.85 else "has warnings",
            submitted=part,
            indexed=int(part * indexed_count / submitted),
            errors=0,
            warnings=r.randint(0, 3),
            last_read_at=at - timedelta(hours=r.randint(2, 72)),
        )
        for name, part in (
            ("sitemap.xml", submitted * 2 // 3),
            ("post-sitemap.xml", submitted - submitted * 2 // 3),
        )
    ]
    paths = [
        f"{r.choice(_SECTIONS)}/{r.choice(('how-to', 'best', 'why', 'vs', 'checklist'))}-{i}"
        for i in range(13)
    ]
    indexed = [
        InspectedPage(
            url=f"https://{site}/{path}",
            state="indexed",
            coverage="Submitted and indexed",
            last_crawl_at=at - timedelta(days=r.randint(1, 30)),
            impressions=int(10 ** r.uniform(1, 3.5)),
        )
        for path in paths[:8]
    ]
    not_indexed = [
        InspectedPage(
            url=f"https://{site}/{path}",
            state="not indexed",
            coverage=r.choice(NOT_INDEXED_STATES),
            last_crawl_at=None if r.random() < 0.3 else at - timedelta(days=r.randint(5, 90)),
            impressions=0,
        )
        for path in paths[8:]
    ]
    return GscAudit(
        ran_at=at,
        next_run_at=at + AUDIT_COOLDOWN,
        pages_with_impressions=int(indexed_count * r.uniform(0.4, 0.8)),
        inspected=len(indexed) + len(not_indexed),
        indexed_count=indexed_count,
        not_indexed_count=submitted - indexed_count,
        sitemaps=sitemaps,
        indexed=indexed,
        not_indexed=not_indexed,
    )


def _hours(delta: timedelta) -> int:
    return math.ceil(delta.total_seconds() / 3600)


@dataclass
class AuditStore:
    """The latest audit per connected site."""

    latest: dict[str, GscAudit] = field(default_factory=dict)
    runs: dict[str, int] = field(default_factory=dict)

    def seed(self) -> None:
        self.latest, self.runs = {}, {}
        for site, demo in DEMO_SITES.items():
            if demo.gsc_connected:
                self.latest[site] = audit(site, 0, SANDBOX_EPOCH - timedelta(days=3))
                self.runs[site] = 1

    def result(self, site: str) -> GscAuditResult:
        stored = self.latest.get(site)
        return GscAuditResult(
            audit=stored.model_copy() if stored else None, cooldown_hours=_hours(AUDIT_COOLDOWN)
        )

    def run(self, site: str, now: datetime) -> GscAuditResult:
        """A fresh audit, or 409 during the cooldown after the last one."""
        last = self.latest.get(site)
        if last is not None and last.ran_at is not None and now - last.ran_at < AUDIT_COOLDOWN:
            wait = _hours(AUDIT_COOLDOWN - (now - last.ran_at))
            raise conflict(
                f"An audit ran less than 12 hours ago; the next one is possible in about {wait} h."
            )
        number = self.runs.get(site, 0)
        self.latest[site] = audit(site, number, now)
        self.runs[site] = number + 1
        return self.result(site)
