"""The benchmark harness itself runs: a sandbox process starts, counts requests, and figures print."""

from __future__ import annotations

import re

import pytest

from bench.harness import PAGE_VISITS, ROOT, Figures, sandbox_process
from client import ApiClient


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
    """A page added to app.py without a PageVisit would silently escape P1 and P3."""
    source = (ROOT / "app.py").read_text()
    paths = set(re.findall(r'url_path="([^"]+)"', source))
    # The default page is served at the root: "/overview" would be "Page not found".
    default = re.search(r'url_path="([^"]+)",\s*default=True', source)
    assert default is not None
    expected = (paths - {default.group(1)}) | {""}
    assert expected <= {v.path for v in PAGE_VISITS}
    assert default.group(1) not in {v.path for v in PAGE_VISITS}
