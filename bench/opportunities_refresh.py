"""A refresh of the opportunities list: 50 keywords' top 10s read at the service's rate limit, against the
floor the limit allows.

50 keywords of one of the demo's sites without a known top 10 go through
``services.opportunities.read_top10s`` (the runner and pacer the Opportunities page and
``python -m store opportunities`` use, with their defaults: the pacer learns the limit) against a sandbox
process with 50 ms latency and a 20 requests/s per-key limit. The floor: 50 / 20 = 2.5 s. Targets: wall
time ≤ 1.15 × floor, every keyword read, none lost. The service does not publish its limits, so the first
refresh of a process starts below them and learns them in its first seconds; the pacer keeps what it
learned for the key (``client.rate_memory``), so a later refresh (another 50 keywords, after a pause that
lets the key's allowance refill, as a person refreshing again would) starts there. Both are timed in the
same run, each against its floor, with a third refresh paced at exactly the limit by a pacer told it (what
no client of the real service can do: the baseline of what this machine allows); ``--keywords 200``
shows the same reads once the start-up is a smaller share of the run.

    .venv/bin/python -m bench.opportunities_refresh [--keywords 50]
"""

from __future__ import annotations

import argparse
import sys
import time

from bench.harness import Figures
from client import ApiClient
from client.bulk import Pacer
from client.rate_memory import LEARNED_RATES
from rigs.processes import DEMO_KEY, sandbox_process
from services.opportunities.reads import Candidates, read_top10s

SITE = "northwind-coffee.com"
LATENCY_MS = 50
RATE_LIMIT = 20
QUOTA = 1_000_000
TARGET = 1.15
#: Seconds between refreshes (and before the first): the key's allowance is full again.
PAUSE_S = 2.0


def _candidates(keywords: list[str]) -> Candidates:
    found = Candidates(SITE, 40.0)
    for keyword in keywords:
        found.rows[keyword] = {
            "keyword": keyword,
            "position": None,
            "volume": 100.0,
            "volume_source": "search volume",
            "median_dr": None,
            "min_dr": None,
            "site_dr": None,
            "top10_from": "",
            "problem": "",
        }
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keywords", type=int, default=50)
    keywords = [f"coffee bench keyword {i}" for i in range(parser.parse_args().keywords)]
    floor_s = len(keywords) / RATE_LIMIT
    figures = Figures()
    LEARNED_RATES.forget()  # the first refresh of a process: nothing learned yet
    with sandbox_process(latency_ms=LATENCY_MS, rate_limit=RATE_LIMIT, quota=QUOTA) as sandbox:
        # max_retries=0: the runner sees every 429 and paces every worker (as the page and command do).
        with ApiClient(sandbox.base_url, DEMO_KEY, max_retries=0) as client:
            runs: list[tuple[str, list[str], Pacer | None]] = [
                ("first", keywords, None),
                ("later", [f"{k} later" for k in keywords], None),
                # What no client of the real service can do: a pacer told the limit. What it takes on
                # this machine is what the processor, not the pacing, allows.
                ("known_limit", [f"{k} known" for k in keywords], Pacer(RATE_LIMIT, adaptive=False)),
            ]
            for name, asked, pacer in runs:
                time.sleep(PAUSE_S)  # the key's allowance refilled, as after any pause between refreshes
                candidates = _candidates(asked)
                started = time.perf_counter()
                sent = read_top10s(candidates, client, pacer=pacer)
                wall = time.perf_counter() - started
                read = sum(1 for row in candidates.rows.values() if row["top10_from"])
                prefix = f"opportunities_refresh_{name}"
                figures.show(f"{prefix}_floor", floor_s, "s")
                figures.show(f"{prefix}_wall", wall, "s", baseline=floor_s, base="floor")
                figures.show(f"{prefix}_requests", sent, "requests")
                figures.show(f"{prefix}_failed", len(candidates.failed), "keywords")
                figures.target(
                    f"{name} refresh ≤ {TARGET} × floor",
                    wall <= TARGET * floor_s,
                    f"{wall:.2f} s vs {floor_s} s",
                )
                figures.target(
                    f"{name} refresh: every keyword read", read == len(asked), f"{read} of {len(asked)}"
                )
    return figures.exit_code()


if __name__ == "__main__":
    sys.exit(main())
