"""The project's static checks, run by the test command so CI fails on them as on any test.

- mypy over the code (its settings are ``[tool.mypy]`` in ``pyproject.toml``): a type error is a bug
  that no test may happen to reach, such as a call with one argument too many on a rare path.
- ruff: the lint rules and the formatting every file follows.

Each prints what the tool said, so a failure reads like the tool's own output.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _run(*args: str, timeout_s: float) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout_s,
        check=False,
    )


@pytest.mark.timeout(900)
def test_the_code_type_checks() -> None:
    # The settings' own cache (.mypy_cache): a fresh clone pays about a minute once, later runs seconds.
    done = _run("mypy", timeout_s=840)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_code_passes_the_lint_rules() -> None:
    done = _run("ruff", "check", "--no-cache", ".", timeout_s=120)
    assert done.returncode == 0, done.stdout + done.stderr


def test_every_file_is_formatted() -> None:
    done = _run("ruff", "format", "--check", "--no-cache", ".", timeout_s=120)
    assert done.returncode == 0, done.stdout + done.stderr
