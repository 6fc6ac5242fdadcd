"""The benchmark harness itself runs: a sandbox process starts, counts requests, and figures print."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest
from streamlit.testing.v1 import AppTest

from bench.harness import PAGE_VISITS, ROOT, Figures, sandbox_process
from client import ApiClient
from components.core import pages


def test_sandbox_process_counts_what_it_served() -> None:
    with sandbox_process(latency_ms=0) as sandbox, ApiClient(sandbox.base_url, "vdr_demo") as client:
        client.lookup("stripe.com")
        client.lookup("stripe.com")
        client.categories()
        counts = sandbox.counts()
        assert counts[("GET", "/api/v1/lookup/stripe.com", "")] == 2
        assert sandbox.total() == 3
        sandbox.reset()
        assert sandbox.total() == 0


def test_figures_print_name_value_unit_and_ratio(capsys: pytest.CaptureFixture[str]) -> None:
    figures = Figures()
    figures.show("p9_example", 3.0, "s", baseline=2.0, base="bare")
    figures.target("P9 example", False, "3 s")
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "p9_example: 3.000 s (ratio 1.50 vs bare 2.000 s)"
    assert out[1].startswith("P9 example: MISSED")
    assert figures.exit_code() == 1


def test_every_page_visit_has_a_url_and_a_ready_selector() -> None:
    names = [v.name for v in PAGE_VISITS]
    assert len(names) == len(set(names))
    for visit in PAGE_VISITS:
        assert visit.url("http://127.0.0.1:1").startswith("http://127.0.0.1:1/") and visit.ready


def test_every_page_of_the_app_is_benchmarked() -> None:
    """A page added to the registry without a PageVisit would silently escape P1 and P3."""
    # The default page is served at the root: "/overview" would be "Page not found".
    (default,) = [page.url_path for page in pages.ALL if page.default]
    expected = {page.url_path for page in pages.ALL} - {default} | {""}
    assert expected <= {v.path for v in PAGE_VISITS}
    assert default not in {v.path for v in PAGE_VISITS}


def test_the_baseline_pages_draw_what_they_stand_for() -> None:
    """P3 and P4 compare the app with these pages: they must show what they stand for."""
    stack = AppTest.from_file(str(ROOT / "bench" / "stack_app.py"), default_timeout=30).run()
    assert not stack.exception
    assert len(stack.dataframe) == 1 and len(stack.get("plotly_chart")) == 1
    nav = AppTest.from_file(str(ROOT / "bench" / "bare_nav_app.py"), default_timeout=30).run()
    assert not nav.exception
    assert [t.value for t in nav.title] == ["First page"]


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
