"""History page: what the store costs a warm render, against the same rows served from memory.

Two years of daily history for 50 domains (your site and 49 watched competitors) and 200 tracked
keywords of your site are recorded into a fresh SQLite store through ``HistoryStore.snapshots.seed``. The same
rows, read back once, make an in-memory source (``rigs.frame_source.FrameSource``), which the
page reads instead of the store inside ``bench.store_vs_memory.pages_reading``. Each view of the page is
opened in AppTest twice (one session per source, in Live mode against an in-process sandbox), run once
to warm every cache, then rerun alternately, store and memory, so both meet the same machine load.

Target: each view's median warm render with the store ≤ 1.3 × the same view fed from memory. A warm
render reuses the store's answers for up to a minute (``components.core.history.source.QueryCache``), so the
bench also prints what one uncached read of each view's rows costs against the in-memory source: the
price of the first render, and of the first one after a write.

    .venv/bin/python -m bench.history_page [--reruns 15]
"""

from __future__ import annotations

import argparse
import functools
import math
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import date, timedelta

from streamlit.testing.v1 import AppTest

from bench.harness import Figures
from bench.store_vs_memory import compare_warm, filled_store
from client.models import (
    Authority,
    Evidence,
    KeywordSnapshot,
    Lookup,
    TrackedKeyword,
    TrackedKeywords,
    TrackedWebsite,
)
from client.settings import key_fingerprint
from components.core.history.source import HistorySource, StoreSource
from rigs.frame_source import FrameSource
from rigs.processes import DEMO_KEY, ROOT

DOMAINS = 50
DAYS = 730
KEYWORDS = 200
TARGET = 1.3
SITE = "example.com"  # the demo key's first site in the sandbox
SITE_SLUG = "example-com"
#: The keywords on the tab's charts (the eight best placed; which eight does not change a read's cost).
CHARTED = tuple(f"keyword {k:03d}" for k in range(8))
ACCOUNT = key_fingerprint(DEMO_KEY)


@dataclass(frozen=True)
class View:
    """One view of the page: its URL query and what a marketer picks on it after it opens."""

    name: str
    query: dict[str, str]
    pick: Callable[[AppTest], None] = field(default=lambda at: None)


def _domains() -> list[str]:
    return [SITE, *(f"competitor-{i:02d}.com" for i in range(1, DOMAINS))]


def _wave(i: int, day: int, period: int, size: float) -> float:
    return size * math.sin(2 * math.pi * (day + 17 * i) / period)


def _lookups(today: date) -> Iterator[tuple[date, Lookup]]:
    for i, domain in enumerate(_domains()):
        base = 20 + (i * 37) % 70
        for back in range(DAYS):
            day, n = today - timedelta(days=back), DAYS - back
            dr = round(base + _wave(i, n, 180, 4) + n * 0.004)
            yield (
                day,
                Lookup(
                    domain=domain,
                    authority=Authority(
                        dr=min(dr, 100),
                        true_dr=min(100, dr + 3 + round(_wave(i, n, 90, 2))),
                        trust_score=min(100, dr + 5),
                        confidence="high",
                        traffic_validated=True,
                    ),
                    evidence=Evidence(
                        traffic=round(10_000 * (1 + i) * (1 + 0.2 * math.sin(n / 30))),
                        referring_domains=300 + 10 * i + n // 7,
                        backlinks=3000 + 100 * i + n,
                        gained_domains=n % 7,
                        lost_domains=n % 5,
                        global_rank=100_000 - 500 * i,
                    ),
                    verified=True,
                ),
            )


def _tracked(today: date) -> Iterator[tuple[date, TrackedKeywords]]:
    for back in range(DAYS):
        day, n = today - timedelta(days=back), DAYS - back
        keywords = []
        for k in range(KEYWORDS):
            position = max(1, round(5 + (k * 7) % 60 + _wave(k, n, 120, 6)))
            keywords.append(
                TrackedKeyword(
                    id=f"t{k}",
                    keyword=f"keyword {k:03d}",
                    snapshot=KeywordSnapshot(
                        median_dr=40 + k % 30,
                        gap=(40 + k % 30) - 45,
                        min_dr=20,
                        user_dr=45,
                        tier="boost",
                        search_volume=100 * (k + 1),
                        user_position=position,
                        prev_position=position + 1,
                    ),
                    impressions=50 * k,
                )
            )
        yield day, TrackedKeywords(website=TrackedWebsite(slug=SITE_SLUG), keywords=keywords)


def fill_store(url: str, today: date) -> FrameSource:
    """Record the history into the store at ``url``; the same rows, read back, as an in-memory source."""
    from store import HistoryStore

    with HistoryStore.open(url) as store:
        for domain in _domains()[1:]:
            store.watchlist.watch(ACCOUNT, "domain", domain)
        store.snapshots.seed(ACCOUNT, lookups=_lookups(today), trackeds=_tracked(today), source="job")
        return FrameSource(
            domains=store.queries.domain_history(ACCOUNT, _domains(), None),
            keywords=store.queries.keyword_history(ACCOUNT, None, None),
            watch=[
                (item.kind, item.subject, item.origin, item.site) for item in store.watchlist.entries(ACCOUNT)
            ],
        )


def _pick_domains(at: AppTest) -> None:
    at.multiselect(key="history_domains").set_value(_domains()[:8]).run()


VIEWS = (
    View("domain trends: your site and 3 competitors, 90 days", {}),
    View("domain trends: 8 domains, two years", {"history_period": "All"}, _pick_domains),
    View(
        "keyword positions: 200 keywords, two years",
        {"history_tab": "Keyword positions", "history_kw_period": "All"},
    ),
)


def _session(view: View) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
    for name, value in view.query.items():
        at.query_params[name] = value
    at.switch_page("views/history.py")
    at.run()
    view.pick(at)
    at.run()  # warm: every query, frame and figure of the view has been made once
    if at.exception:
        raise RuntimeError(f"{view.name}: {[e.value for e in at.exception]}")
    return at


def _read_times(source: HistorySource, repeats: int = 5) -> dict[str, float]:
    """Median seconds of the reads behind each view, straight from ``source``."""
    reads = {
        "4 domains, 90 days": lambda: source.domain_history(
            _domains()[:4], date.today() - timedelta(days=89)
        ),
        "8 domains, two years": lambda: source.domain_history(_domains()[:8], None),
        "200 keywords' summary, two years": lambda: source.keyword_summary(SITE_SLUG, None, None),
        "8 keywords' days, two years": lambda: source.keyword_days(SITE_SLUG, CHARTED, None, None),
    }
    times = {}
    for name, read in reads.items():
        samples = []
        for _ in range(repeats):
            started = time.perf_counter()
            read()
            samples.append(time.perf_counter() - started)
        times[name] = statistics.median(samples)
    return times


def _recorded(memory: FrameSource) -> str:
    return f"{len(memory.domains)} domain-days and {len(memory.keywords)} keyword-days"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reruns", type=int, default=15)
    args = parser.parse_args(argv)

    figures = Figures()
    with filled_store(fill_store, _recorded) as (url, memory):
        for view in VIEWS:
            session = functools.partial(_session, view)
            compare_warm(figures, view.name, session, memory, reruns=args.reruns, target=TARGET)
        from store import HistoryStore

        with HistoryStore.open(url) as store:
            uncached = _read_times(StoreSource(store, ACCOUNT))
        in_memory_reads = _read_times(memory)
        for name, seconds in uncached.items():
            figures.show(
                f"uncached read, {name}, store", seconds, "s", baseline=in_memory_reads[name], base="memory"
            )
    return figures.exit_code()


if __name__ == "__main__":
    sys.exit(main())
