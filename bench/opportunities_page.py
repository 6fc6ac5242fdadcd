"""Opportunities page: a warm rerun with 50 suggestions, against the same page fed from memory.

The demo key's history as the app seeds it (180 days: the site's DR, its watched keywords' top 10s, its
tracked keywords) in a fresh SQLite store, and an in-process sandbox (Live mode) whose keyword
suggestions for the site are 50 (positions 4–30, with volumes). The page is opened in AppTest for the
site and its missing top 10s are read once with its button, so every keyword has its top 10 and its
score: the full list of 50 suggestions and the site's tracked and watched keywords. That session's
reruns are "the store": each one reads the site's keywords as the page does (the history through the
store, the two listing reads through the app's cache, the top 10s it read kept in the session).

The baseline is the same page with the list already in memory: a second session in which
``page_candidates`` answers the very list the first session built (no store or cache read behind it) and
``history.page_source`` answers the same rows held in memory (``bench.store_vs_memory.pages_reading``).
Both sessions are rerun alternately, so both meet the same machine load; figures are medians.

Target: the warm rerun ≤ 1.5 × the same page fed from memory.

    .venv/bin/python -m bench.opportunities_page [--reruns 21]
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import os
import statistics
import sys
import tempfile
from collections.abc import Callable, Iterator
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any
from unittest import mock

from streamlit.testing.v1 import AppTest

import components.opportunities.widgets as opportunity_widgets
from analysis.links import OPPORTUNITIES_SITE_PARAM
from bench.harness import Figures
from bench.store_vs_memory import pages_reading, timed
from client.models import Suggestion
from client.settings import key_fingerprint
from components.core.history.source import StoreSource
from components.core.history.store import seed_demo_history
from components.opportunities.widgets.reads import READ_KEY
from rigs.processes import DEMO_KEY, ROOT
from services.opportunities import Candidates
from store import HistoryStore

SITE = "northwind-coffee.com"
SUGGESTIONS = 50
TARGET = 1.5
ACCOUNT = key_fingerprint(DEMO_KEY)


def fifty_suggestions(domain: str) -> list[Suggestion]:
    """The sandbox's suggestions, with ``SUGGESTIONS`` of them for the benchmark's site."""
    return [
        Suggestion(
            keyword=f"coffee bench keyword {i:02d}", position=4 + (i * 7) % 27, search_volume=100 + i * 37
        )
        for i in range(SUGGESTIONS if domain == SITE else 0)
    ]


class HeldSource:
    """The store's rows read once and held: every later read answers the very object read before (as
    the store's cached answers are), so the baseline reads no store at all."""

    def __init__(self, source: StoreSource) -> None:
        self._source = source
        self._held: dict[tuple[Any, ...], Any] = {}

    def __getattr__(self, name: str) -> Callable[..., Any]:
        read = getattr(self._source, name)

        def held(*args: Any) -> Any:
            key = (name, *(tuple(a) if isinstance(a, list) else a for a in args))
            if key not in self._held:
                self._held[key] = read(*args)
            return self._held[key]

        return held


@contextlib.contextmanager
def list_in_memory(held: Candidates) -> Iterator[mock.Mock]:
    """While the block runs, the page's list is ``held``: no store or cache read builds it."""
    with mock.patch.object(
        opportunity_widgets, "page_candidates", side_effect=lambda *_a, **_k: held
    ) as built:
        yield built


@contextlib.contextmanager
def sandbox_and_store(folder: Path, today: date) -> Iterator[str]:
    """The app (in this process) in Live mode against an in-process sandbox with 50 suggestions for the
    site, its history the demo's, seeded into a fresh SQLite file."""
    from sandbox import SandboxServer

    url = f"sqlite:///{folder / 'history.sqlite3'}"
    with HistoryStore.open(url) as store:
        seed_demo_history(store, ACCOUNT, DEMO_KEY, today)
    with (
        mock.patch("sandbox.routes.suggestions", fifty_suggestions),
        SandboxServer(host="127.0.0.1", port=0) as sandbox,
    ):
        os.environ.update(
            {
                "DASHBOARD_DATABASE_URL": url,
                "VERIFIEDDR_API_BASE": sandbox.base_url,
                "VERIFIEDDR_API_KEY": DEMO_KEY,
            }
        )
        yield url


def session() -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
    at.query_params[OPPORTUNITIES_SITE_PARAM] = SITE
    at.switch_page("views/opportunities.py")
    at.run()
    if at.exception:
        raise RuntimeError(f"the page failed: {[e.value for e in at.exception]}")
    return at


def shown_rows(at: AppTest) -> int:
    tables = [frame.value for frame in at.dataframe if "score" in frame.value.columns]
    return len(tables[0]) if tables else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reruns", type=int, default=21)
    args = parser.parse_args(argv)
    figures = Figures()
    with (
        tempfile.TemporaryDirectory(prefix="bench-opportunities-") as name,
        sandbox_and_store(Path(name), datetime.now(UTC).date()) as url,
    ):
        stored = session()
        stored.button(key=READ_KEY).click().run()  # every missing top 10 read once, kept in the session
        built: list[Candidates] = []
        original = opportunity_widgets.page_candidates

        def keep(*args: Any, **kwargs: Any) -> Candidates:
            built.append(original(*args, **kwargs))
            return built[-1]

        with mock.patch.object(opportunity_widgets, "page_candidates", side_effect=keep):
            stored.run()
        held_list = copy.deepcopy(built[-1])
        scored = sum(1 for row in held_list.rows.values() if row["top10_from"])
        print(f"the list: {len(held_list.rows)} keywords ({SUGGESTIONS} suggestions), {scored} with a top 10")
        with HistoryStore.open(url) as store:
            memory = HeldSource(StoreSource(store, ACCOUNT))
            with pages_reading(memory) as page_source, list_in_memory(held_list) as from_memory:
                in_memory = session()
                in_memory.run()
            if not (page_source.called and from_memory.called):
                raise RuntimeError("the baseline never read from memory")
            if shown_rows(in_memory) != shown_rows(stored) or not shown_rows(stored):
                raise RuntimeError(
                    f"the two pages differ: {shown_rows(stored)} vs {shown_rows(in_memory)} rows"
                )
            store_times, memory_times = [], []
            for _ in range(args.reruns):
                store_times.append(timed(stored.run))
                with pages_reading(memory), list_in_memory(held_list):
                    memory_times.append(timed(in_memory.run))
    store_s, memory_s = statistics.median(store_times), statistics.median(memory_times)
    figures.show(
        "Opportunities page, 50 suggestions, warm rerun", store_s, "s", baseline=memory_s, base="in memory"
    )
    ratio = store_s / memory_s
    figures.target(f"warm rerun ≤ {TARGET} × in memory", ratio <= TARGET, f"ratio {ratio:.2f}")
    return figures.exit_code()


if __name__ == "__main__":
    sys.exit(main())
