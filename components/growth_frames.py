"""Discovery, exchange and site-management answers → pandas DataFrames. Pure: no Streamlit, no network.

Missing signals stay missing (nullable dtypes, NA), never 0: a pending site without TrueDR must not
look like a site whose TrueDR is zero.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from client.growth_models import (
    Discovery,
    ExchangeCandidates,
    Monitor,
    MonitorAlert,
    SiteDetail,
    SiteExport,
    SiteList,
    TrueDrReport,
)
from client.models import Lookup

DISCOVERY_COLUMNS: dict[str, str] = {
    "domain": "string",
    "dr": "Int64",
    "true_dr": "Int64",
    "trust_score": "Int64",
    "confidence": "string",
    "traffic_validated": "boolean",
    "category": "string",
    "verified": "boolean",
    "title": "string",
}
CANDIDATE_COLUMNS: dict[str, str] = {
    **{k: v for k, v in DISCOVERY_COLUMNS.items() if k != "verified"},
    "opportunity": "string",
    "why": "string",
    "slug": "string",
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


def _frame(rows: list[dict[str, Any]], columns: dict[str, str]) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=list(columns)).astype(columns)


def _lookup_row(site: Lookup, labels: Mapping[str, str]) -> dict[str, Any]:
    a = site.authority
    return {
        "domain": site.domain,
        "dr": a.dr,
        "true_dr": a.true_dr,
        "trust_score": a.trust_score,
        "confidence": a.confidence,
        "traffic_validated": a.traffic_validated,
        "category": labels.get(site.category, site.category) if site.category else None,
        "verified": site.verified,
        "title": site.title,
    }


def discovery_frame(found: Discovery, labels: Mapping[str, str] | None = None) -> pd.DataFrame:
    """One row per discovered site, in the service's order (TrueDR, then DR); categories by label."""
    return _frame([_lookup_row(s, labels or {}) for s in found.sites], DISCOVERY_COLUMNS)


def candidates_frame(found: ExchangeCandidates, labels: Mapping[str, str] | None = None) -> pd.DataFrame:
    """Exchange candidates with the kind of opportunity and why each fits."""
    rows = []
    for c in found.candidates:
        row = _lookup_row(c, labels or {})
        row.pop("verified")
        kind = c.opportunity.type if c.opportunity else None
        row.update(
            opportunity=kind.replace("_", " ") if kind else None,
            why=c.opportunity.reason if c.opportunity else None,
            slug=c.slug,
        )
        rows.append(row)
    return _frame(rows, CANDIDATE_COLUMNS)


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
    return _frame(rows, SITE_COLUMNS)


def trends_frame(detail: SiteDetail) -> pd.DataFrame:
    rows = [{"date": p.date, "dr": p.dr, "true_dr": p.true_dr, "traffic": p.traffic} for p in detail.trends]
    frame = pd.DataFrame(rows, columns=list(TREND_COLUMNS))
    frame["date"] = pd.to_datetime(frame["date"])
    return frame.astype(TREND_COLUMNS).sort_values("date", ignore_index=True)


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
    return _frame(rows, TRUEDR_COLUMNS)


def _flatten(prefix: str, value: Any, out: dict[str, Any]) -> None:
    if isinstance(value, dict):
        for key, item in value.items():
            _flatten(f"{prefix}.{key}" if prefix else str(key), item, out)
    elif isinstance(value, list):
        out[prefix] = (
            ", ".join(str(v) for v in value)
            if all(not isinstance(v, dict | list) for v in value)
            else (json.dumps(value, ensure_ascii=False))
        )
    else:
        out[prefix] = value


def export_frame(exported: SiteExport) -> pd.DataFrame:
    """The export as field/value rows (``site.dr``, ``snippets.badge`` …), for a CSV and a table."""
    flat: dict[str, Any] = {}
    _flatten("", exported.to_json_dict(), flat)
    rows = [{"field": k, "value": None if v is None else str(v)} for k, v in flat.items()]
    return _frame(rows, {"field": "string", "value": "string"})


def export_json(exported: SiteExport) -> bytes:
    """The export exactly as the service sent it (camelCase, extra fields kept), pretty-printed."""
    return json.dumps({"export": exported.to_json_dict()}, indent=2, ensure_ascii=False).encode("utf-8")


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
    return _frame(rows, MONITOR_COLUMNS)


def monitor_alerts(report: Monitor) -> list[tuple[str, str, str]]:
    """(level, domain, message) for every alert, most urgent first, so a page can highlight them."""
    found = [(a.level or "info", s.domain, a.message) for s in report.sites for a in s.alerts]
    rank = {level: i for i, level in enumerate(ALERT_ORDER)}
    return sorted(found, key=lambda item: rank.get(item[0], len(ALERT_ORDER)))
