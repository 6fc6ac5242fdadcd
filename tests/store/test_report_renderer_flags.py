"""The Chromium that draws a report's charts runs with the flags that turn off its own background
requests (update and component checks, sign-in, optimisation hints, pings): read back from the running
browser's command line in /proc, after it drew a chart."""

from __future__ import annotations

import os
from pathlib import Path

import plotly.graph_objects as go

from services.reports.render import QUIET_FLAGS, shared_renderer


def _descendants(pid: int) -> list[int]:
    """Every process started (directly or not) by ``pid``, from /proc."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(parent, []).append(int(entry))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def _command_line(pid: int) -> list[str]:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().decode().split("\0")
    except OSError:
        return []


def test_the_chart_renderers_chromium_runs_with_its_background_requests_off() -> None:
    svg = shared_renderer().svg(go.Figure(go.Bar(x=["a"], y=[1])), 200, 100)
    assert svg.lstrip().startswith("<svg")
    browsers = [
        line
        for line in map(_command_line, _descendants(os.getpid()))
        if "--remote-debugging-pipe" in line and not line[0].endswith("python") and "python" not in line[0]
    ]
    assert browsers, "no Chromium found among this process's children"
    for line in browsers:
        missing = [flag for flag in QUIET_FLAGS if flag not in line]
        assert missing == [], f"Chromium started without {missing}"
