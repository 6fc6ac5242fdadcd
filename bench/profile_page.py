"""Where a cached page's server time goes: time and profile one page's reruns.

    .venv/bin/python -m bench.profile_page trust-map domain=stripe.com
    .venv/bin/python -m bench.profile_page keyword-research keyword=crm+software --reruns 30

The app runs under ``AppTest`` in Live mode against an in-process sandbox. The page's data is
fetched once, then its reruns (all answered from the cache) are timed side by side with reruns of
the bare one-line page, and profiled with pyinstrument. Streamlit runs a script in its own thread,
so the profiler is started around each script execution (a wrapper around Streamlit's
``exec_func_with_error_handling``). Also printed: what one full garbage collection costs in this
process, the pause Streamlit's default ``runner.postScriptGC`` adds after every run (this app turns
it off in ``.streamlit/config.toml``).
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from pyinstrument import Profiler
from streamlit.runtime.scriptrunner import script_runner
from streamlit.testing.v1 import AppTest

from bench.harness import DEMO_KEY, ROOT, Figures
from components.core.nav import pages

#: The pages by url path, the name a page is asked for by on the command line.
PAGES = {page.url_path: page for page in pages.ALL}


@contextmanager
def _profiling_scripts(profiler: Profiler) -> Iterator[None]:
    """Profile every script run (they happen on AppTest's script thread, not this one)."""
    real: Callable[..., Any] = script_runner.exec_func_with_error_handling

    def profiled(*args: Any, **kwargs: Any) -> Any:
        profiler.start()
        try:
            return real(*args, **kwargs)
        finally:
            profiler.stop()

    script_runner.exec_func_with_error_handling = profiled
    try:
        yield
    finally:
        script_runner.exec_func_with_error_handling = real


def _app(page: pages.AppPage, query: list[str]) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    for pair in query:
        name, _, value = pair.partition("=")
        at.query_params[name] = value.replace("+", " ")
    return at.switch_page(page.file)


def _rerun_times(at: AppTest, reruns: int) -> list[float]:
    times = []
    for _ in range(reruns):
        started = time.perf_counter()
        at.run()
        times.append(time.perf_counter() - started)
    return times


def _full_gc_ms() -> float:
    started = time.perf_counter()
    gc.collect(2)
    return (time.perf_counter() - started) * 1000


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("page", choices=PAGES, metavar="page", help="a page's url path, e.g. trust-map")
    parser.add_argument("query", nargs="*", help="query parameters as name=value, e.g. domain=stripe.com")
    parser.add_argument("--reruns", type=int, default=20)
    parser.add_argument("--tree", type=int, default=60, help="lines of the profile to print")
    args = parser.parse_args(argv)

    from sandbox import SandboxServer  # the test double, in this process: no other process to start

    figures = Figures()
    with SandboxServer(host="127.0.0.1", port=0) as sandbox:
        os.environ.update(VERIFIEDDR_API_BASE=sandbox.base_url, VERIFIEDDR_API_KEY=DEMO_KEY)
        bare = AppTest.from_file(str(ROOT / "bench" / "bare_app.py"), default_timeout=60)
        bare.run()
        at = _app(PAGES[args.page], args.query).run()
        if at.exception:
            print(f"the page raised: {at.exception[0].message}", file=sys.stderr)
            return 2
        at.run()  # anything fetched lazily on the first view is cached now
        bare_ms = statistics.median(_rerun_times(bare, args.reruns)) * 1000
        page_ms = statistics.median(_rerun_times(at, args.reruns)) * 1000
        figures.show("rerun_bare_page", bare_ms, "ms")
        figures.show(f"rerun_{args.page}", page_ms, "ms", baseline=bare_ms, base="bare page")
        figures.show(
            "full_garbage_collection", _full_gc_ms(), "ms", baseline=page_ms, base=f"{args.page} rerun"
        )
        profiler = Profiler(interval=0.001)
        with _profiling_scripts(profiler):
            _rerun_times(at, args.reruns)
    text = profiler.output_text(unicode=True, color=False, show_all=False)
    print(f"\nProfile of {args.reruns} reruns (sampled every 1 ms; times are totals):")
    print("\n".join(text.splitlines()[: args.tree]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
