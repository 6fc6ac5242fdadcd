"""P2: bulk DR at the rate-limit floor, against a naive sequential loop.

200 distinct domains go through ``client.bulk.run_bulk`` (the runner and pacer the Bulk DR checker
page uses, with its defaults: the pacer does not know the limit and has to learn it) against a
sandbox process with 50 ms latency and a 20 requests/s per-key limit. The floor is what the limit
allows at best: 200 / 20 = 10 s. Targets: wall time ≤ 1.15 × floor, zero failures, zero lost
domains. The naive baseline is the same work as a sequential loop of single ``ApiClient.dr`` calls
(the client's own retries) on a fresh sandbox with the same settings, timed in the same run.

    .venv/bin/python -m bench.p2_bulk
"""

from __future__ import annotations

import sys
import time
from functools import partial

from bench.harness import Figures, one_after_another
from client import ApiClient
from client.bulk import run_bulk
from client.errors import ApiError
from rigs.processes import DEMO_KEY, sandbox_process

DOMAINS = tuple(f"bench-{i}.com" for i in range(200))
LATENCY_MS = 50
RATE_LIMIT = 20
#: Far more than one run spends, so the quota never ends a run early.
QUOTA = 1_000_000
FLOOR_S = len(DOMAINS) / RATE_LIMIT
TARGET = 1.15


def _bulk() -> tuple[float, int, int, int]:
    """Wall seconds, failed items, lost items, 429s the pacer met."""
    with sandbox_process(latency_ms=LATENCY_MS, rate_limit=RATE_LIMIT, quota=QUOTA) as sandbox:
        # max_retries=0: the runner must see every 429 to pace everyone (as the page does).
        with ApiClient(sandbox.base_url, DEMO_KEY, max_retries=0) as client:
            started = time.perf_counter()
            results = run_bulk(DOMAINS, client.dr)
            wall = time.perf_counter() - started
        served = {query_path for (_, query_path, _), n in sandbox.counts().items() if n}
    failed = sum(1 for r in results if not r.ok)
    answered = {r.item for r in results if r.ok}
    lost = len(set(DOMAINS) - {r.item for r in results})  # no result at all, not even an error
    rate_limited = sum(r.attempts - 1 for r in results)
    assert all(f"/api/v1/dr/{d}" in served for d in answered), "an answer the sandbox never served"
    return wall, failed, lost, rate_limited


def _naive() -> tuple[float, int]:
    """Wall seconds and failures of one request after the other."""
    with sandbox_process(latency_ms=LATENCY_MS, rate_limit=RATE_LIMIT, quota=QUOTA) as sandbox:
        with ApiClient(sandbox.base_url, DEMO_KEY) as client:
            return one_after_another((partial(client.dr, domain) for domain in DOMAINS), ApiError)


def main() -> int:
    figures = Figures()
    wall, failed, lost, retried = _bulk()
    naive_wall, naive_failed = _naive()
    figures.show("p2_floor", FLOOR_S, "s")
    figures.show("p2_bulk_wall", wall, "s", baseline=FLOOR_S, base="floor")
    figures.show("p2_bulk_failures", failed, "domains")
    figures.show("p2_bulk_lost", lost, "domains")
    figures.show("p2_bulk_retried_attempts", retried, "attempts")
    figures.show("p2_naive_sequential_wall", naive_wall, "s", baseline=FLOOR_S, base="floor")
    figures.show("p2_naive_sequential_failures", naive_failed, "domains")
    figures.show("p2_bulk_vs_naive", wall / naive_wall, "×", baseline=1.0, base="naive")
    figures.target(
        f"P2 bulk wall ≤ {TARGET} × floor", wall <= TARGET * FLOOR_S, f"{wall:.2f} s vs {FLOOR_S:.0f} s"
    )
    figures.target("P2 zero failures", failed == 0, f"{failed} failed")
    figures.target("P2 zero lost domains", lost == 0, f"{lost} lost")
    return figures.exit_code()


if __name__ == "__main__":
    sys.exit(main())
