"""P4: server memory with 20 concurrent browser sessions, against a bare Streamlit server.

Each of 20 browser contexts opens the memory page (the Trust Map when it exists, else the Domain
overview) for a different domain; the Streamlit server's RSS is read while they are all open and
again after they close and the server has dropped their sessions. The same is done with a bare
one-line page, and with the stack's floor (one line, one small table, one small plotly chart: what
Streamlit with pandas, pyarrow and plotly loaded holds before any of the app's code). Targets: app RSS
under load ≤ 1.5 × bare RSS under load, and after the sessions close the app's RSS returns to within
20% of its value before them (every cache is bounded).

    .venv/bin/python -m bench.p4_memory
"""

from __future__ import annotations

import sys
import time
from typing import Any

from bench.harness import PAGE_VISITS, Figures, PageVisit, app_process, chromium, sandbox_process
from sandbox.data import KNOWN_SITES, is_listed, is_map_cold

SESSIONS = 20
LOAD_TARGET = 1.5
SETTLE_TARGET = 1.20
#: Streamlit keeps a disconnected session this long (default 120 s); short so "after" is measurable.
SESSION_TTL_S = 2
CHART = ".js-plotly-plot .main-svg"
#: Twenty different listed sites with a warm Trust Map, so every session holds its own data.
DOMAINS = tuple(d for d in sorted(KNOWN_SITES) if is_listed(d) and not is_map_cold(d))[:SESSIONS]


def _memory_visit() -> PageVisit:
    by_name = {v.name: v for v in PAGE_VISITS}
    return by_name.get("trust-map", by_name["overview"])


def _load(browser: Any, urls: list[str], ready: str | None, read_rss: Any) -> float:
    """Open every URL in its own context, wait for all, read RSS, close them all."""
    contexts = [browser.new_context(viewport={"width": 1200, "height": 900}) for _ in urls]
    pages = [c.new_page() for c in contexts]
    for page, url in zip(pages, urls, strict=True):
        page.goto(url, wait_until="commit")
    for page in pages:
        if ready:
            page.locator(ready).first.wait_for(timeout=120_000)
        else:
            page.locator("h1").first.wait_for(timeout=120_000)
    time.sleep(1)
    rss = read_rss()
    for context in contexts:
        context.close()
    return rss


def _settled_rss(read_rss: Any) -> float:
    time.sleep(SESSION_TTL_S + 3)
    return read_rss()


def main() -> int:
    figures = Figures()
    extra = ["--server.disconnectedSessionTTL", str(SESSION_TTL_S)]
    visit = _memory_visit()
    with chromium() as browser:
        with app_process("bench/bare_app.py", extra=extra) as bare:
            _load(browser, [bare.url], None, bare.rss_mb)
            bare_before = _settled_rss(bare.rss_mb)
            bare_load = _load(browser, [bare.url] * SESSIONS, None, bare.rss_mb)
            bare_after = _settled_rss(bare.rss_mb)
        figures.show("p4_bare_rss_before", bare_before, "MiB")
        figures.show("p4_bare_rss_20_sessions", bare_load, "MiB")
        figures.show("p4_bare_rss_after", bare_after, "MiB", baseline=bare_before, base="before")

        with app_process("bench/stack_app.py", extra=extra) as stack:
            _load(browser, [stack.url], CHART, stack.rss_mb)
            stack_before = _settled_rss(stack.rss_mb)
            stack_load = _load(browser, [stack.url] * SESSIONS, CHART, stack.rss_mb)
        figures.show("p4_stack_floor_rss_before", stack_before, "MiB", baseline=bare_before, base="bare")
        figures.show("p4_stack_floor_rss_20_sessions", stack_load, "MiB", baseline=bare_load, base="bare")

        with sandbox_process() as sandbox, app_process(api_base=sandbox.base_url, extra=extra) as app:
            base = visit.url(app.url).split("?")[0]
            _load(browser, [f"{base}?domain=example.org"], visit.ready, app.rss_mb)  # imports, first run
            before = _settled_rss(app.rss_mb)
            urls = [f"{base}?domain={d}" for d in DOMAINS]
            load = _load(browser, urls, visit.ready, app.rss_mb)
            after = _settled_rss(app.rss_mb)
        figures.show("p4_app_rss_before", before, "MiB")
        figures.show(f"p4_app_rss_20_sessions_{visit.name}", load, "MiB", baseline=bare_load, base="bare")
        figures.show("p4_app_rss_after", after, "MiB", baseline=before, base="before")
        figures.target(
            f"P4 RSS under load ≤ {LOAD_TARGET} × bare",
            load <= LOAD_TARGET * bare_load,
            f"{load:.0f} MiB; {load / stack_load:.2f} × the stack floor with 20 sessions",
        )
        figures.target(
            "P4 RSS after sessions close within 20% of before",
            after <= SETTLE_TARGET * before,
            f"{after:.0f} MiB",
        )
    return figures.exit_code()


if __name__ == "__main__":
    sys.exit(main())
