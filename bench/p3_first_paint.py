"""P3: first paint per page against the floor of what it draws, first content, and warm page switches.

Four baselines are measured in the same run: a one-line Streamlit page (the bare page), the stack's
floor (one line, one small table, one small plotly chart), the table's floor (one line, one small
``st.dataframe``) and, for page switches, two one-line pages in Streamlit's own navigation. Each page
view of ``rigs.page_visits.PAGE_VISITS`` is held against the floor of what it draws (``PageVisit.draws``);
the floors' servers run for the whole run and are loaded again before each page held against them
(and the bare page before every page), so both sides of a ratio see the same machine.

- Cold: a fresh browser context (empty browser cache, a new Streamlit session) opens the page. One
  navigation gives two times, both taken inside the page from the navigation's start to the first
  animation frame at which they hold: **ready**, the page's main element on screen, and **first
  content**, the page's title and its first card or text after the page's own description (a metric,
  an alert, a heading, markdown or a caption of the current run). The first of the repeats also finds
  the server's data cache cold. Targets: ready ≤ 1.10 × the stack floor for a page with a plotly
  chart, ≤ 1.15 × the table floor for a page with a table and no chart, ≤ 1.3 × the bare page for
  the rest; first content ≤ 1.5 × the bare page's first paint on every page.
- Returning browser (``--returning``): the same in a context that has opened the page once before,
  so the static front-end files come from the browser's cache. Reported, not a target.
- Warm page switch: in one session, clicking between pages in the sidebar once their data is
  cached, timed inside the page from the click until the new page's heading and main element are
  on screen. Target: the 90th percentile ≤ 300 ms on every page.

    .venv/bin/python -m bench.p3_first_paint            # everything (about 10 minutes on 2 cores)
    .venv/bin/python -m bench.p3_first_paint --quick    # 2 repeats, 3 switch rounds, 5 pages
    .venv/bin/python -m bench.p3_first_paint --pages trust-map categories --switch-rounds 8
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import sys
from dataclasses import dataclass, field
from typing import Any

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from bench.harness import Figures, chromium, wait_until_idle
from bench.page_loads import VIEWPORT, Load, cold_loads, median, returning_loads
from rigs.page_visits import PAGE_VISITS, Draws, PageVisit
from rigs.processes import app_process, sandbox_process

REPEATS = 5
SWITCH_ROUNDS = 8
QUICK_PAGES = ("overview", "trust-map", "categories", "site-check", "activity")
LATENCY_MS = 50
#: Each class of page against its floor: (baseline name, highest ratio).
COLD_TARGETS: dict[Draws, tuple[str, float]] = {
    "chart": ("stack floor", 1.10),
    "table": ("table floor", 1.15),
    "text": ("bare page", 1.3),
}
FIRST_CONTENT_TARGET = 1.5
SWITCH_TARGET_S = 0.300
#: The domain a marketer types once; the app keeps it across sidebar switches.
SWITCH_DOMAIN = "example.com"
CHART = ".js-plotly-plot .main-svg"
TABLE = '[data-testid="stDataFrame"]'


def _p90(times: list[float]) -> float:
    return statistics.quantiles(times, n=10, method="inclusive")[-1] if len(times) > 1 else times[0]


#: Clicks a link and resolves with the milliseconds until ``heading`` and ``ready`` are on screen,
#: timed inside the page (from the click to the first animation frame after both appear), so the
#: figure holds the app's response and not the test driver's own round trips.
_SWITCH_JS = """
([link, heading, ready]) => new Promise((resolve, reject) => {
  const shown = () => {
    const titled = [...document.querySelectorAll('[data-stale="false"] h1')]
      .some((h) => h.textContent.includes(heading));
    const element = document.querySelector(ready);
    return titled && element !== null && element.getBoundingClientRect().height > 0;
  };
  const started = performance.now();
  const watcher = new MutationObserver(() => {
    if (shown()) {
      watcher.disconnect();
      requestAnimationFrame(() => resolve(performance.now() - started));
    }
  });
  watcher.observe(document.body, { subtree: true, childList: true, attributes: true });
  setTimeout(() => { watcher.disconnect(); reject(new Error("not shown in 30 s")); }, 30000);
  link.click();
})
"""


def _time_switch(page: Any, link: str, heading: str, ready: str) -> float:
    """Seconds from a sidebar click until the new page's heading and main element are on screen."""
    nav = page.locator('[data-testid="stSidebarNav"]').get_by_role("link", name=link, exact=True)
    took_ms = page.evaluate(_SWITCH_JS, [nav.element_handle(), heading, ready])
    wait_until_idle(page)
    return float(took_ms) / 1000


def _bare_switch_times(browser: Any, url: str, rounds: int) -> list[float]:
    context = browser.new_context(viewport=VIEWPORT)
    page = context.new_page()
    page.goto(url)
    wait_until_idle(page)
    times = []
    for _ in range(rounds):
        for title in ("Second page", "First page"):
            times.append(_time_switch(page, title, title, '[data-stale="false"] h1'))
    context.close()
    return times


def _switch_times(
    browser: Any, base: str, visits: tuple[PageVisit, ...], rounds: int
) -> tuple[dict[str, list[float]], list[str]]:
    """Click between pages in the sidebar navigation once each page's data is cached.

    One session, opened on the first page with a domain in its URL: sidebar links carry no query,
    and the app keeps the domain for the next page. A page that needs more than a domain (a
    keyword) comes back without its view: it is named and left out of the timing.
    """
    context = browser.new_context(viewport=VIEWPORT)
    page = context.new_page()
    page.goto(f"{visits[0].url(base).split('?')[0]}?domain={SWITCH_DOMAIN}")
    # Only a finished run has noted the domain: a click before it would open the next page empty.
    page.locator(visits[0].fresh(visits[0].ready)).first.wait_for(timeout=60_000)
    wait_until_idle(page)
    kept, lost = [], []
    for visit in visits:  # warm every page's data, and see which views survive a sidebar switch
        nav = page.locator('[data-testid="stSidebarNav"]')
        nav.get_by_role("link", name=visit.title, exact=True).click()
        page.locator('[data-stale="false"] h1', has_text=visit.shown_heading).first.wait_for(timeout=60_000)
        wait_until_idle(page, timeout_ms=60_000)
        try:  # the script has finished; its element may still wait for its front-end code
            page.locator(visit.fresh(visit.ready)).first.wait_for(state="visible", timeout=15_000)
            kept.append(visit)
        except PlaywrightTimeout:
            lost.append(visit)
    by_page: dict[str, list[float]] = {visit.name: [] for visit in kept}
    for _ in range(rounds):
        for visit in kept:
            by_page[visit.name].append(
                _time_switch(page, visit.title, visit.shown_heading, visit.fresh(visit.ready))
            )
    context.close()
    return by_page, [v.name for v in lost]


@dataclass
class Floor:
    """A baseline page on its own server, with its cold ready times so far."""

    name: str
    url: str
    ready: str
    samples: list[float] = field(default_factory=list)

    def sample(self, browser: Any, repeats: int = 1) -> None:
        self.samples += [load.ready for load in cold_loads(browser, self.url, self.ready, repeats)]

    @property
    def median(self) -> float:
        return statistics.median(self.samples)


FLOOR_PAGES = (
    ("bare page", "bench/bare_app.py", "h1"),
    ("stack floor", "bench/stack_app.py", CHART),
    ("table floor", "bench/table_app.py", TABLE),
)


def _floors(browser: Any, servers: contextlib.ExitStack, repeats: int) -> dict[str, Floor]:
    """The bare page, the stack floor and the table floor, each on its own server for the whole run:
    each is sampled again before every page that is held against it, so a ratio's two sides share
    the machine's conditions even when its load drifts during the run."""
    floors = {}
    for name, script, ready in FLOOR_PAGES:
        server = servers.enter_context(app_process(script))
        floors[name] = Floor(name, server.url, ready)
        cold_loads(browser, server.url, ready, 1)  # the server's own first run
        floors[name].sample(browser, repeats)
    return floors


def _floor_figures(figures: Figures, floors: dict[str, Floor]) -> dict[str, float]:
    bare = floors["bare page"].median
    for floor in floors.values():
        tag, count = floor.name.replace(" ", "_"), f"{len(floor.samples)} loads"
        if floor.name == "bare page":
            figures.show(f"p3_{tag}_cold", bare, "s")
        else:
            figures.show(f"p3_{tag}_cold", floor.median, "s", baseline=bare, base="bare page")
        print(f"  {floor.name}: median of {count} spread over the run", flush=True)
    return {name: floor.median for name, floor in floors.items()}


def _page_figures(
    figures: Figures, visit: PageVisit, loads: list[Load], floors: dict[str, float]
) -> tuple[str, ...]:
    """Print one page view's cold figures and targets; return its row of the summary table."""
    bare = floors["bare page"]
    floor_name, limit = COLD_TARGETS[visit.draws]
    floor = floors[floor_name]
    cold, content = median(loads), median(loads, "content")
    figures.show(f"p3_cold_{visit.name}", cold, "s", baseline=floor, base=floor_name)
    figures.show(f"p3_first_content_{visit.name}", content, "s", baseline=bare, base="bare page")
    cold_ok, content_ok = cold <= limit * floor, content <= FIRST_CONTENT_TARGET * bare
    figures.target(
        f"P3 cold {visit.name} ({visit.draws}) ≤ {limit} × {floor_name}",
        cold_ok,
        f"{cold / floor:.2f} ×, {cold:.2f} s; {cold / bare:.2f} × the bare page",
    )
    figures.target(
        f"P3 first content {visit.name} ≤ {FIRST_CONTENT_TARGET} × bare page",
        content_ok,
        f"{content / bare:.2f} ×, {content:.2f} s",
    )
    return (
        visit.name,
        visit.draws,
        f"{cold / floor:.2f} × {floor_name} (≤ {limit})",
        f"{content / bare:.2f} × bare (≤ {FIRST_CONTENT_TARGET})",
        "met" if cold_ok and content_ok else "MISSED",
    )


def _switch_figures(
    figures: Figures, by_page: dict[str, list[float]], lost: list[str], bare_switch: float
) -> None:
    for name, times in by_page.items():
        p90 = _p90(times)
        print(f"p3_switch_{name}: median {statistics.median(times) * 1000:.0f} ms, p90 {p90 * 1000:.0f} ms")
        figures.target(f"P3 warm switch {name} p90 ≤ 300 ms", p90 <= SWITCH_TARGET_S, f"{p90 * 1000:.0f} ms")
    if lost:
        print(f"  view lost on a sidebar switch (not timed): {', '.join(lost)}")
    every = [t for times in by_page.values() for t in times]
    figures.show(
        "p3_warm_page_switch_median", statistics.median(every), "s", baseline=bare_switch, base="bare switch"
    )
    figures.show("p3_warm_page_switch_p90", _p90(every), "s", baseline=bare_switch, base="bare switch")
    worst = max(by_page, key=lambda name: _p90(by_page[name]))
    figures.target(
        "P3 warm page switch p90 ≤ 300 ms on every page",
        all(_p90(times) <= SWITCH_TARGET_S for times in by_page.values()),
        f"{len(every)} switches over {len(by_page)} pages; overall p90 {_p90(every) * 1000:.0f} ms; "
        f"slowest {worst} at {_p90(by_page[worst]) * 1000:.0f} ms",
    )


def _print_table(rows: list[tuple[str, ...]], by_page: dict[str, list[float]]) -> None:
    """Every page's figures as one Markdown table (the benchmarks guide's P3 rows)."""
    print(
        "\n| Page | Draws | Cold vs its floor | First content vs bare | Warm switch median / p90 | Targets |"
    )
    print("|---|---|---|---|---|---|")
    for name, draws, cold, content, met in rows:
        times = by_page.get(name)
        switch = f"{statistics.median(times) * 1000:.0f} / {_p90(times) * 1000:.0f} ms" if times else "—"
        met = "MISSED" if times and _p90(times) > SWITCH_TARGET_S else met
        print(f"| {name} | {draws} | {cold} | {content} | {switch} | {met} |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="2 repeats, 3 switch rounds, a few pages")
    parser.add_argument("--pages", nargs="+", choices=[v.name for v in PAGE_VISITS], metavar="page")
    parser.add_argument("--repeats", type=int, help=f"cold loads per page (default {REPEATS})")
    parser.add_argument("--switch-rounds", type=int, help=f"switches per page (default {SWITCH_ROUNDS})")
    parser.add_argument("--returning", action="store_true", help="also time new tabs with files cached")
    args = parser.parse_args(argv)
    repeats = args.repeats or (2 if args.quick else REPEATS)
    rounds = args.switch_rounds or (3 if args.quick else SWITCH_ROUNDS)
    chosen = args.pages or (QUICK_PAGES if args.quick else [v.name for v in PAGE_VISITS])
    visits = tuple(v for v in PAGE_VISITS if v.name in chosen)

    figures = Figures()
    loads: dict[str, list[Load]] = {}
    with chromium() as browser, contextlib.ExitStack() as servers:
        floors = _floors(browser, servers, repeats)
        if args.returning:
            bare = floors["bare page"]
            returning_bare = median(returning_loads(browser, bare.url, bare.ready, 3))
            figures.show("p3_bare_page_returning", returning_bare, "s")
        with app_process("bench/bare_nav_app.py") as nav:
            bare_switch = statistics.median(_bare_switch_times(browser, nav.url, rounds=max(rounds, 5)))
        figures.show("p3_bare_page_switch_median", bare_switch, "s")

        with sandbox_process(latency_ms=LATENCY_MS) as sandbox, app_process(api_base=sandbox.base_url) as app:
            cold_loads(browser, app.url, "h1", 1)  # the server's own first run, not a page's
            for visit in visits:
                floors["bare page"].sample(browser)
                if visit.draws != "text":
                    floors[COLD_TARGETS[visit.draws][0]].sample(browser)
                loads[visit.name] = cold_loads(
                    browser, visit.url(app.url), visit.ready, repeats, content=True
                )
                print(
                    f"  {visit.name}: ready {median(loads[visit.name]):.2f} s, "
                    f"first content {median(loads[visit.name], 'content'):.2f} s",
                    flush=True,
                )
                if args.returning:
                    again = median(returning_loads(browser, visit.url(app.url), visit.ready, 3))
                    figures.show(
                        f"p3_returning_{visit.name}", again, "s", baseline=returning_bare, base="bare page"
                    )
            medians = _floor_figures(figures, floors)
            rows = [_page_figures(figures, visit, loads[visit.name], medians) for visit in visits]
            distinct = tuple({v.title: v for v in visits if v.title}.values())
            by_page, lost = _switch_times(browser, app.url, distinct, rounds)
            _switch_figures(figures, by_page, lost, bare_switch)
    _print_table(rows, by_page)
    return figures.exit_code()


if __name__ == "__main__":
    sys.exit(main())
