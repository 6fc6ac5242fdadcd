"""The benchmark harness's own bookkeeping: figures print as docs/benchmarks.md shows them (the
processes benchmarks start are checked in tests/wire/test_sandbox_process.py and
tests/apptest/test_bench_pages.py, the pages they open in tests/unit/test_page_visits.py)."""

from __future__ import annotations

import pytest

from bench.harness import Figures


def test_figures_print_name_value_unit_and_ratio(capsys: pytest.CaptureFixture[str]) -> None:
    figures = Figures()
    figures.show("p9_example", 3.0, "s", baseline=2.0, base="bare")
    figures.target("P9 example", False, "3 s")
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "p9_example: 3.000 s (ratio 1.50 vs bare 2.000 s)"
    assert out[1].startswith("P9 example: MISSED")
    assert figures.exit_code() == 1
