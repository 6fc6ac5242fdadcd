"""The typed v1 client: one method per operation, named after the ``vdr`` CLI command.

It knows nothing of Streamlit, so scripts, benchmarks and tests use it directly. Reads (GET) are
retried on 429 (honouring Retry-After), 503 and connection failures; writes (POST, DELETE) are never
retried automatically, because a write that reached the server but lost its answer must not be made
twice.
"""

from __future__ import annotations

import email.utils
import random
import threading
import time
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import Any, Self, TypeVar
from urllib.parse import quote

import httpx
from pydantic import BaseModel, ValidationError

from client import errors
from client.growth_inputs import (
    DEFAULT_GSC_RANGE,
    DiscoveryFilters,
    NewSite,
    check_gsc_range,
    check_message,
    check_prompt_id,
    check_subject,
    normalise_location,
    normalise_prompt,
    normalise_slug,
    normalise_url,
)
from client.growth_models import (
    AiPrompts,
    AiVisibility,
    Discovery,
    ExchangeCandidates,
    ExchangeContact,
    GscAuditResult,
    GscPerformance,
    Monitor,
    SiteDetail,
    SiteExport,
    SiteList,
    SubmittedSite,
    TrueDrReport,
    Verification,
)
from client.inputs import normalise_domain, normalise_keyword
from client.models import (
    Categories,
    DomainRating,
    ErrorBody,
    KeywordReport,
    KeywordSuggestions,
    Lookup,
    QuotaInfo,
    SiteCheck,
    Snippets,
    TargetRemoval,
    TargetWrite,
    TrackedKeywords,
    TrustMap,
)
from client.outreach import ExchangeDraft, key_tag, require_draft

API_PREFIX = "/api/v1"
#: The vendor CLI's default; slow owner operations get their own, longer timeouts.
DEFAULT_TIMEOUT_S = 20.0
#: An AI-visibility run or a Search Console audit run takes minutes on the real service.
SLOW_TIMEOUT_S = 300.0
DEFAULT_MAX_RETRIES = 2
CONNECT_TIMEOUT_S = 5.0
#: A Retry-After longer than this is not slept through: the caller is told when to come back.
MAX_RETRY_AFTER_S = 30.0
#: First backoff step for 503 and connection failures; doubled per attempt, with full jitter.
BACKOFF_BASE_S = 0.25
BACKOFF_CAP_S = 4.0
USER_AGENT = "authority-dashboard/0.1 (+verifieddr v1 client)"

M = TypeVar("M", bound=BaseModel)


def _parse_retry_after(value: str | None, *, now: float | None = None) -> float | None:
    """Seconds to wait from a Retry-After header given as seconds or as an HTTP date."""
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    current = now if now is not None else time.time()
    return max(0.0, when.timestamp() - current)


def _int_header(headers: httpx.Headers, name: str) -> int | None:
    try:
        return int(headers[name])
    except (KeyError, ValueError):
        return None


def quota_from_headers(headers: httpx.Headers) -> QuotaInfo | None:
    """The quota the service reported, or None when the answer carried no quota headers."""
    if not any(h in headers for h in ("x-api-quota-limit", "x-api-quota-remaining", "x-api-tier")):
        return None
    return QuotaInfo(
        limit=_int_header(headers, "x-api-quota-limit"),
        remaining=_int_header(headers, "x-api-quota-remaining"),
        tier=headers.get("x-api-tier"),
        seen_at=datetime.now(UTC),
    )


def _path_segment(value: str) -> str:
    return quote(value, safe="")


class ApiClient:
    """A client for one service root and one API key, over one pooled ``httpx.Client``.

    ``base_url`` is the service root as in ``VERIFIEDDR_API_BASE`` (no ``/api/v1``). The key is kept
    private and never appears in ``repr``, errors or logs.
    """

    def __init__(
        self,
        base_url: str,
        api_key: str | None,
        *,
        timeout: float = DEFAULT_TIMEOUT_S,
        max_retries: int = DEFAULT_MAX_RETRIES,
        transport: httpx.BaseTransport | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self._api_key = api_key or ""
        self.max_retries = max(0, max_retries)
        self._sleep = sleep
        self._quota_lock = threading.Lock()
        self._quota: QuotaInfo | None = None
        #: The latest /categories answer, so a submission can be checked against maxPerSite before sending.
        self._categories: Categories | None = None
        self._http = httpx.Client(
            base_url=self.base_url + API_PREFIX,
            # Every request has both: a dead host fails fast, a hung one within the read timeout.
            timeout=httpx.Timeout(timeout, connect=min(CONNECT_TIMEOUT_S, timeout)),
            transport=transport,
            headers={"Accept": "application/json", "User-Agent": USER_AGENT},
            follow_redirects=False,
        )

    def __repr__(self) -> str:
        return f"ApiClient(base_url={self.base_url!r}, api_key={'set' if self._api_key else 'missing'})"

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def last_quota(self) -> QuotaInfo | None:
        """The quota headers of the most recent answer (None before the first one)."""
        with self._quota_lock:
            return self._quota

    # --- transport ------------------------------------------------------------------------

    def _auth_headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self._api_key}"} if self._api_key else {}

    def _backoff(self, attempt: int) -> float:
        return random.uniform(0, min(BACKOFF_CAP_S, BACKOFF_BASE_S * 2**attempt))

    def _send(
        self,
        operation: str,
        method: str,
        path: str,
        *,
        params: Mapping[str, str] | None = None,
        json: Any = None,
        timeout: float | None = None,
    ) -> tuple[httpx.Response, Any]:
        attempt = 0
        request_timeout = httpx.USE_CLIENT_DEFAULT if timeout is None else timeout
        while True:
            cause: BaseException | None = None
            try:
                response = self._http.request(
                    method,
                    path,
                    params=params,
                    json=json,
                    headers=self._auth_headers(),
                    timeout=request_timeout,
                )
            except httpx.TimeoutException as exc:
                error: errors.ApiError = errors.ApiTimeoutError(
                    "The service did not answer in time.", operation=operation
                )
                cause = exc
            except httpx.TransportError as exc:
                error = errors.TransportError(
                    "The service could not be reached (the connection failed or was dropped).",
                    operation=operation,
                )
                cause = exc
            else:
                self._record_quota(response)
                if response.is_success:
                    return response, self._json(response, operation)
                error = self._error_for(response, operation)
            wait = self._retry_wait(error, attempt)
            if method != "GET" or wait is None or attempt >= self.max_retries:
                raise error from cause
            attempt += 1
            self._sleep(wait)

    def _record_quota(self, response: httpx.Response) -> None:
        quota = quota_from_headers(response.headers)
        if quota is not None:
            with self._quota_lock:
                self._quota = quota

    def _retry_wait(self, error: errors.ApiError, attempt: int) -> float | None:
        """Seconds to wait before asking again, or None when this error is not worth a retry."""
        if isinstance(error, errors.RateLimitedError):
            wait = error.retry_after if error.retry_after is not None else 1.0
            return wait if wait <= MAX_RETRY_AFTER_S else None
        if isinstance(error, errors.UnavailableError):
            if error.retry_after is not None:
                return error.retry_after if error.retry_after <= MAX_RETRY_AFTER_S else None
            return self._backoff(attempt)
        if isinstance(error, errors.ApiTimeoutError):
            # Already waited the whole timeout: asking again would keep a page waiting minutes.
            return None
        if isinstance(error, errors.TransportError):
            return self._backoff(attempt)
        return None

    @staticmethod
    def _json(response: httpx.Response, operation: str) -> Any:
        try:
            return response.json()
        except ValueError as exc:
            raise errors.InvalidResponseError(
                "The service answered with something that is not JSON.",
                status=response.status_code,
                operation=operation,
            ) from exc

    @staticmethod
    def _error_for(response: httpx.Response, operation: str) -> errors.ApiError:
        status = response.status_code
        body: ErrorBody | None = None
        try:
            data = response.json()
            if isinstance(data, dict) and isinstance(data.get("error"), str):
                body = ErrorBody.model_validate(data)
        except (ValueError, ValidationError):
            body = None
        message = body.error if body else f"The service answered HTTP {status}."
        cls = errors.ERROR_BY_STATUS.get(status, errors.ServerError)
        if cls is errors.PaymentRequiredError:
            return errors.PaymentRequiredError(
                message,
                operation=operation,
                upgrade_url=body.upgrade_url if body else None,
                required_plan=body.required_plan if body else None,
                blocked_feature=body.blocked_feature if body else None,
            )
        if cls in (errors.RateLimitedError, errors.UnavailableError):
            retry_after = _parse_retry_after(response.headers.get("retry-after"))
            return cls(message, operation=operation, retry_after=retry_after)
        return cls(message, status=status, operation=operation)

    def _get(self, operation: str, path: str, **kwargs: Any) -> Any:
        return self._send(operation, "GET", path, **kwargs)[1]

    @staticmethod
    def _parse(model: type[M], data: Any, operation: str, key: str | None = None) -> M:
        """Validate ``data[key]`` (or the whole body when the key is absent) as ``model``."""
        payload = data
        if key is not None and isinstance(data, dict) and isinstance(data.get(key), dict):
            payload = data[key]
        elif isinstance(data, dict):
            # A top-level resource: drop the envelope's ``ok`` so it is not kept as a field.
            payload = {k: v for k, v in data.items() if k != "ok"}
        try:
            return model.model_validate(payload)
        except ValidationError as exc:
            fields = ", ".join(".".join(str(p) for p in e["loc"]) for e in exc.errors()[:3])
            raise errors.InvalidResponseError(
                f"The service's answer did not have the documented shape ({fields}).",
                operation=operation,
            ) from exc

    # --- score data -----------------------------------------------------------------------

    def dr(self, domain: str) -> DomainRating:
        """``authority:dr`` — Domain Rating for any domain. Spends one quota unit per call."""
        d = normalise_domain(domain)
        return self._parse(DomainRating, self._get("dr", f"/dr/{_path_segment(d)}"), "dr", "dr")

    def site_check(self, domain: str) -> SiteCheck:
        """The saved fraud verdict of a listed site. Spends one quota unit per call."""
        d = normalise_domain(domain)
        data = self._get("site_check", f"/site-check/{_path_segment(d)}")
        return self._parse(SiteCheck, data, "site_check", "siteCheck")

    def lookup(self, domain: str) -> Lookup:
        """``authority:lookup`` — TrueDR, trust, confidence, changes and evidence of a listed site."""
        d = normalise_domain(domain)
        return self._parse(Lookup, self._get("lookup", f"/lookup/{_path_segment(d)}"), "lookup", "lookup")

    def trust_map(self, domain: str) -> TrustMap:
        """``authority:map`` — up to 60 cached referring domains (503 while the cache is cold)."""
        d = normalise_domain(domain)
        return self._parse(TrustMap, self._get("trust_map", f"/map/{_path_segment(d)}"), "trust_map", "map")

    def snippets(self, domain: str) -> Snippets:
        """``badge:snippets`` — public page, badge and ready-to-paste embed snippets."""
        d = normalise_domain(domain)
        data = self._get("snippets", f"/snippets/{_path_segment(d)}")
        return self._parse(Snippets, data, "snippets", "snippets")

    def categories(self) -> Categories:
        """``categories:list`` — values accepted by site submission and discovery filters."""
        categories = self._parse(Categories, self._get("categories", "/categories"), "categories")
        self._categories = categories
        return categories

    # --- keywords -------------------------------------------------------------------------

    def keyword_report(self, keyword: str, domain: str | None = None) -> KeywordReport:
        """``keywords:research`` — live US top 10 with each DR; with a domain, its gap and tier."""
        params = {"keyword": normalise_keyword(keyword)}
        if domain:
            params["domain"] = normalise_domain(domain)
        data = self._get("keyword_report", "/keywords", params=params)
        return self._parse(KeywordReport, data, "keyword_report", "report")

    def keyword_suggestions(self, domain: str) -> KeywordSuggestions:
        """``keywords:suggest`` — non-brand keywords the domain ranks 4 to 30 for."""
        d = normalise_domain(domain)
        data = self._get("keyword_suggestions", f"/keywords/suggestions/{_path_segment(d)}")
        return self._parse(KeywordSuggestions, data, "keyword_suggestions")

    def tracked_keywords(self, slug: str) -> TrackedKeywords:
        """``keywords:tracked`` — stored snapshots of an owned site; never triggers a SERP fetch."""
        path = f"/sites/{_path_segment(self._slug(slug))}/keywords"
        return self._parse(TrackedKeywords, self._get("tracked_keywords", path), "tracked_keywords")

    def add_tracked_keyword(self, slug: str, keyword: str) -> TargetWrite:
        """Track a keyword for an owned site. Sent once; never retried automatically."""
        path = f"/sites/{_path_segment(self._slug(slug))}/keywords"
        body = {"keyword": normalise_keyword(keyword)}
        data = self._send("add_tracked_keyword", "POST", path, json=body)[1]
        return self._parse(TargetWrite, data, "add_tracked_keyword")

    def refresh_tracked_keyword(self, slug: str, target_id: str) -> TargetWrite:
        """Re-snapshot one tracked keyword. Sent once; never retried automatically."""
        path = f"/sites/{_path_segment(self._slug(slug))}/keywords"
        body = {"action": "refresh", "id": self._target_id(target_id)}
        data = self._send("refresh_tracked_keyword", "POST", path, json=body)[1]
        return self._parse(TargetWrite, data, "refresh_tracked_keyword")

    def remove_tracked_keyword(self, slug: str, target_id: str) -> TargetRemoval:
        """Stop tracking one keyword. Sent once; never retried automatically."""
        path = f"/sites/{_path_segment(self._slug(slug))}/keywords"
        params = {"id": self._target_id(target_id)}
        data = self._send("remove_tracked_keyword", "DELETE", path, params=params)[1]
        return self._parse(TargetRemoval, data, "remove_tracked_keyword")

    # --- discovery and exchanges ----------------------------------------------------------

    def find(self, filters: DiscoveryFilters | None = None, /, **criteria: Any) -> Discovery:
        """``discover:find`` — listed sites ranked by TrueDR then DR.

        Pass a ``DiscoveryFilters`` or its fields as keywords (``min_true_dr=30, limit=20``).
        """
        chosen = _filters(filters, criteria)
        data = self._get("find", "/find", params=chosen.to_params())
        return self._parse(Discovery, data, "find", "find")

    def exchange_candidates(
        self, domain: str, filters: DiscoveryFilters | None = None, /, **criteria: Any
    ) -> ExchangeCandidates:
        """``exchanges`` — link-exchange candidates for a domain, each with why it fits."""
        params = {**_filters(filters, criteria).to_params(), "exchangesFor": normalise_domain(domain)}
        data = self._get("exchange_candidates", "/find", params=params)
        return self._parse(ExchangeCandidates, data, "exchange_candidates", "opportunities")

    def preview_exchange(self, domain: str, target: str, subject: str, message: str) -> ExchangeDraft:
        """Dry-run a proposal from your ``domain`` to a candidate: nothing is sent.

        Returns the draft that ``approve_exchange`` needs; it holds the text exactly as previewed.
        """
        body = {
            "exchangesFor": normalise_domain(domain),
            "target": self._target(target),
            "subject": check_subject(subject),
            "message": check_message(message),
            "dryRun": True,
        }
        data = self._send("preview_exchange", "POST", "/find", json=body)[1]
        contact = self._parse(ExchangeContact, data, "preview_exchange", "contact")
        if contact.sent:
            raise errors.InvalidResponseError(
                "The service reported the preview as sent.", operation="preview_exchange"
            )
        return ExchangeDraft.issue(
            service=self.base_url,
            key=key_tag(self._api_key),
            exchanges_for=body["exchangesFor"],
            target=body["target"],
            subject=contact.subject or body["subject"],
            message=contact.message or body["message"],
            preview=contact,
        )

    def approve_exchange(self, draft: ExchangeDraft) -> ExchangeContact:
        """``exchanges --contact --approve`` — send a previewed proposal exactly as it was previewed.

        Refuses anything but an untouched draft from ``preview_exchange`` (with this key). Sent once;
        never retried automatically.
        """
        checked = require_draft(draft, service=self.base_url, key=key_tag(self._api_key))
        return self._send_proposal(checked, checked.subject, checked.message)

    def approve_edited_exchange(self, draft: ExchangeDraft, subject: str, message: str) -> ExchangeContact:
        """Send a previewed proposal with text edited after its preview: an explicit, separate choice."""
        checked = require_draft(draft, service=self.base_url, key=key_tag(self._api_key))
        return self._send_proposal(checked, check_subject(subject), check_message(message))

    def _send_proposal(self, draft: ExchangeDraft, subject: str, message: str) -> ExchangeContact:
        body = {
            "exchangesFor": draft.exchanges_for,
            "target": draft.target,
            "subject": subject,
            "message": message,
        }
        data = self._send("approve_exchange", "POST", "/find", json=body)[1]
        return self._parse(ExchangeContact, data, "approve_exchange", "contact")

    # --- my sites -------------------------------------------------------------------------

    def sites(self) -> SiteList:
        """``sites:list`` — the key's sites with their metrics."""
        return self._parse(SiteList, self._get("sites", "/sites"), "sites")

    def submit_site(self, site: NewSite | str, /, **fields: Any) -> SubmittedSite:
        """``sites:submit`` — submit a site (``site_check=True`` also creates its site-check report).

        Pass a ``NewSite`` or the URL and its fields as keywords. Categories are checked against the
        latest ``categories()`` answer when this client has one. Sent once; never retried.
        """
        new = site if isinstance(site, NewSite) else NewSite(site, **fields)
        self._check_categories(new.categories)
        data = self._send("submit_site", "POST", "/sites", json=new.to_json())[1]
        return self._parse(SubmittedSite, data, "submit_site")

    def site(self, slug: str) -> SiteDetail:
        """``sites:get`` — one of your sites with its DR, TrueDR and traffic trends."""
        data = self._get("site", f"/sites/{_path_segment(normalise_slug(slug))}")
        return self._parse(SiteDetail, data, "site", "site")

    def site_truedr(self, slug: str) -> TrueDrReport:
        """``sites:truedr`` — TrueDR with its per-signal breakdown (only for your own sites)."""
        path = f"/sites/{_path_segment(normalise_slug(slug))}/truedr"
        data = self._get("site_truedr", path, params={"detailed": "true"})
        return self._parse(TrueDrReport, data, "site_truedr", "truedr")

    def ai_visibility(self, slug: str) -> AiVisibility:
        """``sites:visibility`` — the stored AI-visibility snapshot, tracked questions and history."""
        data = self._get("ai_visibility", self._visibility_path(slug))
        return self._parse(AiVisibility, data, "ai_visibility")

    def add_ai_prompt(self, slug: str, prompt: str, location: str | None = None) -> AiPrompts:
        """Track one question (8–140 characters). Sent once; never retried."""
        body: dict[str, str] = {"prompt": normalise_prompt(prompt)}
        if (where := normalise_location(location)) is not None:
            body["location"] = where
        data = self._send("add_ai_prompt", "POST", self._visibility_path(slug), json=body)[1]
        return self._parse(AiPrompts, data, "add_ai_prompt")

    def remove_ai_prompt(self, slug: str, prompt_id: str) -> AiPrompts:
        """Stop tracking one question. Sent once; never retried."""
        params = {"promptId": check_prompt_id(prompt_id)}
        data = self._send("remove_ai_prompt", "DELETE", self._visibility_path(slug), params=params)[1]
        return self._parse(AiPrompts, data, "remove_ai_prompt")

    def reset_ai_prompts(self, slug: str) -> AiPrompts:
        """Replace the tracked questions with ones seeded from the site's keywords. Sent once."""
        body = {"action": "reset"}
        data = self._send("reset_ai_prompts", "POST", self._visibility_path(slug), json=body)[1]
        return self._parse(AiPrompts, data, "reset_ai_prompts")

    def run_ai_visibility(self, slug: str) -> AiPrompts:
        """Ask the tracked questions now (paid plans, once per site per week). Slow; sent once."""
        body = {"action": "run"}
        path = self._visibility_path(slug)
        data = self._send("run_ai_visibility", "POST", path, json=body, timeout=SLOW_TIMEOUT_S)[1]
        return self._parse(AiPrompts, data, "run_ai_visibility")

    def export(self, domain: str) -> SiteExport:
        """``sites:export`` — one of your sites' record, authority and snippets."""
        data = self._get("export", f"/export/{_path_segment(normalise_domain(domain))}")
        return self._parse(SiteExport, data, "export", "export")

    def monitor(self, domain: str | None = None, daily: bool = False) -> Monitor:
        """``sites:monitor`` — changes and alerts for all your sites, or one; weekly or daily."""
        params: dict[str, str] = {}
        if daily:
            params["daily"] = "true"
        if domain:
            params["domain"] = normalise_domain(domain)
        return self._parse(Monitor, self._get("monitor", "/monitor", params=params), "monitor", "monitor")

    def verify(self, url: str) -> Verification:
        """``sites:verify`` — re-check the badge embed at a page of your site. Sent once."""
        data = self._send("verify", "POST", "/verify", json={"url": normalise_url(url)})[1]
        return self._parse(Verification, data, "verify", "verification")

    def gsc_performance(self, slug: str, range: str = DEFAULT_GSC_RANGE) -> GscPerformance:
        """``sites:gsc-performance`` — Search Console totals, daily series and top rows for a range."""
        path = f"/sites/{_path_segment(normalise_slug(slug))}/gsc-performance"
        data = self._get("gsc_performance", path, params={"range": check_gsc_range(range)})
        return self._parse(GscPerformance, data, "gsc_performance")

    def gsc_audit(self, slug: str) -> GscAuditResult:
        """``sites:gsc-audit`` — the latest stored index audit (``audit`` is None before the first)."""
        data = self._get("gsc_audit", self._audit_path(slug))
        return self._parse(GscAuditResult, data, "gsc_audit")

    def run_gsc_audit(self, slug: str) -> GscAuditResult:
        """Run a fresh index audit: spends URL-inspection budget, 12-hour cooldown. Slow; sent once."""
        path = self._audit_path(slug)
        data = self._send("run_gsc_audit", "POST", path, timeout=SLOW_TIMEOUT_S)[1]
        return self._parse(GscAuditResult, data, "run_gsc_audit")

    @staticmethod
    def _visibility_path(slug: str) -> str:
        return f"/sites/{_path_segment(normalise_slug(slug))}/ai-visibility"

    @staticmethod
    def _audit_path(slug: str) -> str:
        return f"/sites/{_path_segment(normalise_slug(slug))}/gsc-audit"

    def _check_categories(self, chosen: tuple[str, ...]) -> None:
        """Refuse what the last /categories answer rules out (unknown value, more than maxPerSite)."""
        known = self._categories
        if known is None or not chosen:
            return
        if known.max_per_site is not None and len(chosen) > known.max_per_site:
            raise errors.InvalidInputError(
                f"Choose at most {known.max_per_site} categories.", field="categories"
            )
        values = {c.value for c in known.categories}
        unknown = [c for c in chosen if values and c not in values]
        if unknown:
            raise errors.InvalidInputError(
                f"Unknown category: {', '.join(unknown)}. Choose from the categories list.",
                field="categories",
            )

    @staticmethod
    def _target(value: str) -> str:
        """An exchange target: a candidate's slug (``acme-com``) or domain."""
        text = (value or "").strip().lower() if isinstance(value, str) else ""
        if "." in text or "/" in text:
            return normalise_domain(value)
        return normalise_slug(text)

    # --- argument checks ------------------------------------------------------------------

    @staticmethod
    def _slug(value: str) -> str:
        """Accept a slug (``example-com``) or a domain (the spec shows :slug filled with a domain)."""
        return normalise_slug(value)

    @staticmethod
    def _target_id(value: str) -> str:
        text = (value or "").strip()
        if not text or len(text) > 128 or not all(ch.isalnum() or ch in "_-" for ch in text):
            raise errors.InvalidInputError("That is not a tracked-keyword id like tgt_123.", field="id")
        return text


def _filters(filters: DiscoveryFilters | None, criteria: dict[str, Any]) -> DiscoveryFilters:
    if filters is not None and criteria:
        raise TypeError("Pass either a DiscoveryFilters or keyword criteria, not both.")
    if filters is None:
        return DiscoveryFilters(**criteria)
    if not isinstance(filters, DiscoveryFilters):
        raise TypeError("filters must be a DiscoveryFilters.")
    return filters
