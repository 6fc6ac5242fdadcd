"""The project's static checks, run by the test command so CI fails on them as on any test.

- mypy over the code (its settings are ``[tool.mypy]`` in ``pyproject.toml``): a type error is a bug
  that no test may happen to reach, such as a call with one argument too many on a rare path.
- ruff: the lint rules and the formatting every file follows.
- import-linter: the layers (``[tool.importlinter]`` in ``pyproject.toml``): arrows point down only,
  only the pages and their widgets use Streamlit, the analysis is pure, the store only stores; and no
  module imports itself round a circle.

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


def test_the_layers_hold() -> None:
    done = subprocess.run(
        [str(Path(sys.executable).with_name("lint-imports")), "--no-cache"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout


def import_cycles(packages: tuple[str, ...]) -> list[list[str]]:
    """Every set of modules that import one another round a circle (strongly connected, more than one)."""
    import grimp

    graph = grimp.build_graph(*packages, cache_dir=None)
    edges = {m: sorted(graph.find_modules_directly_imported_by(m) & graph.modules) for m in graph.modules}
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []

    def visit(module: str) -> None:  # Tarjan's strongly connected components
        order[module] = low[module] = len(order)
        stack.append(module)
        on_stack.add(module)
        for target in edges[module]:
            if target not in order:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in on_stack:
                low[module] = min(low[module], order[target])
        if low[module] == order[module]:
            circle = []
            while True:
                popped = stack.pop()
                on_stack.discard(popped)
                circle.append(popped)
                if popped == module:
                    break
            if len(circle) > 1:
                circles.append(sorted(circle))

    for module in sorted(edges):
        if module not in order:
            visit(module)
    return circles


def test_no_module_imports_itself_round_a_circle() -> None:
    packages = ("components", "services", "analysis", "store", "schema", "client", "sandbox")
    assert import_cycles(packages) == []
