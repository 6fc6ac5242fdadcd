"""The benchmarks' pages and probes in AppTest: the baseline pages draw what they stand for, each page
view draws what P3 holds it against (a chart, a table, neither), the page profiler times reruns, and
a Live-mode server never loads the embedded sandbox (P4 relies on it)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from urllib.parse import parse_qsl

import pytest
from streamlit.testing.v1 import AppTest

from bench.harness import PAGE_VISITS, ROOT, PageVisit
from components.core.nav import pages
from store import HistoryStore
from tests.apptest.app_pages import open_page


def test_the_baseline_pages_draw_what_they_stand_for() -> None:
    """P3 and P4 compare the app with these pages: they must show what they stand for."""
    stack = AppTest.from_file(str(ROOT / "bench" / "stack_app.py"), default_timeout=30).run()
    assert not stack.exception
    assert len(stack.dataframe) == 1 and len(stack.get("plotly_chart")) == 1
    table = AppTest.from_file(str(ROOT / "bench" / "table_app.py"), default_timeout=30).run()
    assert not table.exception
    assert [t.value for t in table.title] == ["Table floor page"]
    assert len(table.dataframe) == 1 and not table.get("plotly_chart") and not table.markdown
    nav = AppTest.from_file(str(ROOT / "bench" / "bare_nav_app.py"), default_timeout=30).run()
    assert not nav.exception
    assert [t.value for t in nav.title] == ["First page"]


LIBRARIES_LOADED = """
import sys
from streamlit.testing.v1 import AppTest
at = AppTest.from_file("bench/library_floor_app.py", default_timeout=60).run()
assert not at.exception, at.exception
assert len(at.dataframe) == 1 and len(at.get("plotly_chart")) == 1
print(sorted(m for m in sys.argv[1:] if m in sys.modules))
"""
#: What every app server loads before it draws a Trust Map (redis-py: one with a Redis URL).
APP_LIBRARIES = ["httpx", "pydantic_settings", "redis", "sqlalchemy.orm", "tldextract"]


def test_the_library_floor_draws_the_stack_floor_with_the_apps_libraries_loaded() -> None:
    """P4 splits the app's memory into libraries and its own code with this page: it must draw what the
    stack floor draws, in a process that has loaded the libraries every app server loads."""
    command = [sys.executable, "-c", LIBRARIES_LOADED, *APP_LIBRARIES]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120, check=True)
    assert done.stdout.strip().splitlines()[-1] == str(APP_LIBRARIES)


#: Cards and text P3's first-content figure waits for after a page's title and description.
CONTENT_KINDS = (
    "metric",
    "markdown",
    "caption",
    "subheader",
    "header",
    "info",
    "warning",
    "error",
    "success",
    "code",
)


@pytest.mark.parametrize("visit", PAGE_VISITS, ids=lambda visit: visit.name)
def test_each_page_view_draws_what_its_p3_floor_stands_for(visit: PageVisit, own_store: HistoryStore) -> None:
    """P3 holds a page with a plotly chart against the stack floor, one with a table and no chart
    against the table floor, and the rest against the bare page: the class must be what the page
    draws, opened as the benchmark opens it (Live against the sandbox, an empty history)."""
    (page,) = [p for p in pages.ALL if (p.url_path == visit.path or (p.default and not visit.path))]
    at = open_page(None if page.default else page.file, **dict(parse_qsl(visit.query)))
    assert not at.exception, at.exception
    charts, tables = len(at.main.get("plotly_chart")), len(at.main.dataframe)
    drawn = "chart" if charts else "table" if tables else "text"
    assert drawn == visit.draws, f"{visit.name} draws {charts} charts and {tables} tables"
    kinds = [node.type for node in _elements(at.main)]
    after_header = kinds[kinds.index("title") + 1 :]
    if after_header[:1] == ["caption"]:  # the page's own description
        after_header = after_header[1:]
    assert set(after_header) & set(CONTENT_KINDS), f"{visit.name} shows no card or text: {kinds}"


def _elements(node: object) -> list[object]:
    """The page's elements in order, blocks (columns, tabs, containers) flattened."""
    children = getattr(node, "children", None)
    if children is None:
        return [node]
    values = children.values() if isinstance(children, dict) else children
    return [element for child in values for element in _elements(child)]


LIVE_RUN = """
import sys
from streamlit.testing.v1 import AppTest
at = AppTest.from_file("app.py", default_timeout=60)
at.query_params["domain"] = "stripe.com"
at.run()
assert not at.exception, at.exception
print(sorted(m for m in sys.modules if m.startswith("sandbox")))
"""


def test_a_live_server_does_not_load_the_sandbox() -> None:
    """Memory on a shared server: the embedded demo API and its data load only in Sandbox mode."""
    env = {
        **os.environ,
        "VERIFIEDDR_API_KEY": "vdr_live_example",
        "VERIFIEDDR_API_BASE": "http://127.0.0.1:9",
    }
    done = subprocess.run(
        [sys.executable, "-c", LIVE_RUN], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    loaded = done.stdout.strip().splitlines()[-1]
    assert "sandbox.server" not in loaded and "sandbox.data" not in loaded
    assert "sandbox.accounts" in loaded  # the probe sees the package: the demo keys are read from it


def test_the_page_profiler_times_reruns_and_prints_a_profile() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bench.profile_page", "categories", "--reruns", "2", "--tree", "40"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert re.search(r"^rerun_categories: [\d.]+ ms \(ratio [\d.]+ vs bare page", done.stdout, re.M)
    assert re.search(r"^full_garbage_collection: [\d.]+ ms", done.stdout, re.M)
    assert "views/categories.py" in done.stdout  # the profile reaches into the page's own code
