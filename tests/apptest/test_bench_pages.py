"""The benchmarks' pages and probes in AppTest: the baseline pages draw what they stand for, the page
profiler times reruns, and a Live-mode server never loads the embedded sandbox (P4 relies on it)."""

from __future__ import annotations

import os
import re
import subprocess
import sys

from streamlit.testing.v1 import AppTest

from bench.harness import ROOT


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
