"""Pydantic models of the v1 resources, shared by the client and the sandbox.

JSON keys are the service's camelCase names (aliases); attributes are snake_case. The real service
returns more than the spec lists, so every model keeps unknown fields (``extra="allow"``) and every
provider signal is nullable: a missing value weakens the evidence but must never fail parsing.
Enum-like fields are plain strings with the known values listed beside them, so a value we have not
seen yet is shown rather than crashing the page.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationError,
    model_validator,
)
from pydantic.alias_generators import to_camel

from client.map_rows import SkippedRow, split_rows

#: Known values of enum-like fields. Other values are accepted and displayed as they come.
VERDICTS = ("real", "suspicious", "shell", "unreachable")
TIERS = ("boost", "advanced", "ultra")
CONFIDENCES = ("high", "medium", "low")
LINK_TYPES = ("dofollow", "nofollow")
LINK_STATUSES = ("live", "lost")


_DATETIME = TypeAdapter(datetime)


def _lenient_datetime(value: Any) -> datetime | None:
    """A timestamp is informative only: one the service mangled becomes unknown, not a failed page."""
    if value is None or isinstance(value, datetime):
        return value
    try:
        return _DATETIME.validate_python(value)
    except ValidationError:
        return None


#: Service timestamps (report dates, fetch and check times): nullable and never fatal.
Timestamp = Annotated[datetime | None, BeforeValidator(_lenient_datetime)]


class ApiModel(BaseModel):
    """Base of every resource: camelCase aliases, extra fields kept, population by either name."""

    model_config = ConfigDict(
        alias_generator=to_camel,
        populate_by_name=True,
        extra="allow",
        frozen=False,
    )

    def to_json_dict(self) -> dict:
        """The object as the service writes it (camelCase keys, extra fields included)."""
        return self.model_dump(by_alias=True, mode="json")


# --- GET /dr/:domain -------------------------------------------------------------------------


class DomainRating(ApiModel):
    domain: str
    dr: int | None = None
    source: str | None = None
    listed: bool | None = None
    slug: str | None = None


# --- GET /site-check/:domain -----------------------------------------------------------------


class ShellSignals(ApiModel):
    is_shell: bool | None = None
    visible_text_chars: int | None = None
    text_ratio: float | None = None
    outbound_links: int | None = None


class SiteCheck(ApiModel):
    domain: str
    verdict: str | None = None
    reasons: list[str] = Field(default_factory=list)
    reachable: bool | None = None
    https: bool | None = None
    title: str | None = None
    shell: ShellSignals | None = None
    domain_age_years: float | None = None
    ranked_keywords: int | None = None
    referring_domains: int | None = None
    backlinks: int | None = None
    spam_score: float | None = None


# --- GET /lookup/:domain ---------------------------------------------------------------------


class Authority(ApiModel):
    dr: int | None = None
    true_dr: int | None = None
    trust_score: int | None = None
    confidence: str | None = None
    confidence_score: float | None = None
    traffic_validated: bool | None = None


class Changes(ApiModel):
    dr_weekly_change: float | None = None
    true_dr_weekly_change: float | None = None
    traffic_change: float | None = None
    dr_monthly_change: float | None = None
    true_dr_monthly_change: float | None = None


class Backlink(ApiModel):
    source_domain: str | None = None
    dr: int | None = None
    url: str | None = None
    anchor: str | None = None
    follow: bool | None = None


class Evidence(ApiModel):
    traffic: int | None = None
    referring_domains: int | None = None
    backlinks: int | None = None
    global_rank: int | None = None
    gained_domains: int | None = None
    lost_domains: int | None = None
    report_created_at: Timestamp = None
    top_backlinks: list[Backlink] | None = None
    bottom_backlinks: list[Backlink] | None = None


class PublicLinks(ApiModel):
    page: str | None = None
    badge: str | None = None


class Lookup(ApiModel):
    domain: str
    slug: str | None = None
    title: str | None = None
    authority: Authority = Field(default_factory=Authority)
    changes: Changes = Field(default_factory=Changes)
    evidence: Evidence = Field(default_factory=Evidence)
    verified: bool | None = None
    links: PublicLinks | None = None
    category: str | None = None


# --- GET /map/:domain ------------------------------------------------------------------------


class MapSite(ApiModel):
    domain: str
    dr: int | None = None
    verified: bool | None = None
    title: str | None = None


class ReferringDomain(ApiModel):
    domain: str
    dr: int | None = None
    backlinks: int | None = None
    link_type: str | None = None
    status: str | None = None
    importance: float | None = None
    spam_score: float | None = None


class TrustMap(ApiModel):
    """A site's Trust Map. ``domains`` holds the usable rows of the answer, in its order; ``skipped`` names
    each row that could not be used (``client.map_rows``). ``skipped`` is never part of what the service
    writes: it is written out only when a row was skipped, so a map read back from a cache keeps it."""

    site: MapSite
    total_domains: int | None = None
    domains: list[ReferringDomain] = Field(default_factory=list)
    skipped: list[SkippedRow] = Field(default_factory=list, exclude_if=lambda rows: not rows)

    @model_validator(mode="before")
    @classmethod
    def _usable_rows(cls, data: Any) -> Any:
        """Each referring domain read on its own: an unusable row is named in ``skipped``, not fatal."""
        if not isinstance(data, dict) or not isinstance(data.get("domains"), list):
            return data
        usable, skipped = split_rows(data["domains"], ReferringDomain.model_validate)
        earlier = data.get("skipped")
        return {
            **data,
            "domains": usable,
            "skipped": [*(earlier if isinstance(earlier, list) else []), *skipped],
        }


# --- GET /snippets/:domain -------------------------------------------------------------------


class Snippets(ApiModel):
    page: str | None = None
    badge: str | None = None
    html: str | None = None
    markdown: str | None = None
    html_dark: str | None = None
    html_true_dr: str | None = None
    share_text: str | None = None
    og_image: str | None = None
    styles: list[str] | None = None


# --- GET /categories -------------------------------------------------------------------------


class Category(ApiModel):
    value: str
    label: str | None = None


class Categories(ApiModel):
    categories: list[Category] = Field(default_factory=list)
    max_per_site: int | None = None


# --- GET /keywords ---------------------------------------------------------------------------


class SerpResult(ApiModel):
    position: int
    domain: str
    dr: int | None = None
    url: str | None = None
    title: str | None = None
    tracked_slug: str | None = None


class KeywordUser(ApiModel):
    domain: str
    dr: int | None = None
    gap: float | None = None
    tier: str | None = None


class KeywordReport(ApiModel):
    keyword: str
    cached: bool | None = None
    results: list[SerpResult] = Field(default_factory=list)
    median_dr: float | None = None
    min_dr: float | None = None
    user: KeywordUser | None = None
    fetched_at: Timestamp = None


# --- GET /keywords/suggestions/:domain -------------------------------------------------------


class Suggestion(ApiModel):
    keyword: str
    position: int | None = None
    search_volume: int | None = None


class KeywordSuggestions(ApiModel):
    domain: str
    suggestions: list[Suggestion] = Field(default_factory=list)


# --- /sites/:slug/keywords -------------------------------------------------------------------


class KeywordSnapshot(ApiModel):
    median_dr: float | None = None
    gap: float | None = None
    min_dr: float | None = None
    user_dr: int | None = None
    tier: str | None = None
    search_volume: int | None = None
    cpc: float | None = None
    user_position: int | None = None
    prev_position: int | None = None


class TrackedKeyword(ApiModel):
    id: str
    keyword: str
    snapshot: KeywordSnapshot | None = None
    last_checked_at: Timestamp = None
    impressions: int | None = None
    gsc_position: float | None = None


class TrackedWebsite(ApiModel):
    slug: str
    url: str | None = None


class TrackedQuota(ApiModel):
    used: int | None = None
    limit: int | None = None


class TrackedKeywords(ApiModel):
    website: TrackedWebsite
    keywords: list[TrackedKeyword] = Field(default_factory=list)
    limit: int | None = None
    quota: TrackedQuota | None = None


class TargetRef(ApiModel):
    id: str
    keyword: str


class TargetWrite(ApiModel):
    """Answer to adding or refreshing a tracked keyword."""

    ok: bool = True
    target: TargetRef


class TargetRemoval(ApiModel):
    """Answer to removing a tracked keyword."""

    ok: bool = True
    removed: str


# --- Errors and quota headers ----------------------------------------------------------------


class ErrorBody(ApiModel):
    """Every error response; a 402 program gate adds the link and names what it blocks."""

    error: str
    upgrade_url: str | None = None
    required_plan: str | None = None
    blocked_feature: str | None = None


class QuotaInfo(ApiModel):
    """What the ``X-API-Quota-*`` and ``X-API-Tier`` headers of the latest answer said."""

    limit: int | None = None
    remaining: int | None = None
    tier: str | None = None
    seen_at: Timestamp = None
