"""Pydantic models of the discovery, exchange and site-management answers.

The spec only names these operations; the shapes come from the contract notes (the vendor CLI's
documentation and source). Same conventions as ``client.models``: camelCase aliases, unknown fields
kept, every provider signal nullable, enum-like values plain strings. Where the notes leave a shape
open (a list or a map, an alert as text or as an object), the model accepts both, so a service that
answers the other way is shown rather than refused. The AI-visibility and Search Console models
live in ``client.visibility_models``.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any

from pydantic import BeforeValidator, Field

from client.models import ApiModel, Authority, Changes, Lookup, SiteCheck, Snippets, Timestamp

#: Known values of enum-like fields. Other values are accepted and displayed as they come.
SITE_STATUSES = ("approved", "pending", "rejected")
ALERT_LEVELS = ("critical", "warning", "info")
MONITOR_CADENCES = ("weekly", "daily")


def _text_to_object(key: str) -> Any:
    """A bare string where an object was expected becomes ``{key: text}``."""
    return BeforeValidator(lambda value: {key: value} if isinstance(value, str) else value)


def _bool_to_object(key: str) -> Any:
    return BeforeValidator(lambda value: {key: value} if isinstance(value, bool) else value)


# --- GET /find (discovery) ------------------------------------------------------------------


class FindFilters(ApiModel):
    """The filters the service applied, as it echoes them."""

    category: str | None = None
    min_true_dr: int | None = None
    min_dr: int | None = None
    traffic_validated: bool | None = None
    include_unverified: bool | None = None
    limit: int | None = None
    exchanges_for: str | None = None


class Discovery(ApiModel):
    """``{"find": ...}``: listed sites, ranked by TrueDR then DR."""

    filters: FindFilters | None = None
    sites: list[Lookup] = Field(default_factory=list)


# --- GET /find?exchangesFor= (exchange candidates) -------------------------------------------


class Opportunity(ApiModel):
    type: str | None = None
    reason: str | None = None


class ExchangeCandidate(Lookup):
    """A lookup object plus why it fits as an exchange partner."""

    opportunity: Opportunity | None = None


class ExchangeCandidates(ApiModel):
    """``{"opportunities": ...}`` for one domain."""

    domain: str
    redacted: bool | None = None
    filters: FindFilters | None = None
    candidates: list[ExchangeCandidate] = Field(default_factory=list)


# --- POST /find (preview or send an exchange proposal) ---------------------------------------


class ContactTarget(ApiModel):
    domain: str | None = None
    title: str | None = None
    slug: str | None = None


class ContactQuota(ApiModel):
    """Exchange proposals the plan allows; ``limit`` is null when the plan has none."""

    used: int | None = None
    limit: int | None = None
    plan: str | None = None


class ExchangeContact(ApiModel):
    """``{"contact": ...}``: a dry run (preview) or a sent proposal."""

    dry_run: bool | None = None
    sent: bool | None = None
    to: ContactTarget | None = None
    subject: str | None = None
    message: str | None = None
    quota: ContactQuota | None = None


# --- /sites ---------------------------------------------------------------------------------


class SiteRecord(ApiModel):
    """One of the caller's sites with the metrics the service keeps for it."""

    slug: str
    domain: str | None = None
    url: str | None = None
    title: str | None = None
    description: str | None = None
    categories: list[str] | None = None
    x_handle: str | None = None
    status: str | None = None
    verified: bool | None = None
    dr: int | None = None
    true_dr: int | None = None
    trust_score: int | None = None
    confidence: str | None = None
    traffic: int | None = None
    traffic_validated: bool | None = None
    referring_domains: int | None = None
    backlinks: int | None = None
    dr_weekly_change: float | None = None
    true_dr_weekly_change: float | None = None
    gsc_connected: bool | None = None
    site_check_verdict: str | None = None
    created_at: Timestamp = None
    last_verified_at: Timestamp = None


class SiteList(ApiModel):
    sites: list[SiteRecord] = Field(default_factory=list)
    site_limit: int | None = None


class TrendPoint(ApiModel):
    date: dt.date
    dr: int | None = None
    true_dr: int | None = None
    traffic: int | None = None


class SiteDetail(SiteRecord):
    """``{"site": ...}``: one site with its DR, TrueDR and traffic trends."""

    trends: list[TrendPoint] = Field(default_factory=list)


class SubmittedSite(ApiModel):
    """The answer to POST /sites: the new record and, when asked for, its site-check report."""

    site: SiteRecord
    site_check: SiteCheck | None = None


class TrueDrSignal(ApiModel):
    """One signal of the private TrueDR breakdown; ``impact`` is in rating points (+ lifts TrueDR)."""

    signal: str
    label: str | None = None
    score: float | None = None
    weight: float | None = None
    impact: float | None = None
    note: str | None = None


class TrueDrReport(ApiModel):
    """GET /sites/:slug/truedr?detailed=true (owner only)."""

    domain: str | None = None
    slug: str | None = None
    dr: int | None = None
    true_dr: int | None = None
    trust_score: int | None = None
    confidence: str | None = None
    breakdown: list[TrueDrSignal] = Field(default_factory=list)
    computed_at: Timestamp = None


# --- GET /export/:domain, GET /monitor, POST /verify -----------------------------------------


class SiteExport(ApiModel):
    """``{"export": ...}``: what a site's owner can take away."""

    site: SiteRecord | None = None
    authority: Authority | None = None
    snippets: Snippets | None = None


class MonitorBacklinks(ApiModel):
    new_referring_domains: int | None = None
    lost_referring_domains: int | None = None
    new_backlinks: int | None = None
    lost_backlinks: int | None = None


class TrafficValidation(ApiModel):
    validated: bool | None = None
    traffic: int | None = None
    traffic_change: float | None = None


class MonitorAlert(ApiModel):
    message: str
    level: str | None = None
    type: str | None = None


class MonitoredSite(ApiModel):
    domain: str
    slug: str | None = None
    authority: Authority | None = None
    changes: Changes | None = None
    backlinks: MonitorBacklinks | None = None
    traffic_validation: Annotated[TrafficValidation | None, _bool_to_object("validated")] = None
    alerts: list[Annotated[MonitorAlert, _text_to_object("message")]] = Field(default_factory=list)
    summary: str | None = None


class Monitor(ApiModel):
    """``{"monitor": ...}``: what changed on the caller's sites since the last period."""

    cadence: str | None = None
    generated_at: Timestamp = None
    sites: list[MonitoredSite] = Field(default_factory=list)


class Verification(ApiModel):
    """The answer to POST /verify: whether the badge embed was found at the URL."""

    url: str | None = None
    domain: str | None = None
    verified: bool | None = None
    badge_found: bool | None = None
    link_found: bool | None = None
    checked_at: Timestamp = None
    message: str | None = None
