"""The cached data layer: the only place pages get API data from.

Every read goes through one ``st.cache_data`` function keyed by the service root, a fingerprint of
the key (never the key), the operation and its normalised arguments. So reruns, widget changes and
page switches spend no call, and on a shared dashboard one user's owner-scoped data is never served
to another key. Definitive errors (404, 402, ...) are cached like results, so a rerun does not spend
quota again to hear the same answer; transient ones (429, 503, network) are not. With
``DASHBOARD_REDIS_URL`` set, a miss asks the shared Redis level (``shared_cache``) before the client, so
several app processes spend one call per distinct request.

Built figures are cached here too (``figure``): not API data, but what the pages make of it, keyed
by the builder and the content it was given.
"""

from __future__ import annotations

import contextlib
import pickle
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar, cast

import pandas as pd
import streamlit as st

from analysis.figures.common import inert_figure
from client import ApiClient, ApiError, AuthError
from client.growth_inputs import DiscoveryFilters, check_gsc_range, normalise_slug
from client.growth_models import (
    Discovery,
    ExchangeCandidates,
    Monitor,
    SiteDetail,
    SiteExport,
    SiteList,
    TrueDrReport,
)
from client.inputs import normalise_domain, normalise_keyword
from client.models import (
    Categories,
    DomainRating,
    KeywordReport,
    KeywordSuggestions,
    Lookup,
    QuotaInfo,
    SiteCheck,
    Snippets,
    TrackedKeywords,
    TrustMap,
)
from client.visibility_models import AiVisibility, GscAuditResult, GscPerformance
from components.core.cache import cache_records, shared_cache
from components.core.cache.cache_books import CacheLedger, QuotaBoard
from components.core.cache.cache_only import CacheOnlyClient, NotHeld
from components.core.cache.connection import Connection
from components.core.history import reads as history_reads

#: Authority data changes weekly; 15 minutes keeps a session snappy without going stale.
CACHE_TTL_S = 15 * 60
#: Bounds memory on a shared server; an entry is one parsed API answer (a few kB).
CACHE_MAX_ENTRIES = 1000
#: Clients hold a connection pool each; a shared dashboard rarely has more keys than this at once.
MAX_CLIENTS = 32
MAX_QUOTA_ENTRIES = 256
#: A built figure is a few kB of plotly objects; room for every chart of a busy shared dashboard.
FIGURE_MAX_ENTRIES = 500

F = TypeVar("F")


@dataclass(frozen=True)
class Outcome:
    """A cached answer: the parsed value, or a definitive error, and the quota seen with it."""

    value: Any = None
    error: ApiError | None = None
    quota: QuotaInfo | None = None


@st.cache_resource(max_entries=MAX_CLIENTS, show_spinner=False)
def _client(base_url: str, fingerprint: str, timeout_s: float, _api_key: str | None) -> ApiClient:
    # The key is an underscore argument: not hashed into the cache key; the fingerprint is.
    return ApiClient(base_url, _api_key, timeout=timeout_s)


def client_for(conn: Connection) -> ApiClient:
    key = conn.api_key.get_secret_value() if conn.api_key else None
    return _client(conn.base_url, conn.fingerprint, conn.timeout_s, key)


@st.cache_resource(show_spinner=False)
def _quota_board() -> QuotaBoard:
    return QuotaBoard(MAX_QUOTA_ENTRIES)


@st.cache_resource(show_spinner=False)
def _ledger() -> CacheLedger:
    return CacheLedger(CACHE_TTL_S, CACHE_MAX_ENTRIES)


@st.cache_data(ttl=CACHE_TTL_S, max_entries=CACHE_MAX_ENTRIES, show_spinner=False)
def _cached_call(base_url: str, fingerprint: str, operation: str, args: tuple[Any, ...], _client: ApiClient):
    key = (base_url, fingerprint, operation, args)
    _ledger().record(key)
    shared = shared_cache.current(_forget_here)
    fill = shared.claim(*key) if shared is not None else cache_records.Fill()
    if fill.found is not None:  # another process asked already: no call spent
        if _quota_board().get(base_url, fingerprint) is None:
            _quota_board().record(base_url, fingerprint, fill.found.quota)
        return Outcome(value=fill.found.value, error=fill.found.error, quota=fill.found.quota)
    try:
        outcome = _ask(_client, key)
    except BaseException:
        if shared is not None and fill.token:
            shared.release(*key, fill.token)
        raise
    if shared is not None and not shared.put(*key, _shared_record(outcome), token=fill.token):
        outcome = _ask(_client, key)  # a write came while the service was asked: this answer may predate it
        shared.put(*key, _shared_record(outcome))
    return outcome


def _ask(client: ApiClient, key: tuple[str, str, str, tuple[Any, ...]]) -> Outcome:
    """The service's answer or definitive error; a transient error is raised and not cached."""
    base_url, fingerprint, operation, args = key
    try:
        value = getattr(client, operation)(*args)
    except ApiError as err:
        _quota_board().record(base_url, fingerprint, client.last_quota)
        if err.transient:
            _ledger().forget(key)  # not cached: the next read asks again
            raise
        return Outcome(error=err, quota=client.last_quota)
    _quota_board().record(base_url, fingerprint, client.last_quota)
    return Outcome(value=value, quota=client.last_quota)


def _shared_record(outcome: Outcome) -> cache_records.Record:
    return cache_records.Record(outcome.value, outcome.error, outcome.quota)


def call(conn: Connection, operation: str, *args: Any) -> Any:
    """Run a read operation through the cache; raises the client's typed errors."""
    if not conn.has_key:
        raise AuthError("No API key is set.", operation=operation)
    fresh = operation in history_reads.RECORDED and not is_cached(conn, operation, *args)
    outcome: Outcome = _cached_call(conn.base_url, conn.fingerprint, operation, args, client_for(conn))
    if outcome.error is not None:
        raise outcome.error
    if fresh:  # a read the service just answered: history keeps it when its subject is watched
        history_reads.record_read(conn, operation, args, outcome.value)
    return outcome.value


def is_cached(conn: Connection, operation: str, *args: Any) -> bool:
    """Whether a read with these (already normalised) arguments would be answered from a cache."""
    key = (conn.base_url, conn.fingerprint, operation, args)
    if _ledger().holds(key):
        return True
    shared = shared_cache.current()  # another process may have asked it already
    return shared is not None and shared.holds(*key)


def cached_answer(conn: Connection, operation: str, *args: Any) -> Any | None:
    """A read asked before, from a cache (here or shared), never from the service: None when none holds
    it; a kept definitive error is raised. One step, so an entry expiring meanwhile is not asked."""
    if not conn.has_key:
        return None
    try:
        refusing = cast(ApiClient, CacheOnlyClient())
        outcome: Outcome = _cached_call(conn.base_url, conn.fingerprint, operation, args, refusing)
    except NotHeld:
        return None
    if outcome.error is not None:
        raise outcome.error
    return outcome.value


def forget(conn: Connection, operation: str, *args: Any) -> None:
    """Drop one cached answer (after a write changed it), for this key only, in every process."""
    _forget_here((conn.base_url, conn.fingerprint, operation, args))
    shared = shared_cache.current()
    if shared is not None:
        shared.delete(conn.base_url, conn.fingerprint, operation, args)


def _forget_here(key: tuple[str, str, str, tuple[Any, ...]] | None) -> None:
    """Drop one answer from this process's cache (all of them for None): what another process changed."""
    if key is None:
        _cached_call.clear()
        _ledger.clear()
        return
    _cached_call.clear(*key, None)
    _ledger().forget(key)


def _frame_digest(frame: pd.DataFrame) -> bytes:
    """A frame's content as bytes for a cache key, about 9× faster than Streamlit's own frame hashing
    (which took longer than building some charts). Column types are part of it: a builder may draw
    an integer and a float column differently."""
    try:
        values = frame.to_json(orient="split", date_format="iso", double_precision=15)
    except (TypeError, ValueError, OverflowError):  # a cell JSON cannot write: fall back on pickle
        return pickle.dumps(frame)
    return f"{values}|{frame.dtypes.to_dict()!r}".encode()


@st.cache_resource(
    ttl=CACHE_TTL_S,
    max_entries=FIGURE_MAX_ENTRIES,
    show_spinner=False,
    hash_funcs={pd.DataFrame: _frame_digest},
)
def _built_figure(
    builder_name: str,
    args: tuple[Any, ...],
    kwargs: tuple[tuple[str, Any], ...],
    _builder: Callable[..., Any],
) -> Any:
    return inert_figure(_builder(*args, **dict(kwargs)))


def figure(builder: Callable[..., F], *args: Any, **kwargs: Any) -> F:
    """``builder(*args, **kwargs)``, built once per distinct input and shared by every rerun and session.

    Building a plotly figure validates every property it is given (10–30 ms a chart, most of a cached
    page's rerun). The key is the builder and the content of its input, so an entry only ever goes to
    a session that passed that very content in: nothing crosses from one key's data to another. The
    figure is shared, not copied: ``st.plotly_chart`` only reads it, and callers must not change it.
    """
    name = f"{builder.__module__}.{builder.__qualname__}"
    return _built_figure(name, args, tuple(sorted(kwargs.items())), builder)


def clear_caches() -> None:
    """Empty the cached answers, their ledger and the built figures together (tests start from nothing
    this way). Clearing the answers alone would leave the ledger saying "cached" (nothing to spend)
    for answers that are gone."""
    _cached_call.clear()
    _ledger.clear()
    _built_figure.clear()


def record_quota(conn: Connection, quota_info: QuotaInfo | None) -> None:
    """Tell the sidebar what a write's answer said about the quota."""
    _quota_board().record(conn.base_url, conn.fingerprint, quota_info)


def quota(conn: Connection) -> QuotaInfo | None:
    """The latest quota this key was told about, asking a free endpoint once if nothing is known."""
    board = _quota_board()
    seen = board.get(conn.base_url, conn.fingerprint)
    if seen is None and conn.has_key:
        with contextlib.suppress(ApiError):
            call(conn, "categories")
        seen = board.get(conn.base_url, conn.fingerprint)
    return seen


# --- the one door for what users type ------------------------------------------------------------
# Views pass what was typed to the reads below, which normalise it here, once, so two spellings of
# one site share one cache entry and one quota unit; refused input raises InvalidInputError. A view
# that needs the normalised value itself (to show it, to check the cache, for a write) asks these.


def domain(text: str) -> str:
    """The registrable domain for a typed domain, subdomain or URL."""
    return normalise_domain(text)


def domain_or_none(text: str | None) -> str | None:
    """``domain(text)`` for an optional field: None when nothing was typed."""
    return normalise_domain(text) if text and text.strip() else None


def keyword(text: str) -> str:
    """A typed search keyword with its whitespace folded."""
    return normalise_keyword(text)


def slug(text: str) -> str:
    """The service's identifier of a site (``example-com``) from its slug or domain."""
    return normalise_slug(text)


# --- typed reads ----------------------------------------------------------------------------------


def dr(conn: Connection, domain: str) -> DomainRating:
    return call(conn, "dr", normalise_domain(domain))


def dr_with_client(conn: Connection, domain: str, client: ApiClient) -> DomainRating:
    """``dr`` through the same cache entry, asked on a miss with ``client`` instead of the shared one.

    The bulk checker passes a client that does not sleep through 429s itself, so its shared pacer
    sees every Retry-After and holds back all its workers at once. Thread-safe: the cache takes a
    lock per entry and none of its functions draws a spinner, so workers need no script context.
    """
    if not conn.has_key:
        raise AuthError("No API key is set.", operation="dr")
    args = (normalise_domain(domain),)
    outcome: Outcome = _cached_call(conn.base_url, conn.fingerprint, "dr", args, client)
    if outcome.error is not None:
        raise outcome.error
    return outcome.value


def keyword_report_with_client(
    conn: Connection, keyword: str, domain: str | None, client: ApiClient
) -> KeywordReport:
    """``keyword_report`` through the same cache entry, asked on a miss with ``client`` (one that does
    not sleep through 429s, so a run's shared pacer sees them): the Opportunities page's reads of the
    missing top 10s. Thread-safe, like ``dr_with_client``."""
    if not conn.has_key:
        raise AuthError("No API key is set.", operation="keyword_report")
    args = (normalise_keyword(keyword), normalise_domain(domain) if domain else None)
    outcome: Outcome = _cached_call(conn.base_url, conn.fingerprint, "keyword_report", args, client)
    if outcome.error is not None:
        raise outcome.error
    return outcome.value


def site_check(conn: Connection, domain: str) -> SiteCheck:
    return call(conn, "site_check", normalise_domain(domain))


def lookup(conn: Connection, domain: str) -> Lookup:
    return call(conn, "lookup", normalise_domain(domain))


def trust_map(conn: Connection, domain: str) -> TrustMap:
    return call(conn, "trust_map", normalise_domain(domain))


def snippets(conn: Connection, domain: str) -> Snippets:
    return call(conn, "snippets", normalise_domain(domain))


def categories(conn: Connection) -> Categories:
    return call(conn, "categories")


def keyword_report(conn: Connection, keyword: str, domain: str | None = None) -> KeywordReport:
    d = normalise_domain(domain) if domain else None
    return call(conn, "keyword_report", normalise_keyword(keyword), d)


def keyword_suggestions(conn: Connection, domain: str) -> KeywordSuggestions:
    return call(conn, "keyword_suggestions", normalise_domain(domain))


def tracked_keywords(conn: Connection, slug: str) -> TrackedKeywords:
    return call(conn, "tracked_keywords", slug)


# --- discovery, exchanges and my sites: sites are keyed by slug, so a domain and its slug share one entry


def discover(conn: Connection, filters: DiscoveryFilters | None = None) -> Discovery:
    return call(conn, "find", filters or DiscoveryFilters())


def exchange_candidates(
    conn: Connection, domain: str, filters: DiscoveryFilters | None = None
) -> ExchangeCandidates:
    """Link-exchange candidates for a domain (GET /find?exchangesFor=), best fit first."""
    return call(conn, "exchange_candidates", normalise_domain(domain), filters or DiscoveryFilters())


def sites(conn: Connection) -> SiteList:
    return call(conn, "sites")


def site(conn: Connection, site: str) -> SiteDetail:
    return call(conn, "site", normalise_slug(site))


def site_truedr(conn: Connection, site: str) -> TrueDrReport:
    return call(conn, "site_truedr", normalise_slug(site))


def ai_visibility(conn: Connection, site: str) -> AiVisibility:
    return call(conn, "ai_visibility", normalise_slug(site))


def export(conn: Connection, domain: str) -> SiteExport:
    return call(conn, "export", normalise_domain(domain))


def monitor(conn: Connection, domain: str | None = None, daily: bool = False) -> Monitor:
    return call(conn, "monitor", normalise_domain(domain) if domain else None, bool(daily))


def gsc_performance(conn: Connection, site: str, range_: str) -> GscPerformance:
    return call(conn, "gsc_performance", normalise_slug(site), check_gsc_range(range_))


def gsc_audit(conn: Connection, site: str) -> GscAuditResult:
    return call(conn, "gsc_audit", normalise_slug(site))
