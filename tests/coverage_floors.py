"""Per-package coverage floors, checked after the whole run like pytest-cov's overall ``fail_under``.

coverage.py has one floor for everything (``[tool.coverage.report] fail_under``); the client and the
store deserve a higher one, since every error path of the service and of the database lives there.
The floors are ``[tool.dashboard.coverage_floors]`` in ``pyproject.toml`` (a folder → a percentage of
its lines and branches). After pytest-cov has combined the workers' data, each folder's figure is
printed, and a folder under its floor fails the run as a failed test would.
"""

from __future__ import annotations

import io
import tomllib
from collections.abc import Generator
from pathlib import Path

import pytest
from coverage.exceptions import CoverageException

PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"


def coverage_floors() -> dict[str, float]:
    """Each folder's floor, in percent."""
    settings = tomllib.loads(PYPROJECT.read_text())
    floors = settings.get("tool", {}).get("dashboard", {}).get("coverage_floors", {})
    return {str(folder): float(floor) for folder, floor in floors.items()}


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtestloop(session: pytest.Session) -> Generator[None, object, object]:
    """Around pytest-cov's own wrapper: by the time this resumes, its data is combined and saved."""
    result = yield
    plugin = session.config.pluginmanager.getplugin("_cov")
    controller = getattr(plugin, "cov_controller", None)
    if controller is None or getattr(plugin, "cov_total", None) is None:
        return result  # no coverage this run (-p no:cov, --no-cov, a worker, or only collecting)
    reporter = session.config.pluginmanager.getplugin("terminalreporter")
    reporter.write_sep("-", "coverage by folder")
    for folder, floor in coverage_floors().items():
        try:
            figure = controller.cov.report(include=[f"{folder}/*"], file=io.StringIO())
        except CoverageException:  # "No data to report": nothing of the folder ran at all
            figure = 0.0
        met = figure >= floor
        line = f"coverage of {folder}/: {figure:.1f} % (floor {floor:g} %)"
        reporter.write_line(line if met else f"ERROR: {line}", red=not met, bold=not met)
        if not met:
            session.testsfailed += 1
    return result
