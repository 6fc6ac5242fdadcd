"""My sites, site details and the monitor: the service's answers → DataFrames. Pure functions.

A rating the service does not know yet (a pending site's TrueDR) stays missing, never 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

import pandas as pd

from analysis.shaping import typed_frame
from analysis.text import BadgeColour
from analysis.wording import NOT_AVAILABLE
from client.growth_models import Monitor, MonitorAlert, SiteDetail, SiteList, TrueDrReport

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
#: The badge colour of a site-check verdict in a submission's result (any other verdict is grey).
VERDICT_COLOURS: dict[str, BadgeColour] = {
    "real": "green",
    "suspicious": "orange",
    "shell": "red",
    "unreachable": "gray",
}
#: Alert levels, most urgent first.
ALERT_ORDER = ("critical", "warning", "info")


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


def trends_note(detail: SiteDetail, frame: pd.DataFrame) -> str:
    """The caption under the trends chart: since when the weekly points run, and how far each moved."""
    first = detail.trends[0].date if detail.trends else None
    since = first.isoformat() if isinstance(first, date) else NOT_AVAILABLE
    moves = trend_moves(frame)
    return f"Weekly points since {since}" + (f": {moves}." if moves else ".")


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
