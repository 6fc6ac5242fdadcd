"""Coach advice → pandas DataFrames for the Coach page's tables, charts and CSV downloads.

Pure functions (no Streamlit). Unknown values stay missing (NA in nullable columns), never 0: an
unknown DR must not rank as the weakest backlink, and an unknown change must not read as "flat".
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from analysis.coach.rules import (
    SPAM_FLAG,
    Action,
    BacklinkAudit,
    Diagnosis,
    GrowthPlan,
    LinkRow,
    TrackReport,
    describe_sources,
    is_live_follow,
    is_lost,
    is_nofollow,
    is_spam,
    plain_sources,
)
from analysis.shaping import typed_frame
from client.models import ReferringDomain, TrustMap

ACTION_COLUMNS: dict[str, str] = {
    "rank": "Int64",
    "action": "string",
    "priority": "Int64",
    "impact_score": "Int64",
    "effort": "string",
    "confidence": "string",
    "lift_low": "Int64",
    "lift_high": "Int64",
    "impact": "string",
    "heuristic": "boolean",
    "why": "string",
    "based_on": "string",
    "data": "string",
    "cli": "string",
}

REASON_COLUMNS: dict[str, str] = {
    "signal": "string",
    "status": "string",
    "value": "string",
    "threshold": "string",
    "finding": "string",
    "based_on": "string",
    "data": "string",
}

LINK_COLUMNS: dict[str, str] = {
    "domain": "string",
    "dr": "Int64",
    "follow": "boolean",
    "status": "string",
    "spam_score": "Float64",
    "backlinks": "Int64",
    "importance": "Float64",
    "flags": "string",
    "anchor": "string",
    "url": "string",
}

REFERRING_COLUMNS: dict[str, str] = {
    "domain": "string",
    "dr": "Float64",
    "spam_score": "Float64",
    "link_type": "string",
    "status": "string",
    "backlinks": "Int64",
    "group": "string",
}

PLAN_COLUMNS: dict[str, str] = {
    "days": "string",
    "start_day": "Int64",
    "end_day": "Int64",
    "step": "string",
    "detail": "string",
    "lift_low": "Int64",
    "lift_high": "Int64",
    "heuristic": "boolean",
}

TRACK_COLUMNS: dict[str, str] = {"metric": "string", "weekly": "Float64", "monthly": "Float64"}

MIX_COLUMNS: dict[str, str] = {"kind": "string", "domains": "Int64"}

#: How a referring domain is grouped in the audit chart; the first that applies wins (worst first).
SPAM_GROUP = f"Spam score ≥ {SPAM_FLAG}"
GROUPS: tuple[str, ...] = (SPAM_GROUP, "Lost", "Nofollow", "Live follow")


def actions_frame(actions: Sequence[Action], domain: str) -> pd.DataFrame:
    """The ranked actions, rank 1 first, with the CLI's scores and the evidence each rests on (in words,
    and as the API fields and the CLI step for the raw CSV)."""
    rows = [
        {
            "rank": rank,
            "action": a.title,
            "priority": a.priority,
            "impact_score": a.impact_score,
            "effort": a.effort,
            "confidence": a.confidence,
            "lift_low": a.lift[0],
            "lift_high": a.lift[1],
            "impact": a.impact,
            "heuristic": a.heuristic,
            "why": a.detail,
            "based_on": plain_sources(a.sources),
            "data": describe_sources(a.sources),
            "cli": a.cli_for(domain),
        }
        for rank, a in enumerate(actions, start=1)
    ]
    return typed_frame(rows, ACTION_COLUMNS)


def reasons_frame(diagnosis: Diagnosis) -> pd.DataFrame:
    """Each signal behind TrueDR with its value, the rule's threshold and the verdict."""
    rows = [
        {
            "signal": r.signal,
            "status": r.status,
            "value": r.value,
            "threshold": r.threshold,
            "finding": r.finding,
            "based_on": plain_sources(r.sources),
            "data": describe_sources(r.sources),
        }
        for r in diagnosis.reasons
    ]
    return typed_frame(rows, REASON_COLUMNS)


def links_frame(rows: Sequence[LinkRow]) -> pd.DataFrame:
    """Backlinks or referring domains as the audit lists them; flags joined as ``spam, lost``."""
    data = [
        {
            "domain": r.domain,
            "dr": r.dr,
            "follow": r.follow,
            "status": r.status,
            "spam_score": r.spam_score,
            "backlinks": r.backlinks,
            "importance": r.importance,
            "flags": ", ".join(r.flags) or None,
            "anchor": r.anchor,
            "url": r.url,
        }
        for r in rows
    ]
    return typed_frame(data, LINK_COLUMNS)


def flagged_frame(audit: BacklinkAudit) -> pd.DataFrame:
    """The spam-flagged, lost and nofollow referring domains, each once, highest spam score first."""
    frame = links_frame(audit.flagged)
    return frame.sort_values(["spam_score", "dr"], ascending=[False, False], na_position="last").reset_index(
        drop=True
    )


def referring_group(row: ReferringDomain) -> str:
    """The worst thing about a referring domain, for colouring: spam, then lost, then nofollow."""
    if is_spam(row):
        return SPAM_GROUP
    if is_lost(row):
        return "Lost"
    if is_nofollow(row):
        return "Nofollow"
    return "Live follow"


def referring_frame(trust_map: TrustMap | None) -> pd.DataFrame:
    """Every mapped referring domain with its group, for the DR-vs-spam chart."""
    rows = [
        {
            "domain": d.domain,
            "dr": d.dr,
            "spam_score": d.spam_score,
            "link_type": d.link_type,
            "status": d.status,
            "backlinks": d.backlinks,
            "group": referring_group(d),
        }
        for d in (trust_map.domains if trust_map is not None else [])
    ]
    return typed_frame(rows, REFERRING_COLUMNS)


def link_mix_frame(trust_map: TrustMap | None) -> pd.DataFrame:
    """How many mapped domains are live follow, nofollow, lost and spam-flagged (the CLI's counts;
    one domain can count in several rows, as in the CLI's map summary)."""
    domains = trust_map.domains if trust_map is not None else []
    counts = {
        "Live follow": sum(1 for d in domains if is_live_follow(d)),
        "Nofollow": sum(1 for d in domains if is_nofollow(d)),
        "Lost": sum(1 for d in domains if is_lost(d)),
        SPAM_GROUP: sum(1 for d in domains if is_spam(d)),
    }
    rows = [{"kind": kind, "domains": domains} for kind, domains in counts.items()]
    return typed_frame(rows, MIX_COLUMNS)


def plan_frame(plan: GrowthPlan) -> pd.DataFrame:
    """The 90-day plan, one row per phase; a generic fallback phase claims no lift (NA, not 0)."""
    rows = [
        {
            "days": p.label,
            "start_day": p.start_day,
            "end_day": p.end_day,
            "step": p.title,
            "detail": p.detail,
            "lift_low": p.lift[0] if p.action_key else None,
            "lift_high": p.lift[1] if p.action_key else None,
            "heuristic": True,
        }
        for p in plan.phases
    ]
    return typed_frame(rows, PLAN_COLUMNS)


def track_frame(report: TrackReport) -> pd.DataFrame:
    """DR, TrueDR and traffic changes side by side; unknown changes stay NA."""
    rows = [
        {"metric": "DR", "weekly": report.dr_weekly, "monthly": report.dr_monthly},
        {"metric": "TrueDR", "weekly": report.true_dr_weekly, "monthly": report.true_dr_monthly},
        {"metric": "Traffic (visits)", "weekly": report.traffic_change, "monthly": None},
    ]
    return typed_frame(rows, TRACK_COLUMNS)
