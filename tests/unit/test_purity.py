"""The pure layer stays pure: importing it in a fresh interpreter never loads Streamlit.

Pure means the whole API client, the analysis (every frame and chart builder, ``analysis/<feature>/``,
and the coach's rules), the services and the history store (which the daily job and the commands run
without the app), and what stays pure in ``components/`` (a ``frames`` module or package, a ``charts``
module, the shared helpers in ``components/common/``). They
are found by walking the tree, so a new feature's ``frames.py`` is covered the day it lands, and a
Streamlit import slipped into one of them (even through a helper it imports) fails here.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: A module under components/ is pure when one of its path parts is one of these (file or package).
PURE_PARTS = frozenset({"frames", "charts", "common", "rules"})
#: The packages below components/: none of them may load Streamlit (the daily job and the commands run
#: them without the app).
LAYERS_WITHOUT_STREAMLIT = ("client", "schema", "analysis", "services", "store")
#: Run only by Alembic inside a migration (importing it alone is an error by design).
NOT_IMPORTABLE_ALONE = frozenset({"store.migrations.env"})
#: Imports each module named on its command line in turn and prints the first one after whose import
#: ``streamlit`` is in ``sys.modules`` (nothing when none).
PROBE = """
import importlib, sys
for name in sys.argv[1:]:
    importlib.import_module(name)
    if "streamlit" in sys.modules:
        print(name)
        break
"""


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def declared_pure_modules() -> list[str]:
    """Every module of client/, schema/, analysis/, services/ and store/, and of components/ on a pure
    path, in a stable order."""
    in_components = [
        path
        for path in (ROOT / "components").rglob("*.py")
        if PURE_PARTS & set(path.relative_to(ROOT / "components").with_suffix("").parts)
    ]
    layers = [path for layer in LAYERS_WITHOUT_STREAMLIT for path in (ROOT / layer).rglob("*.py")]
    everywhere = [*layers, *in_components]
    return sorted({_module_name(path) for path in everywhere} - NOT_IMPORTABLE_ALONE)


def first_to_load_streamlit(modules: list[str]) -> str:
    """Import ``modules`` in a fresh interpreter; the first one that brought Streamlit in, or ""."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *modules], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.strip()


def test_the_walk_finds_every_kind_of_pure_module() -> None:
    modules = declared_pure_modules()
    assert "client.api" in modules and "analysis.figures.common" in modules
    assert "store.history" in modules and "services.jobs.snapshot" in modules
    assert any(name.startswith("analysis.coach.rules") for name in modules)
    for kind in ("frames", "charts"):
        assert len([name for name in modules if f".{kind}" in name]) >= 5, f"too few {kind} modules found"
    # The probe can tell: a module that does load Streamlit is named.
    assert (
        first_to_load_streamlit(["client.models", "components.core.ui.errors"]) == "components.core.ui.errors"
    )


def test_no_pure_module_loads_streamlit() -> None:
    culprit = first_to_load_streamlit(declared_pure_modules())
    assert not culprit, f"importing {culprit} (pure, see PURE_PARTS) loads streamlit, itself or via an import"
