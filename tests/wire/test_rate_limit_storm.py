"""A 429 storm: 50 concurrent reads against a low per-key rate limit on the sandbox.

Every read ends as a result or a clear rate-limit error (none lost), and no request is sent again
earlier than the Retry-After of the 429 before it.
"""

from __future__ import annotations

import itertools
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import httpx

from client import ApiClient, errors
from client.models import Lookup
from sandbox import DEMO_KEY, SandboxConfig, SandboxServer
from sandbox.data import KNOWN_SITES, is_listed

CONCURRENT = 50
RATE = 10  # requests per second per key


class _Recorder(httpx.HTTPTransport):
    """Notes when each thread sent a request and what Retry-After the answer carried."""

    def __init__(self) -> None:
        super().__init__()
        self.lock = threading.Lock()
        self.sends: dict[int, list[tuple[float, float | None]]] = {}

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        sent = time.monotonic()
        response = super().handle_request(request)
        retry_after = response.headers.get("retry-after") if response.status_code == 429 else None
        with self.lock:
            self.sends.setdefault(threading.get_ident(), []).append(
                (sent, float(retry_after) if retry_after else None)
            )
        return response


def test_a_429_storm_loses_nothing_and_honours_retry_after() -> None:
    domains = [d for d in sorted(KNOWN_SITES) if is_listed(d)][:CONCURRENT]
    domains += [domains[i % len(domains)] for i in range(CONCURRENT - len(domains))]
    recorder = _Recorder()
    with (
        SandboxServer(SandboxConfig(rate_limit=RATE)) as server,
        ApiClient(server.base_url, DEMO_KEY, transport=recorder, max_retries=3) as client,
    ):

        def one(domain: str) -> Lookup | errors.ApiError:
            try:
                return client.lookup(domain)
            except errors.RateLimitedError as exc:
                return exc

        with ThreadPoolExecutor(max_workers=CONCURRENT) as pool:
            outcomes = list(pool.map(one, domains))
        served_429 = sum(1 for entries in recorder.sends.values() for _, ra in entries if ra is not None)

    assert len(outcomes) == CONCURRENT  # none lost
    succeeded = [o for o in outcomes if isinstance(o, Lookup)]
    limited = [o for o in outcomes if isinstance(o, errors.RateLimitedError)]
    assert len(succeeded) + len(limited) == CONCURRENT  # nothing ended any other way
    assert succeeded, "the limit lets some through every second"
    assert served_429 > 0, "the storm did meet the rate limit"
    for err in limited:
        assert err.retry_after is not None and err.message  # a clear "try again in N s"
    for domain, outcome in zip(domains, outcomes, strict=True):
        if isinstance(outcome, Lookup):
            assert outcome.domain == domain
    for entries in recorder.sends.values():
        for (sent, retry_after), (next_sent, _) in itertools.pairwise(entries):
            if retry_after is not None:
                assert next_sent - sent >= retry_after - 0.05, "re-sent before Retry-After"
