"""The order in which the two workers take the test files: the long kinds first, the short ones last.

The suite keeps both cores busy, so its time is its work divided by two plus the stretch at the end
where one worker has nothing left. pytest-xdist hands out whole files (``--dist loadfile``) and by
default the files with the most tests first, which leaves the files of one long test for the end:
the browser's secret-hygiene tour, the job's fault matrix, mypy in the static checks, each a minute
or more with the other worker idle. Handing out the slow kinds first (``--no-loadscope-reorder`` in
``pyproject.toml`` keeps this order) leaves only short files, seconds each, for that stretch.
"""

from __future__ import annotations

from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
#: Test folders, slowest files first: a type check, Chromium and servers, then in-process work.
KINDS_SLOWEST_FIRST = ("static", "browser", "deploy", "store", "apptest", "wire", "unit")


def _kind_rank(item: pytest.Item) -> int:
    """Where the item's folder comes in ``KINDS_SLOWEST_FIRST`` (anything else goes last)."""
    try:
        kind = item.path.resolve().relative_to(TESTS).parts[0]
    except ValueError:
        return len(KINDS_SLOWEST_FIRST)
    return KINDS_SLOWEST_FIRST.index(kind) if kind in KINDS_SLOWEST_FIRST else len(KINDS_SLOWEST_FIRST)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Sort by kind only: the sort is stable, so each file's tests stay together and in their order."""
    items.sort(key=_kind_rank)
