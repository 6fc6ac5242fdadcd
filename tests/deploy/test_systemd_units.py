"""Every shipped systemd service has a start timeout, and the scheduled jobs (the snapshot, the digest, the
report charts drawn ahead and the scheduled reports) ship as units too.

A ``Type=oneshot`` service has no start timeout unless it is given one: a snapshot that never ends (a
webhook that answers one byte at a time held it before the delivery deadlines) would block every
later run of its timer. ``systemd-analyze verify`` accepts the job units as installed in this checkout.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from rigs.processes import ROOT

UNITS = ROOT / "deploy" / "systemd"
#: The units of the scheduled jobs, each a oneshot service started by its timer.
JOBS = {
    "authority-dashboard-snapshot": "snapshot",
    "authority-dashboard-digest": "digest",
    "authority-dashboard-draw-reports": "draw-reports",
    "authority-dashboard-reports": "reports",
}
#: The longest start timeout a unit may have (the snapshot's; a day would overlap the next run).
MOST_S = 6 * 3600


def _seconds(value: str) -> float:
    """A systemd time span ("2h", "15min", "90", "1h 30min") in seconds; infinity for "infinity"."""
    if value.strip() == "infinity":
        return float("inf")
    units = {"h": 3600, "min": 60, "m": 60, "s": 1, "": 1}
    total = 0.0
    for number, unit in re.findall(r"(\d+(?:\.\d+)?)\s*(h|min|m|s|)(?![a-z])", value):
        total += float(number) * units[unit]
    return total


def _setting(unit: str, name: str) -> list[str]:
    return re.findall(rf"^{name}=(.*)$", unit, re.MULTILINE)


def test_every_shipped_service_has_a_finite_start_timeout() -> None:
    services = sorted(UNITS.glob("*.service"))
    assert {path.stem for path in services} >= {"authority-dashboard@", *JOBS}
    for path in services:
        [timeout] = _setting(path.read_text(), "TimeoutStartSec") or ["(none)"]
        assert 0 < _seconds(timeout) <= MOST_S, f"{path.name}: TimeoutStartSec={timeout}"


def test_the_jobs_ship_as_oneshot_services_started_daily_or_weekly_by_their_timers() -> None:
    for name, command in JOBS.items():
        service = (UNITS / f"{name}.service").read_text()
        assert _setting(service, "Type") == ["oneshot"]
        [start] = _setting(service, "ExecStart")
        assert start.endswith(f"/.venv/bin/python -m store {command}")
        assert _setting(service, "EnvironmentFile") == ["/etc/authority-dashboard/env"]  # the team's key
        timer = (UNITS / f"{name}.timer").read_text()
        assert _setting(timer, "OnCalendar") and _setting(timer, "Persistent") == ["true"]


def systemd_complaints(tmp_path: Path, *verified: str) -> list[str]:
    """What ``systemd-analyze verify`` says of the ``verified`` units (an instance as
    ``name@8501.service``), with every shipped unit installed in ``tmp_path`` as in this checkout: nothing
    when it accepts them. Skips the test where systemd-analyze is missing (Debian's systemd package)."""
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed (Debian's systemd package)")
    for unit in UNITS.glob("authority-dashboard*.*"):
        if unit.suffix in (".service", ".target", ".timer"):
            (tmp_path / unit.name).write_text(unit.read_text().replace("/opt/authority-dashboard", str(ROOT)))
    checked = subprocess.run(
        [analyze, "verify", "--man=no", *(f"./{name}" for name in verified)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    complaints = [line for line in (checked.stdout + checked.stderr).splitlines() if line.strip()]
    return complaints if checked.returncode == 0 else [*complaints, f"exit status {checked.returncode}"]


def test_systemd_accepts_the_app_units(tmp_path: Path) -> None:
    """The app's instance and target, as installed from this checkout: no complaint at all."""
    assert not systemd_complaints(tmp_path, "authority-dashboard@8501.service", "authority-dashboard.target")


def test_systemd_accepts_the_job_units(tmp_path: Path) -> None:
    names = [f"{name}.{kind}" for name in JOBS for kind in ("service", "timer")]
    assert not systemd_complaints(tmp_path, *names)
