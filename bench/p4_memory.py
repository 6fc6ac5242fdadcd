"""P4: server memory with 20 and 50 concurrent browser sessions, against the stack floor and a bare page.

Four servers are measured one after the other in the same run, each the same way: one warm-up
visit, RSS once its session has been dropped ("before"), then browser sessions opened in batches
(each batch waits until every page has rendered; all stay open) and RSS read at 20 and at 50
sessions, then every session closed and RSS read again once the server has dropped them ("after").

- the **bare** page (one line: Streamlit alone),
- the **stack floor** (one line, one small table, one small plotly chart: Streamlit with pandas,
  pyarrow and plotly, none of the app's code),
- the **library floor** (the stack floor in a server that has also loaded the app's other libraries:
  httpx, pydantic with pydantic-settings, tldextract, SQLAlchemy, redis-py; reported, no target: the
  app's ratio to it is what the app's own code holds),
- the **app**'s memory page (the Trust Map), in Live mode against the sandbox. Its sessions open
  pages whose data is already cached: a handful of domains are visited once first, then every
  session opens one of them, so the 20 → 50 figure is what a session itself costs. Its history
  database is already migrated, as a restarted server or a second replica finds it. With
  ``--own-domains`` a second pass on the same server (reported, no target) opens each session on a
  domain of its own, which adds that domain's API answers and figures to the bounded caches.

Targets (issue 17): app RSS with 20 sessions ≤ 1.15 × the stack floor with 20 sessions; the app's
marginal memory per session from 20 to 50 sessions on cached pages ≤ 3 MiB; after the sessions
close the app's RSS is within 10 % of its value before them.

    .venv/bin/python -m bench.p4_memory            # 20 → 50 sessions (takes several minutes)
    .venv/bin/python -m bench.p4_memory --quick    # 5 → 10 sessions, for development
    .venv/bin/python -m bench.p4_memory --own-domains  # and the pass with a domain per session
"""

from __future__ import annotations

import argparse
import contextlib
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.harness import Figures, chromium
from rigs.page_visits import PAGE_VISITS, PageVisit
from rigs.processes import DATABASE_ENV, ROOT, app_process, sandbox_process
from sandbox.data import KNOWN_SITES, is_listed, is_map_cold

LOAD_TARGET = 1.15
MARGINAL_TARGET_MIB = 3.0
SETTLE_TARGET = 1.10
#: Streamlit keeps a disconnected session this long (default 120 s); short so "after" is measurable.
SESSION_TTL_S = 2
#: Sessions opened together; each batch renders before the next starts (2 cores, one browser).
BATCH = 5
#: Bound on one page's render, and on a whole batch.
RENDER_TIMEOUT_MS = 120_000
CHART = ".js-plotly-plot .main-svg"
#: Domains warmed before the cached-page sessions, which then share them round-robin.
CACHED_DOMAINS = 5

ReadRss = Callable[[], float]


@dataclass(frozen=True)
class Curve:
    """One server's RSS before, with ``low`` and ``high`` sessions open, and after they closed."""

    before: float
    at_low: float
    at_high: float
    after: float
    added: int

    @property
    def marginal(self) -> float:
        """MiB per extra session from the low to the high session count."""
        return (self.at_high - self.at_low) / self.added


def _memory_visit() -> PageVisit:
    by_name = {v.name: v for v in PAGE_VISITS}
    return by_name.get("trust-map", by_name["overview"])


def _own_domains(count: int) -> list[str]:
    """``count`` different listed domains with a warm Trust Map: the well-known sites, then made-up ones."""
    known = [d for d in sorted(KNOWN_SITES) if is_listed(d) and not is_map_cold(d)]
    made_up = (f"authority-site-{n}.com" for n in range(10_000))
    extra = (d for d in made_up if is_listed(d) and not is_map_cold(d))
    while len(known) < count:
        known.append(next(extra))
    return known[:count]


class Sessions:
    """Browser sessions kept open together, opened batch by batch: one tab each, all in one browser
    context so the static files are fetched and compiled once (each tab is its own Streamlit session)."""

    def __init__(self, browser: Any, ready: str) -> None:
        self._context = browser.new_context(viewport={"width": 1200, "height": 900})
        self._ready = ready
        self._pages: list[Any] = []

    def open(self, urls: list[str]) -> None:
        started = time.monotonic()
        for start in range(0, len(urls), BATCH):
            batch = [self._context.new_page() for _ in urls[start : start + BATCH]]
            for page, url in zip(batch, urls[start : start + BATCH], strict=True):
                page.goto(url, wait_until="commit", timeout=RENDER_TIMEOUT_MS)
            deadline = time.monotonic() + RENDER_TIMEOUT_MS / 1000
            for page in batch:
                left_ms = max(1_000, int((deadline - time.monotonic()) * 1000))
                page.locator(self._ready).first.wait_for(state="visible", timeout=left_ms)
            self._pages += batch
        time.sleep(1)  # the last run's remaining messages
        print(f"  {len(self._pages)} sessions open ({time.monotonic() - started:.0f} s)", file=sys.stderr)

    def close(self) -> None:
        self._context.close()
        self._pages.clear()


def _settled_rss(read_rss: ReadRss) -> float:
    """RSS once Streamlit has dropped the closed sessions (its TTL, then its cleanup pass)."""
    time.sleep(SESSION_TTL_S + 3)
    return read_rss()


def _curve(browser: Any, ready: str, read_rss: ReadRss, warm: list[str], urls: list[str], low: int) -> Curve:
    """Warm with ``warm`` (one at a time, closed), then open ``urls`` reading RSS at ``low`` and at all."""
    if warm:
        first = Sessions(browser, ready)
        first.open(warm)
        first.close()
    before = _settled_rss(read_rss)
    sessions = Sessions(browser, ready)
    sessions.open(urls[:low])
    at_low = read_rss()
    sessions.open(urls[low:])
    at_high = read_rss()
    sessions.close()
    return Curve(before, at_low, at_high, _settled_rss(read_rss), len(urls) - low)


def _round_robin(items: list[str], count: int) -> list[str]:
    return [items[n % len(items)] for n in range(count)]


def _show_curve(figures: Figures, name: str, curve: Curve, low: int, high: int, base: Curve | None) -> None:
    label = "bare" if base is not None else ""
    points = (("before", "before"), (f"{low}_sessions", "at_low"), (f"{high}_sessions", "at_high"))
    for point, field in points:
        baseline = getattr(base, field) if base else None
        figures.show(f"p4_{name}_rss_{point}", getattr(curve, field), "MiB", baseline=baseline, base=label)
    figures.show(f"p4_{name}_mib_per_session_{low}_to_{high}", curve.marginal, "MiB")
    figures.show(f"p4_{name}_rss_after", curve.after, "MiB", baseline=curve.before, base="before")


@contextlib.contextmanager
def _migrated_database() -> Iterator[str]:
    """A new history database already at the newest schema, as a restarted server or a second
    replica finds it (``python -m store upgrade``); removed afterwards."""
    with tempfile.TemporaryDirectory(prefix="bench-history-") as folder:
        url = f"sqlite:///{Path(folder) / 'history.sqlite3'}"
        env = {**os.environ, DATABASE_ENV: url}
        subprocess.run(
            [sys.executable, "-m", "store", "upgrade"],
            cwd=ROOT,
            env=env,
            check=True,
            timeout=120,
            capture_output=True,
        )
        yield url


def _sizes(quick: bool) -> tuple[int, int]:
    return (5, 10) if quick else (20, 50)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="5 → 10 sessions instead of 20 → 50")
    parser.add_argument(
        "--own-domains", action="store_true", help="add the pass with a domain per session (twice as long)"
    )
    args = parser.parse_args(argv)
    low, high = _sizes(args.quick)
    figures = Figures()
    extra = ["--server.disconnectedSessionTTL", str(SESSION_TTL_S)]
    visit = _memory_visit()
    with chromium() as browser:
        with app_process("bench/bare_app.py", extra=extra) as bare_app:
            urls = [bare_app.url] * high
            bare = _curve(browser, "h1", bare_app.rss_mb, urls[:1], urls, low)
        _show_curve(figures, "bare", bare, low, high, None)

        with app_process("bench/stack_app.py", extra=extra) as stack_app:
            urls = [stack_app.url] * high
            stack = _curve(browser, CHART, stack_app.rss_mb, urls[:1], urls, low)
        _show_curve(figures, "stack_floor", stack, low, high, bare)

        with app_process("bench/library_floor_app.py", extra=extra) as library_app:
            urls = [library_app.url] * high
            library = _curve(browser, CHART, library_app.rss_mb, urls[:1], urls, low)
        _show_curve(figures, "library_floor", library, low, high, bare)

        domains = _own_domains(high)
        with (
            _migrated_database() as database_url,
            sandbox_process() as sandbox,
            app_process(api_base=sandbox.base_url, extra=extra, database_url=database_url) as app,
        ):
            base = visit.url(app.url).split("?")[0]
            warm = [f"{base}?domain={d}" for d in domains[:CACHED_DOMAINS]]
            cached = _curve(browser, visit.ready, app.rss_mb, warm, _round_robin(warm, high), low)
            own = None
            if args.own_domains:
                own_urls = [f"{base}?domain={d}" for d in domains]
                own = _curve(browser, visit.ready, app.rss_mb, [], own_urls, low)
        name = f"app_{visit.name}"
        _show_curve(figures, f"{name}_cached", cached, low, high, bare)
        figures.show(
            f"p4_{name}_cached_rss_{low}_sessions_vs_stack_floor",
            cached.at_low,
            "MiB",
            baseline=stack.at_low,
            base="stack floor",
        )
        figures.show(
            f"p4_{name}_cached_rss_{low}_sessions_vs_library_floor",
            cached.at_low,
            "MiB",
            baseline=library.at_low,
            base="library floor",
        )
        if own is not None:
            _show_curve(figures, f"{name}_own_domain", own, low, high, bare)

        figures.target(
            f"P4 app RSS with {low} sessions ≤ {LOAD_TARGET} × the stack floor with {low}",
            cached.at_low <= LOAD_TARGET * stack.at_low,
            f"{cached.at_low:.0f} vs {stack.at_low:.0f} MiB: {cached.at_low / stack.at_low:.2f} ×; "
            f"{cached.at_low / bare.at_low:.2f} × the bare server",
        )
        figures.target(
            f"P4 app MiB per session {low} → {high}, cached {visit.name} ≤ {MARGINAL_TARGET_MIB}",
            cached.marginal <= MARGINAL_TARGET_MIB,
            f"{cached.marginal:.2f} MiB; stack floor {stack.marginal:.2f}, bare {bare.marginal:.2f}"
            + (f", app with a domain per session {own.marginal:.2f}" if own else ""),
        )
        figures.target(
            f"P4 app RSS after the sessions close within {SETTLE_TARGET - 1:.0%} of before",
            cached.after <= SETTLE_TARGET * cached.before,
            f"{cached.after:.0f} vs {cached.before:.0f} MiB: {cached.after / cached.before:.2f} ×",
        )
    return figures.exit_code()


if __name__ == "__main__":
    sys.exit(main())
