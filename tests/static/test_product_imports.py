"""Product code never imports what only tests and benchmarks use (``rigs``, ``bench``, ``tests``): the app
and its commands run from a deployment that may not ship them, and nothing in them may steer the app."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: What the app, its commands and the sandbox are made of (coverage's ``source`` in pyproject.toml).
PRODUCT = ("app.py", "views", "components", "services", "analysis", "store", "schema", "client", "sandbox")
#: Packages that exist for tests and benchmarks only.
NOT_PRODUCT = frozenset({"rigs", "bench", "tests"})


def _imported_packages(path: Path) -> set[str]:
    """The top-level package of every absolute import in ``path``."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found


def test_product_code_imports_no_test_or_benchmark_package() -> None:
    files = [
        path
        for name in PRODUCT
        for path in ([ROOT / name] if name.endswith(".py") else sorted((ROOT / name).rglob("*.py")))
    ]
    assert len(files) > 100  # the walk found the code
    wrong = {
        str(path.relative_to(ROOT)): sorted(found)
        for path in files
        if (found := _imported_packages(path) & NOT_PRODUCT)
    }
    assert not wrong, wrong


#: What is held to the size a reader takes in at once (tests are long lists of cases and are not).
SIZED = (*PRODUCT, "rigs", "bench")
MAX_LINES = 400


def test_no_module_of_the_app_its_rigs_or_its_benchmarks_is_over_400_lines() -> None:
    """Files by cohesion, under about 400 lines: a longer one is two ideas, or one written twice."""
    files = [
        path
        for name in SIZED
        for path in ([ROOT / name] if name.endswith(".py") else sorted((ROOT / name).rglob("*.py")))
    ]
    long = {str(p.relative_to(ROOT)): n for p in files if (n := len(p.read_text().splitlines())) > MAX_LINES}
    assert not long, long
