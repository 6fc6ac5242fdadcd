"""Run a line of Python in a fresh interpreter on a given sandbox day, for the tests that hold the demo
numbers to be the same in every process (another hash seed, the day read from the environment)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import date
from pathlib import Path
from typing import Any

from sandbox.clock import TODAY_ENV

ROOT = Path(__file__).resolve().parents[2]


def printed_json(script: str, day: date, *args: str) -> Any:
    """What ``script`` (run with ``args``, on ``day``, under a random hash seed) prints, read as JSON."""
    env = {**os.environ, TODAY_ENV: day.isoformat(), "PYTHONHASHSEED": "random"}
    done = subprocess.run(
        [sys.executable, "-c", script, *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return json.loads(done.stdout)
