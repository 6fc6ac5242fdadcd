"""AI visibility and Search Console answers → DataFrames. Pure functions.

CTR is kept as a fraction (0.034) and shown as a percentage by the page's column format; positions
are averages where lower is better, which the deltas say explicitly.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

import pandas as pd

from analysis.shaping import typed_frame
from analysis.text import safe_http_url
from analysis.wording import NOT_AVAILABLE, whole_number
from client.visibility_models import (
    AiSnapshot,
    AiVisibility,
    GscAudit,
    GscMetrics,
    GscPerformance,
    GscRow,
    InspectedPage,
)

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
#: What the AI-visibility frames read before a site's first run: no answers, brands or sources.
_NO_RUN = AiSnapshot()


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


def score_text(view: AiVisibility) -> str:
    """The latest run's AI-visibility score with one decimal, or "not available" before a run."""
    snap = view.snapshot
    return NOT_AVAILABLE if snap is None or snap.score is None else f"{snap.score:.1f}"


def score_change_text(view: AiVisibility) -> str | None:
    """The score's change since the previous run, signed (None when there is no previous run)."""
    return None if view.delta is None else f"{view.delta:+.1f}"


def answered_text(view: AiVisibility) -> str:
    """How many of the latest run's answers mention your site, as "3 of 12"."""
    snap = view.snapshot
    if snap is None:
        return NOT_AVAILABLE
    return f"{whole_number(snap.mentioned_answers)} of {whole_number(snap.total_answers)}"


def next_run_text(due: datetime | None, now: datetime) -> str:
    """When the next weekly run is due: its date, "due now" once ``now`` has reached it."""
    if due is None:
        return NOT_AVAILABLE
    return "due now" if due <= now else due.date().isoformat()


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


def delta_value_text(delta: MetricDelta) -> str:
    """A total as its card shows it: CTR as a percentage, the position with one decimal, counts whole."""
    if delta.value is None:
        return NOT_AVAILABLE
    if delta.label == "CTR":
        return f"{delta.value:.2%}"
    if delta.label == "Average position":
        return f"{delta.value:.1f}"
    return whole_number(delta.value)


def delta_change_text(delta: MetricDelta) -> str | None:
    """A total's change, signed: CTR in percentage points, the position with one decimal."""
    if delta.change is None:
        return None
    if delta.label == "CTR":
        return f"{delta.change * 100:+.2f} pts"
    if delta.label == "Average position":
        return f"{delta.change:+.1f}"
    return f"{delta.change:+,.0f}"


def when_text(moment: datetime | None) -> str:
    """A moment of the index audit in UTC, to the minute."""
    return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC") if moment else NOT_AVAILABLE


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
