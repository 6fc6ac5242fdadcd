"""Runs the bulk DR checker: every domain's DR through the cached data layer, paced by ``client.bulk``.

Worker threads call ``data.dr_with_client``, so a domain rated in the last 15 minutes is answered by
the cache (no request, no quota unit) and a fresh answer lands in the same cache entry every other
page reads. The workers need no Streamlit script context (the cache is process-wide and draws no
spinner); only the page's own thread touches Streamlit, while it consumes the results.

The misses are asked with a client of their own that never retries: the runner's pacer must see
each 429 to hold back all workers until the Retry-After has passed. It is kept per service and key
(like the data layer's client), so a run interrupted by a rerun lets its in-flight answers finish
and land in the cache instead of being cut off.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence

import streamlit as st

from client import ApiClient
from client.bulk import BulkRunner, ItemResult, Pacer
from client.models import DomainRating
from components.core.cache import data
from components.core.cache.connection import Connection
from components.research.frames.bulk import QuotaPlan, quota_plan

#: Clients kept for bulk runs; a shared dashboard rarely has more keys running bulk checks at once.
MAX_BULK_CLIENTS = 16


@st.cache_resource(max_entries=MAX_BULK_CLIENTS, show_spinner=False)
def _bulk_client(base_url: str, fingerprint: str, timeout_s: float, _api_key: str | None) -> ApiClient:
    # The key is an underscore argument: not hashed into the cache key; the fingerprint is.
    return ApiClient(base_url, _api_key, timeout=timeout_s, max_retries=0)


def plan(conn: Connection, domains: Sequence[str]) -> QuotaPlan:
    """Which (normalised) domains a run will ask for, spending a unit each, and which are cached."""
    return quota_plan(domains, lambda d: data.is_cached(conn, "dr", d))


def check_domains(
    conn: Connection, domains: Sequence[str]
) -> Generator[ItemResult[DomainRating], None, None]:
    """Each domain's result as it completes; close the iterator to stop the run early."""
    key = conn.api_key.get_secret_value() if conn.api_key else None
    client = _bulk_client(conn.base_url, conn.fingerprint, conn.timeout_s, key)
    runner: BulkRunner[DomainRating] = BulkRunner(
        lambda d: data.dr_with_client(conn, d, client), pacer=Pacer.for_limit(client.limit_name)
    )
    for result in runner.run(domains):
        if result.error is not None and (result.error.transient or result.error.status is None):
            # Nothing was cached for it (only answers the service gave are), so the next plan must
            # count it as a unit again.
            data.forget(conn, "dr", result.item)
        yield result
