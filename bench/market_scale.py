"""Market page at agency size: its first view of 365 days at 200 keywords against the same view at more
keywords (5,000: some 18 million top-10 rows), with the History page and a month's report of the same
site, and the memory a cached Market view holds, on a real PostgreSQL (or SQLite) the benchmark starts
and fills, with where the time goes.

For each size a fresh database gets a year of daily top 10s of ``N`` keywords watched for your site
(``bench.top10_fill``: COPY on PostgreSQL, some 60,000 rows/s on 2 cores; plain inserts on SQLite), up
to yesterday. Then the benchmark lives the real day, by default: the history was recorded over a year
and people opened the Market and History pages along the way, so both are opened once on yesterday's
history (whatever a page keeps in the database for a day, it builds then) and the year's top-10 DRs
are summed (``store.rollups.dr_days``: what the daily job sums day by day, or its first run after the
upgrade at once), today's top 10s are recorded as the daily job records them (``record_read``: one
upsert per keyword, marking today as changed), and the app's cached answers are dropped, as they are
when the job writes. ``--no-today`` skips that day: the history is filled up to today and the first
view is the first read of it.

Measured per size, in this process (AppTest, Live mode, in-process sandbox; a small warm-up database
first for imports and the sandbox's first answers): the Market page's first view of 365 days (every read
cold: each size has its own database, so its own query cache) and a warm rerun; the History page's
keyword positions of that site over 365 days, first view (its answers dropped before); last month's
report content of that site (``services.reports.content.gather``: its figures and tables, no charts
drawn, no PDF printed), and the same report as a client gets it (``build_report``: content, charts drawn
by Chromium, started beforehand, and the PDF printed); what the page's cache holds for the Market view
(its answers' deep size, frames by ``memory_usage(deep=True)``), and the process's resident memory
before and after the first view. ``--profile`` prints where each Market first view's time went
(pyinstrument).

Targets (issue 39): at the largest size, the Market first view, its warm rerun, the History page and the
report (its content, and as printed) each ≤ 1.5 × the same at the smallest size, in the same run; the
cached Market view ≤ 100 MiB.

    .venv/bin/python -m bench.market_scale --database postgresql --keywords 200 5000 [--profile]
    .venv/bin/python -m bench.market_scale --database sqlite --keywords 200
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import os
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pandas as pd
from pyinstrument import Profiler
from streamlit.testing.v1 import AppTest

from bench.harness import Figures
from bench.market_page import ACCOUNT, SITE
from bench.profile_page import _profiling_scripts
from bench.top10_fill import fill, record_day
from rigs.processes import DEMO_KEY, ROOT, rss_mb

DAYS = 365
TARGET = 1.5
MEMORY_BOUND_MIB = 100.0
WARM_UP = (5, 30)  # keywords, days of the warm-up database
MIB = 1024 * 1024


@contextlib.contextmanager
def databases(kind: str) -> Iterator[Callable[[str], str]]:
    """A maker of fresh empty databases by name (their URLs), on a PostgreSQL server started for the run
    or as SQLite files in a temporary folder."""
    with tempfile.TemporaryDirectory() as folder:
        if kind == "sqlite":
            yield lambda name: f"sqlite:///{Path(folder) / f'{name}.sqlite3'}"
            return
        from rigs.postgres import running_postgres

        with running_postgres() as server:
            yield server.create_database


def _page(url: str, page: str, query: dict[str, str]) -> AppTest:
    os.environ["DASHBOARD_DATABASE_URL"] = url
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=1800)
    for name, value in query.items():
        at.query_params[name] = value
    at.switch_page(page)
    return at


def _run(at: AppTest, what: str) -> float:
    started = time.perf_counter()
    at.run()
    seconds = time.perf_counter() - started
    if at.exception:
        raise RuntimeError(f"the {what} raised: {[e.value for e in at.exception]}")
    return seconds


def market_page(url: str) -> AppTest:
    return _page(url, "views/market.py", {"market_period": "365 days"})


def first_view(url: str, profile: bool) -> tuple[float, float, Profiler | None]:
    """Seconds of the Market page's first view of 365 days on the store at ``url``, of a warm rerun, and
    the first view's profile when asked."""
    at = market_page(url)
    profiler = Profiler(interval=0.001) if profile else None
    with _profiling_scripts(profiler) if profiler else contextlib.nullcontext():
        first = _run(at, "Market page")
    return first, _run(at, "Market page"), profiler


def history_view(url: str, profiler: Profiler | None = None) -> float:
    """Seconds of the History page's first view of your site's keyword positions over 365 days."""
    at = _page(url, "views/history.py", {"history_tab": "Keyword positions", "history_kw_period": "365 days"})
    with _profiling_scripts(profiler) if profiler else contextlib.nullcontext():
        return _run(at, "History page")


def report_content(url: str, profiler: Profiler | None = None) -> float:
    """Seconds to gather last month's report of your site: its figures and tables, nothing drawn."""
    from services.reports.content import gather
    from store import HistoryStore
    from store.reports.period import last_month

    with HistoryStore.open(url) as store:
        started = time.perf_counter()
        with profiler or contextlib.nullcontext():
            gather(store, ACCOUNT, SITE, last_month(datetime.now(UTC).date()))
        return time.perf_counter() - started


def report_printed(url: str) -> float:
    """Seconds to make last month's report of your site as a client gets it: its content gathered, its
    charts drawn by Chromium (none drawn before on this database) and its PDF printed."""
    from services.reports.branding import Branding
    from services.reports.document import build_report
    from services.reports.render import shared_renderer
    from store import HistoryStore
    from store.reports.period import last_month

    with HistoryStore.open(url) as store:
        started = time.perf_counter()
        built = build_report(
            store,
            ACCOUNT,
            SITE,
            last_month(datetime.now(UTC).date()),
            branding=Branding(),
            renderer=shared_renderer(),
        )
        built.pdf()
        return time.perf_counter() - started


def warm_renderer() -> None:
    """The report's Chromium started and one chart drawn, so no size pays for the browser's start."""
    import plotly.graph_objects as go

    from services.reports.render import shared_renderer

    shared_renderer().svg(go.Figure(go.Scatter(x=[1, 2], y=[1, 2])), 400, 300)


def print_profile(what: str, profiler: Profiler | None, lines: int) -> None:
    if profiler is not None:
        text = profiler.output_text(unicode=True, color=False, show_all=False)
        print(f"Where the {what}'s time went:", *text.splitlines()[:lines], sep="\n", flush=True)


def _door(url: str) -> Any:
    """The app's per-database door in this process (its query cache), as the pages use it."""
    from components.core.history.store import _door as door

    return door(url)


def drop_cached_answers(url: str) -> None:
    """Forget every answer the app keeps of the database at ``url``, as a write by the job makes it."""
    _door(url).changed(None)


def deep_bytes(value: Any, seen: set[int]) -> int:
    """Bytes held by ``value`` and what it refers to (frames by pandas' deep count), each object once."""
    if id(value) in seen:
        return 0
    seen.add(id(value))
    if isinstance(value, pd.DataFrame | pd.Series | pd.Index):
        used = value.memory_usage(deep=True)
        return int(used.sum() if isinstance(used, pd.Series) else used)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = (getattr(value, f.name) for f in dataclasses.fields(value))
        return sys.getsizeof(value) + sum(deep_bytes(f, seen) for f in fields)
    if isinstance(value, dict):
        items = [*value.keys(), *value.values()]
        return sys.getsizeof(value) + sum(deep_bytes(i, seen) for i in items)
    if isinstance(value, list | tuple | set | frozenset):
        return sys.getsizeof(value) + sum(deep_bytes(i, seen) for i in value)
    return sys.getsizeof(value)


def cached_bytes(url: str) -> int:
    """What the app keeps for the views opened on ``url``: the query cache's answers, and the Market
    page's memos computed from them (the memos of other databases' frames are not counted)."""
    from components.market.widgets import selection, winnable

    answers = [entry[2] for entry in _door(url).queries._entries._entries.values()]
    held = {id(a) for a in answers} | {
        id(v) for a in answers if dataclasses.is_dataclass(a) for v in vars(a).values()
    }
    memos = [
        entry
        for memo in (selection._TOP10S, winnable._MEMO)
        for entry in memo._entries._entries.values()
        if id(entry[0]) in held
    ]
    seen: set[int] = set()
    return deep_bytes(answers, seen) + deep_bytes(memos, seen)


def live_the_day(url: str, keywords: int) -> None:
    """Yesterday's Market view and History page opened once, today's top 10s recorded as the daily job
    does, the app's answers dropped: the morning of a year of use."""
    started = time.perf_counter()
    _run(market_page(url), "Market page")
    opened = time.perf_counter() - started
    history = history_view(url)
    summed = sum_drs(url)
    recorded = record_day(url, keywords, datetime.now(UTC).date(), DAYS + 1)
    drop_cached_answers(url)
    print(
        f"{keywords} keywords: yesterday's Market view opened in {opened:.1f} s, its History page in "
        f"{history:.1f} s, the year's top-10 DRs summed in {summed:.1f} s (once: what the daily job's first "
        f"run after the upgrade does); today's {keywords:,} top 10s recorded as the job does in "
        f"{recorded:.1f} s",
        flush=True,
    )


def sum_drs(url: str) -> float:
    """Seconds to sum every day's top-10 DRs into their roll-up (``store.rollups.dr_days``)."""
    from store import HistoryStore

    with HistoryStore.open(url) as store:
        started = time.perf_counter()
        store.dr_days.keep(ACCOUNT, None, None)
        return time.perf_counter() - started


def measure(url: str, keywords: int, args: argparse.Namespace) -> dict[str, float]:
    """Every figure of one size on its filled database (see the module's docstring)."""
    if not args.no_today:
        live_the_day(url, keywords)
    rss_before = rss_mb(os.getpid())
    first, warm, profiler = first_view(url, args.profile)
    rss_after = rss_mb(os.getpid())
    cached = cached_bytes(url) / MIB
    print_profile("Market page's first view", profiler, args.tree)
    drop_cached_answers(url)
    profiler = Profiler(interval=0.001) if args.profile else None
    history = history_view(url, profiler)
    print_profile("History page's first view", profiler, args.tree)
    profiler = Profiler(interval=0.001) if args.profile else None
    report = report_content(url, profiler)
    print_profile("report's content", profiler, args.tree)
    printed = report_printed(url)
    print(
        f"{keywords} keywords: process memory {rss_before:.0f} MiB before the first view, "
        f"{rss_after:.0f} MiB after ({rss_after - rss_before:+.0f} MiB)",
        flush=True,
    )
    return {
        "first view": first,
        "warm rerun": warm,
        "History page": history,
        "report": report,
        "report printed": printed,
        "cached": cached,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", choices=("postgresql", "sqlite"), default="postgresql")
    parser.add_argument("--keywords", type=int, nargs="+", default=[200, 5000])
    parser.add_argument("--no-today", action="store_true", help="fill up to today; skip the day's writes")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--tree", type=int, default=70, help="lines of each profile to print")
    args = parser.parse_args(argv)

    from sandbox import SandboxServer

    figures = Figures()
    today = datetime.now(UTC).date()
    last_day = today if args.no_today else today - timedelta(days=1)
    measured: dict[int, dict[str, float]] = {}
    with databases(args.database) as new_database, SandboxServer(host="127.0.0.1", port=0) as sandbox:
        os.environ.update(VERIFIEDDR_API_BASE=sandbox.base_url, VERIFIEDDR_API_KEY=DEMO_KEY)
        warm_up = new_database("warmup")
        fill(warm_up, *WARM_UP, today)
        first_view(warm_up, profile=False)
        history_view(warm_up)
        warm_renderer()
        for keywords in args.keywords:
            url = new_database(f"market{keywords}")
            filled = fill(url, keywords, DAYS, last_day)
            print(
                f"{keywords} keywords: {filled.serp_rows:,} top-10 rows and {filled.keyword_rows:,} keyword "
                f"rows written in {filled.seconds:.0f} s ({filled.rows_per_s:,.0f} rows/s)",
                flush=True,
            )
            measured[keywords] = measure(url, keywords, args)
            smallest = min(measured)
            for name, seconds in measured[keywords].items():
                if name == "cached":
                    figures.show(f"{args.database}, {keywords} keywords, cached Market view", seconds, "MiB")
                    continue
                figures.show(
                    f"{args.database}, {keywords} keywords, {name}",
                    seconds,
                    "s",
                    baseline=measured[smallest][name],
                    base=f"{smallest} keywords",
                )
    largest, smallest = max(measured), min(measured)
    if largest != smallest:
        for name in ("first view", "warm rerun", "History page", "report", "report printed"):
            ratio = measured[largest][name] / measured[smallest][name]
            figures.target(
                f"{name} at {largest} keywords ≤ {TARGET} × at {smallest}",
                ratio <= TARGET,
                f"ratio {ratio:.2f}",
            )
    cached = measured[largest]["cached"]
    figures.target(
        f"cached Market view at {largest} keywords ≤ {MEMORY_BOUND_MIB:.0f} MiB",
        cached <= MEMORY_BOUND_MIB,
        f"{cached:.1f} MiB",
    )
    return figures.exit_code()


if __name__ == "__main__":
    sys.exit(main())
