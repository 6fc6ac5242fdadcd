"""Pydantic models of how your sites are found: AI-visibility snapshots and Search Console answers.

Owner-only data of ``/sites/:slug/ai-visibility``, ``gsc-performance`` and ``gsc-audit``, kept apart
from the discovery and site-management models (``client.growth_models``) because they describe what
other services (AI assistants, Google) see of a site. Same conventions as ``client.models``:
camelCase aliases, unknown fields kept, every provider signal nullable, enum-like values plain
strings; where the notes leave a shape open (a list or a map), both are accepted.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any

from pydantic import BeforeValidator, Field

from client.models import ApiModel, Timestamp

#: Known values of enum-like fields. Other values are accepted and displayed as they come.
AI_PLATFORMS = ("ChatGPT", "Perplexity", "Google AI Mode")
AI_STATUSES = ("ready", "pending")


def _named_map_to_list(key: str) -> Any:
    """``{"ChatGPT": {...}}`` → ``[{"platform": "ChatGPT", ...}]``; lists pass through."""

    def convert(value: Any) -> Any:
        if isinstance(value, dict):
            return [{key: name, **item} if isinstance(item, dict) else {key: name, "score": item}
                    for name, item in value.items()]  # fmt: skip
        return value

    return BeforeValidator(convert)


# --- /sites/:slug/ai-visibility --------------------------------------------------------------


class PlatformScore(ApiModel):
    platform: str
    score: float | None = None
    answers: int | None = None
    mentioned: int | None = None


class AiAnswer(ApiModel):
    """How one assistant answered one tracked question."""

    prompt_id: str | None = None
    prompt: str | None = None
    platform: str | None = None
    mentioned: bool | None = None
    position: int | None = None
    brands: list[str] = Field(default_factory=list)
    cited_pages: list[str] = Field(default_factory=list)
    cited_domains: list[str] = Field(default_factory=list)


class BrandMention(ApiModel):
    name: str | None = None
    domain: str | None = None
    mentions: int | None = None
    share: float | None = None
    own: bool | None = None


class SourceCount(ApiModel):
    domain: str | None = None
    citations: int | None = None


class PageCount(ApiModel):
    url: str | None = None
    citations: int | None = None


class AiSnapshot(ApiModel):
    score: float | None = None
    total_answers: int | None = None
    mentioned_answers: int | None = None
    by_platform: Annotated[list[PlatformScore], _named_map_to_list("platform")] = Field(default_factory=list)
    answers: list[AiAnswer] = Field(default_factory=list)
    brands: list[BrandMention] = Field(default_factory=list)
    sources: list[SourceCount] = Field(default_factory=list)
    top_pages: list[PageCount] = Field(default_factory=list)
    ran_at: Timestamp = None


class PageOutreach(ApiModel):
    """A page the assistants cite, with its site's ratings when known: an outreach target."""

    url: str | None = None
    domain: str | None = None
    dr: int | None = None
    true_dr: int | None = None
    citations: int | None = None


class AiPrompt(ApiModel):
    id: str
    prompt: str
    source: str | None = None
    location: str | None = None


class AiRun(ApiModel):
    at: Timestamp = None
    score: float | None = None


class AiVisibility(ApiModel):
    """The stored AI-visibility snapshot of a site, its tracked questions and the run history."""

    status: str | None = None
    snapshot: AiSnapshot | None = None
    page_outreach: list[PageOutreach] = Field(default_factory=list)
    prompts: list[AiPrompt] = Field(default_factory=list)
    history: list[AiRun] = Field(default_factory=list)
    delta: float | None = None
    next_refresh_at: Timestamp = None


class AiPrompts(ApiModel):
    """The answer to every AI-visibility write: the tracked questions as they now are."""

    prompts: list[AiPrompt] = Field(default_factory=list)
    status: str | None = None


# --- /sites/:slug/gsc-performance and gsc-audit ----------------------------------------------


class GscMetrics(ApiModel):
    clicks: int | None = None
    impressions: int | None = None
    ctr: float | None = None
    position: float | None = None


class GscDay(GscMetrics):
    date: dt.date | None = None


class GscRow(GscMetrics):
    """A top query, page, country or device; the dimension's name is the field that is set."""

    query: str | None = None
    page: str | None = None
    country: str | None = None
    device: str | None = None
    keys: list[str] | None = None

    @property
    def label(self) -> str | None:
        for value in (self.query, self.page, self.country, self.device):
            if value is not None:
                return value
        return " · ".join(self.keys) if self.keys else None


class GscConnection(ApiModel):
    connected: bool | None = None
    site_property: str | None = Field(default=None, alias="property")
    permission: str | None = None
    last_sync_at: Timestamp = None


class GscBreakdown(ApiModel):
    queries: list[GscRow] = Field(default_factory=list)
    pages: list[GscRow] = Field(default_factory=list)
    countries: list[GscRow] = Field(default_factory=list)
    devices: list[GscRow] = Field(default_factory=list)


class GscPerformanceData(ApiModel):
    connection: GscConnection | None = None
    start_date: dt.date | None = None
    end_date: dt.date | None = None
    series: list[GscDay] = Field(default_factory=list)
    totals: GscMetrics | None = None
    previous_totals: GscMetrics | None = None
    snapshot: GscBreakdown | None = None


class GscPerformance(ApiModel):
    range: str | None = None
    performance: GscPerformanceData


class SitemapHealth(ApiModel):
    url: str | None = None
    status: str | None = None
    submitted: int | None = None
    indexed: int | None = None
    errors: int | None = None
    warnings: int | None = None
    last_read_at: Timestamp = None


class InspectedPage(ApiModel):
    url: str | None = None
    state: str | None = None
    coverage: str | None = None
    last_crawl_at: Timestamp = None
    impressions: int | None = None


class GscAudit(ApiModel):
    """One index audit: sitemap health and sampled URL-inspection states."""

    ran_at: Timestamp = None
    next_run_at: Timestamp = None
    pages_with_impressions: int | None = None
    inspected: int | None = None
    indexed_count: int | None = None
    not_indexed_count: int | None = None
    sitemaps: list[SitemapHealth] = Field(default_factory=list)
    indexed: list[InspectedPage] = Field(default_factory=list)
    not_indexed: list[InspectedPage] = Field(default_factory=list)


class GscAuditResult(ApiModel):
    """The latest stored audit (``audit`` is null before the first run) and the run cooldown."""

    audit: GscAudit | None = None
    cooldown_hours: int | None = None
