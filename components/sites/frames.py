"""My sites, site details, monitor, AI-visibility and Search Console answers → DataFrames. Pure functions.

CTR is kept as a fraction (0.034) and shown as a percentage by the page's column format; positions
are averages where lower is better, which the deltas say explicitly.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd

from client.growth_models import Monitor, MonitorAlert, SiteDetail, SiteList, TrueDrReport
from client.visibility_models import (
    AiSnapshot,
    AiVisibility,
    GscAudit,
    GscMetrics,
    GscPerformance,
    GscRow,
    InspectedPage,
)
from components.common.shaping import typed_frame
from components.common.text import safe_http_url

ANSWER_COLUMNS: dict[str, str] = {
    "question": "string",
    "platform": "string",
    "mentioned": "boolean",
    "position": "Int64",
    "brands": "string",
    "cited_domains": "string",
}
GSC_ROW_COLUMNS: dict[str, str] = {
    "name": "string",
    "clicks": "Int64",
    "impressions": "Int64",
    "ctr": "Float64",
    "position": "Float64",
}
SITE_COLUMNS: dict[str, str] = {
    "domain": "string",
    "status": "string",
    "dr": "Int64",
    "true_dr": "Int64",
    "trust_score": "Int64",
    "traffic": "Int64",
    "traffic_validated": "boolean",
    "referring_domains": "Int64",
    "verified": "boolean",
    "gsc_connected": "boolean",
    "site_check_verdict": "string",
    "categories": "string",
    "created": "string",
    "slug": "string",
}
TREND_COLUMNS: dict[str, str] = {
    "date": "datetime64[ns]",
    "dr": "Int64",
    "true_dr": "Int64",
    "traffic": "Int64",
}
TRUEDR_COLUMNS: dict[str, str] = {
    "signal": "string",
    "impact": "Float64",
    "score": "Float64",
    "weight": "Float64",
    "note": "string",
}
MONITOR_COLUMNS: dict[str, str] = {
    "domain": "string",
    "dr": "Int64",
    "true_dr": "Int64",
    "dr_change": "Float64",
    "true_dr_change": "Float64",
    "traffic_change": "Float64",
    "new_referring_domains": "Int64",
    "lost_referring_domains": "Int64",
    "traffic_validated": "boolean",
    "alerts": "Int64",
    "worst_alert": "string",
    "summary": "string",
}
#: Alert levels, most urgent first.
ALERT_ORDER = ("critical", "warning", "info")
#: What the AI-visibility frames read before a site's first run: no answers, brands or sources.
_NO_RUN = AiSnapshot()


# --- My sites, site details, monitor --------------------------------------------------------


def sites_frame(listing: SiteList) -> pd.DataFrame:
    rows = [
        {
            "domain": s.domain or s.slug,
            "status": s.status,
            "dr": s.dr,
            "true_dr": s.true_dr,
            "trust_score": s.trust_score,
            "traffic": s.traffic,
            "traffic_validated": s.traffic_validated,
            "referring_domains": s.referring_domains,
            "verified": s.verified,
            "gsc_connected": s.gsc_connected,
            "site_check_verdict": s.site_check_verdict,
            "categories": ", ".join(s.categories) if s.categories else None,
            "created": s.created_at.date().isoformat() if s.created_at else None,
            "slug": s.slug,
        }
        for s in listing.sites
    ]
    return typed_frame(rows, SITE_COLUMNS)


def trends_frame(detail: SiteDetail) -> pd.DataFrame:
    rows = [{"date": p.date, "dr": p.dr, "true_dr": p.true_dr, "traffic": p.traffic} for p in detail.trends]
    frame = pd.DataFrame(rows, columns=list(TREND_COLUMNS))
    frame["date"] = pd.to_datetime(frame["date"])
    return frame.astype(TREND_COLUMNS).sort_values("date", ignore_index=True)


def trend_moves(frame: pd.DataFrame) -> str | None:
    """How far each series moved over the trend, in words, next to a chart drawn on the full scale:
    "DR 41 → 41 (no change) · TrueDR 37 → 42 (+5) · traffic 452 → 611 visits a month"."""
    parts = []
    for column, label, unit in (
        ("dr", "DR", ""),
        ("true_dr", "TrueDR", ""),
        ("traffic", "traffic", " visits"),
    ):
        known = frame[column].dropna()
        if len(known) < 2:
            continue
        first, last = int(known.iloc[0]), int(known.iloc[-1])
        move = "no change" if last == first else f"{last - first:+,}"
        parts.append(f"{label} {first:,} → {last:,}{unit} ({move})")
    return " · ".join(parts) or None


def truedr_frame(report: TrueDrReport) -> pd.DataFrame:
    """The per-signal breakdown; ``impact`` is in rating points (positive lifts TrueDR above DR)."""
    rows = [
        {
            "signal": s.label or s.signal,
            "impact": s.impact,
            "score": s.score,
            "weight": s.weight,
            "note": s.note,
        }
        for s in report.breakdown
    ]
    return typed_frame(rows, TRUEDR_COLUMNS)


def _worst(alerts: Sequence[MonitorAlert]) -> str | None:
    levels = [a.level for a in alerts if a.level]
    for level in ALERT_ORDER:
        if level in levels:
            return level
    return levels[0] if levels else ("info" if alerts else None)


def monitor_frame(report: Monitor) -> pd.DataFrame:
    rows = []
    for s in report.sites:
        a, c, b, t = s.authority, s.changes, s.backlinks, s.traffic_validation
        rows.append(
            {
                "domain": s.domain,
                "dr": a.dr if a else None,
                "true_dr": a.true_dr if a else None,
                "dr_change": c.dr_weekly_change if c else None,
                "true_dr_change": c.true_dr_weekly_change if c else None,
                "traffic_change": c.traffic_change if c else None,
                "new_referring_domains": b.new_referring_domains if b else None,
                "lost_referring_domains": b.lost_referring_domains if b else None,
                "traffic_validated": t.validated if t else None,
                "alerts": len(s.alerts),
                "worst_alert": _worst(s.alerts),
                "summary": s.summary,
            }
        )
    return typed_frame(rows, MONITOR_COLUMNS)


def monitor_alerts(report: Monitor) -> list[tuple[str, str, str]]:
    """(level, domain, message) for every alert, most urgent first, so a page can highlight them."""
    found = [(a.level or "info", s.domain, a.message) for s in report.sites for a in s.alerts]
    rank = {level: i for i, level in enumerate(ALERT_ORDER)}
    return sorted(found, key=lambda item: rank.get(item[0], len(ALERT_ORDER)))


# --- AI visibility --------------------------------------------------------------------------


def answers_frame(view: AiVisibility) -> pd.DataFrame:
    """One row per question and assistant in the latest run."""
    rows = [
        {
            "question": a.prompt,
            "platform": a.platform,
            "mentioned": a.mentioned,
            "position": a.position,
            "brands": ", ".join(a.brands),
            "cited_domains": ", ".join(a.cited_domains),
        }
        for a in (view.snapshot or _NO_RUN).answers
    ]
    return typed_frame(rows, ANSWER_COLUMNS)


def questions_frame(view: AiVisibility) -> pd.DataFrame:
    """Per tracked question: in how many assistants' answers the site was mentioned (NA before a run)."""
    answers = (view.snapshot or _NO_RUN).answers
    rows = []
    for p in view.prompts:
        mine = [a for a in answers if a.prompt_id == p.id or (a.prompt_id is None and a.prompt == p.prompt)]
        rows.append(
            {
                "question": p.prompt,
                "mentioned_in": sum(1 for a in mine if a.mentioned) if mine else None,
                "asked_on": len(mine) if mine else None,
                "source": p.source,
                "location": p.location,
                "id": p.id,
            }
        )
    columns = {
        "question": "string",
        "mentioned_in": "Int64",
        "asked_on": "Int64",
        "source": "string",
        "location": "string",
        "id": "string",
    }
    return typed_frame(rows, columns)


def platforms_frame(view: AiVisibility) -> pd.DataFrame:
    rows = [
        {"platform": p.platform, "score": p.score, "mentioned": p.mentioned, "answers": p.answers}
        for p in (view.snapshot or _NO_RUN).by_platform
    ]
    columns = {"platform": "string", "score": "Float64", "mentioned": "Int64", "answers": "Int64"}
    return typed_frame(rows, columns)


def brands_frame(view: AiVisibility) -> pd.DataFrame:
    """Brands named in the answers, the site's own marked, most mentioned first."""
    rows = [
        {"brand": b.name, "domain": b.domain, "mentions": b.mentions, "share": b.share, "yours": b.own}
        for b in (view.snapshot or _NO_RUN).brands
    ]
    columns = {
        "brand": "string",
        "domain": "string",
        "mentions": "Int64",
        "share": "Float64",
        "yours": "boolean",
    }
    return typed_frame(rows, columns)


def sources_frame(view: AiVisibility) -> pd.DataFrame:
    rows = [{"domain": s.domain, "citations": s.citations} for s in (view.snapshot or _NO_RUN).sources]
    return typed_frame(rows, {"domain": "string", "citations": "Int64"})


def outreach_frame(view: AiVisibility) -> pd.DataFrame:
    """Cited pages on other sites, with their site's ratings when known: who to reach out to."""
    rows = [
        {
            "url": safe_http_url(p.url),
            "domain": p.domain,
            "citations": p.citations,
            "dr": p.dr,
            "true_dr": p.true_dr,
        }
        for p in view.page_outreach
    ]
    columns = {"url": "string", "domain": "string", "citations": "Int64", "dr": "Int64", "true_dr": "Int64"}
    return typed_frame(rows, columns)


def history_frame(view: AiVisibility) -> pd.DataFrame:
    rows = [{"at": run.at, "score": run.score} for run in view.history if run.at is not None]
    frame = pd.DataFrame(rows, columns=["at", "score"])
    frame["at"] = pd.to_datetime(frame["at"], utc=True)
    return frame.astype({"score": "Float64"}).sort_values("at", ignore_index=True)


# --- Search Console -------------------------------------------------------------------------


@dataclass(frozen=True)
class MetricDelta:
    """A total next to the previous period's; ``better`` says whether the change is good news."""

    label: str
    value: float | None
    change: float | None
    better: bool | None


def _change(now: float | None, before: float | None) -> float | None:
    return None if now is None or before is None else now - before


def totals_deltas(perf: GscPerformance) -> list[MetricDelta]:
    """Clicks, impressions, CTR and position against the previous period (lower position is better)."""
    now = perf.performance.totals or GscMetrics()
    before = perf.performance.previous_totals or GscMetrics()
    out = []
    for label, attr, lower_is_better in (
        ("Clicks", "clicks", False),
        ("Impressions", "impressions", False),
        ("CTR", "ctr", False),
        ("Average position", "position", True),
    ):
        value, change = getattr(now, attr), _change(getattr(now, attr), getattr(before, attr))
        better = None if not change else (change < 0) == lower_is_better
        out.append(MetricDelta(label, value, change, better))
    return out


def series_frame(perf: GscPerformance) -> pd.DataFrame:
    rows = [
        {
            "date": d.date,
            "clicks": d.clicks,
            "impressions": d.impressions,
            "ctr": d.ctr,
            "position": d.position,
        }
        for d in perf.performance.series
        if d.date is not None
    ]
    frame = pd.DataFrame(rows, columns=["date", "clicks", "impressions", "ctr", "position"])
    frame["date"] = pd.to_datetime(frame["date"])
    types = {"clicks": "Int64", "impressions": "Int64", "ctr": "Float64", "position": "Float64"}
    return frame.astype(types).sort_values("date", ignore_index=True)


def rows_frame(rows: Sequence[GscRow], *, links: bool = False) -> pd.DataFrame:
    """Top queries, pages, countries or devices; ``name`` is whichever dimension the row carries.

    With ``links`` (the pages), a name that is not an http(s) address is left out, so it never
    becomes a clickable link.
    """
    data = [
        {
            "name": safe_http_url(r.label) if links else r.label,
            "clicks": r.clicks,
            "impressions": r.impressions,
            "ctr": r.ctr,
            "position": r.position,
        }
        for r in rows
    ]
    return typed_frame(data, GSC_ROW_COLUMNS)


def sitemaps_frame(audit: GscAudit) -> pd.DataFrame:
    rows = [
        {
            "sitemap": safe_http_url(m.url),
            "status": m.status,
            "submitted": m.submitted,
            "indexed": m.indexed,
            "errors": m.errors,
            "warnings": m.warnings,
            "last_read": m.last_read_at.strftime("%Y-%m-%d %H:%M") if m.last_read_at else None,
        }
        for m in audit.sitemaps
    ]
    columns = {
        "sitemap": "string",
        "status": "string",
        "submitted": "Int64",
        "indexed": "Int64",
        "errors": "Int64",
        "warnings": "Int64",
        "last_read": "string",
    }
    return typed_frame(rows, columns)


def inspected_frame(pages: Sequence[InspectedPage]) -> pd.DataFrame:
    rows = [
        {
            "url": safe_http_url(p.url),
            "coverage": p.coverage or p.state,
            "last_crawl": p.last_crawl_at.date().isoformat() if p.last_crawl_at else None,
            "impressions": p.impressions,
        }
        for p in pages
    ]
    columns = {"url": "string", "coverage": "string", "last_crawl": "string", "impressions": "Int64"}
    return typed_frame(rows, columns)
