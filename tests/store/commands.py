"""``python -m store …`` run in this process, as the store tests run the commands cron runs."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from services.cli import main

#: A command run with its arguments: its exit code, standard output and standard error.
StoreCommand = Callable[..., tuple[int, str, str]]


def run_command(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """``python -m store <args>`` in this process: its exit code and what it printed on each stream."""
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err
