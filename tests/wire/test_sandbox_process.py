"""The benchmarks' sandbox: ``python -m sandbox`` in a process of its own serves the client over HTTP
and counts every request it served."""

from __future__ import annotations

from client import ApiClient
from rigs.processes import DEMO_KEY, sandbox_process


def test_sandbox_process_counts_what_it_served() -> None:
    with sandbox_process(latency_ms=0) as sandbox, ApiClient(sandbox.base_url, DEMO_KEY) as client:
        client.lookup("stripe.com")
        client.lookup("stripe.com")
        client.categories()
        counts = sandbox.counts()
        assert counts[("GET", "/api/v1/lookup/stripe.com", "")] == 2
        assert sandbox.total() == 3
        sandbox.reset()
        assert sandbox.total() == 0
