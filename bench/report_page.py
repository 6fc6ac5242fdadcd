"""The Reports page's and a share link's first view and warm rerun, against the Market page's, measured
side by side in one run.

The demo key's history as the app seeds it (Sandbox mode), in a temporary SQLite file, with a share link
to its first site's report of last month; each measurement starts from a copy of that file. For each
page a fresh app process (nothing cached in it: neither the history's answers nor a report, its
chart renderer not started) is asked for the page by one Streamlit session (``rigs.streamlit_session``:
a browser's session without the browser, timed from the request to the run's end); that is the first
view. The same page asked again by a new session is the warm rerun. A report's charts, once drawn, are
kept in the history database for every process (``services.reports.drawings``), so the Reports page
and the share link are measured twice: on a copy where no process drew the report yet ("never
drawn": this process starts a browser and draws every chart), and then by a second fresh process on
the same copy ("drawn before": a replica or a restarted app opening a report another process drew).
Rounds alternate the pages' order, so all meet the same machine load; figures are the medians over
``--rounds``.

Targets: the Reports page's and the share link's first view ≤ 1.5 × the Market page's first view,
their warm reruns ≤ 1.2 × the Market page's warm rerun.

    .venv/bin/python -m bench.report_page [--rounds 3]
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import statistics
import sys
import tempfile
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from bench.harness import Figures
from client.settings import key_fingerprint
from components.core.history.store import seed_demo_history
from rigs.processes import DEMO_KEY, app_process
from rigs.streamlit_session import PageRun, StreamlitSession
from sandbox.clock import today
from store import HistoryStore
from store.reports.period import last_month
from store.watchlist import own_sites

FIRST_TARGET = 1.5
WARM_TARGET = 1.2


@dataclass(frozen=True)
class View:
    """A page as the benchmark asks for it: its URL path and query."""

    name: str
    path: str
    query: str = ""


async def _ask(url: str, view: View) -> PageRun:
    async with await StreamlitSession.open(url) as session:
        return await session.run(view.path, view.query, timeout_s=180)


def first_and_warm(database_url: str, view: View) -> tuple[float, float]:
    """Seconds of ``view``'s first run on a fresh app process, and of a new session's run after it."""
    with app_process(database_url=database_url) as app:
        runs = [asyncio.run(_ask(app.url, view)) for _ in range(2)]
    for run in runs:
        if not run.ok:
            raise RuntimeError(f"{view.name}: the page run ended with {run.outcome}")
    return runs[0].seconds, runs[1].seconds


def seeded_history(folder: Path) -> tuple[Path, str]:
    """The demo history in a new SQLite file, and a share link's token to its first site's last month."""
    path = folder / "history.sqlite3"
    url = f"sqlite:///{path}"
    account = key_fingerprint(DEMO_KEY)
    with HistoryStore.open(url) as store:
        seed_demo_history(store, account, DEMO_KEY, today())
        site = own_sites(store.watchlist.entries(account))[0]
        _, token = store.report_links.create_report_link(
            account, site, last_month(today()), "bench", now=datetime.now(UTC)
        )
    return path, token


def fresh_copy(template: Path, folder: Path, name: str) -> str:
    """A copy of the seeded history (no report drawn in it yet), as a database URL."""
    copy = folder / f"{name}.sqlite3"
    shutil.copyfile(template, copy)
    return f"sqlite:///{copy}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    rounds = parser.parse_args().rounds
    figures = Figures()
    with tempfile.TemporaryDirectory(prefix="bench-report-page-") as name:
        folder = Path(name)
        template, token = seeded_history(folder)
        share = View("share link", "", f"report={token}")
        views = [View("market", "market"), View("reports", "reports"), share]
        times: dict[str, tuple[list[float], list[float]]] = {}
        for number in range(rounds):
            for view in views[number % 3 :] + views[: number % 3]:
                url = fresh_copy(template, folder, f"{number}-{view.name}")
                cases = ["never drawn", "drawn before"] if view.name != "market" else [""]
                for case in cases:
                    first, warm = first_and_warm(url, view)
                    label = f"{view.name}, {case}" if case else view.name
                    times.setdefault(label, ([], []))
                    times[label][0].append(first)
                    times[label][1].append(warm)
                    print(f"round {number + 1}, {label}: first {first:.2f} s, warm {warm:.2f} s", flush=True)
    market_first, market_warm = (statistics.median(t) for t in times["market"])
    figures.show("Market page, first view", market_first, "s")
    figures.show("Market page, warm rerun", market_warm, "s")
    for name in [label for label in times if label != "market"]:
        first, warm = (statistics.median(t) for t in times[name])
        figures.show(f"{name}, first view", first, "s", baseline=market_first, base="the Market page's")
        figures.target(f"{name} first view", first / market_first <= FIRST_TARGET, f"≤ {FIRST_TARGET} ×")
        figures.show(f"{name}, warm rerun", warm, "s", baseline=market_warm, base="the Market page's")
        figures.target(f"{name} warm rerun", warm / market_warm <= WARM_TARGET, f"≤ {WARM_TARGET} ×")
    return figures.exit_code()


if __name__ == "__main__":
    sys.exit(main())
