"""The benchmark harness's own bookkeeping: figures print as docs/benchmarks.md shows them, and every page of
the app has a visit for the benchmarks to open (the harness's processes are checked in
tests/wire/test_sandbox_process.py and tests/apptest/test_bench_pages.py)."""

from __future__ import annotations

import pytest

from bench.harness import PAGE_VISITS, Figures
from components.core.nav import pages


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
