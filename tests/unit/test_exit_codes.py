"""The commands' exit codes have one definition (``services.jobs.exit_codes``), and keep their values."""

from __future__ import annotations

import re
from pathlib import Path

from services.jobs import exit_codes

ROOT = Path(__file__).resolve().parents[2]
DEFINES_EXIT_CODE = re.compile(r"^\s*EXIT_\w+(\s*,\s*EXIT_\w+)*\s*(:\s*\w+)?\s*=", re.MULTILINE)


def test_values_cron_and_scripts_rely_on() -> None:
    assert (exit_codes.EXIT_OK, exit_codes.EXIT_FAILED, exit_codes.EXIT_USAGE, exit_codes.EXIT_DATABASE) == (
        0,
        1,
        2,
        3,
    )


def test_defined_in_one_place() -> None:
    defining = sorted(
        str(path.relative_to(ROOT))
        for package in ("services", "store", "analysis", "components")
        for path in (ROOT / package).rglob("*.py")
        if DEFINES_EXIT_CODE.search(path.read_text(encoding="utf-8"))
    )
    assert defining == ["services/jobs/exit_codes.py"]
