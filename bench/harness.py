"""What every benchmark needs beyond the processes it starts (``rigs``): a browser, waits on a page, figures.

Figures are printed one per line as ``name: value unit``, with the ratio to a baseline measured side by
side in the same run (machines here are noisy: absolute times mean little, ratios travel).
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from rigs.chromium import launch as launch_chromium


def chromium() -> contextlib.AbstractContextManager[Any]:
    """Debian's headless Chromium through Playwright, launched as the browser tests launch it."""
    return launch_chromium()


def wait_until_idle(page: Any, timeout_ms: int = 30_000) -> None:
    """Until Streamlit has finished the current script run (its status widget is gone)."""
    page.wait_for_timeout(150)
    page.wait_for_selector('[data-testid="stStatusWidget"]', state="detached", timeout=timeout_ms)


def open_and_time(page: Any, url: str, ready: str, timeout_ms: int = 60_000) -> float:
    """Seconds from navigation until ``ready`` is visible."""
    started = time.perf_counter()
    page.goto(url, wait_until="commit")
    page.locator(ready).first.wait_for(state="visible", timeout=timeout_ms)
    return time.perf_counter() - started


def one_after_another(steps: Iterable[Callable[[], object]], failure: type[Exception]) -> tuple[float, int]:
    """Wall seconds of running ``steps`` one after the other (the naive baseline), and how many raised
    ``failure`` (each counted, the next step run all the same)."""
    failed = 0
    started = time.perf_counter()
    for step in steps:
        try:
            step()
        except failure:
            failed += 1
    return time.perf_counter() - started, failed


@dataclass
class Figures:
    """Collects and prints figures; ``failures`` lists targets that were missed."""

    failures: list[str] = field(default_factory=list)

    def show(
        self, name: str, value: float, unit: str, *, baseline: float | None = None, base: str = ""
    ) -> None:
        line = f"{name}: {value:.3f} {unit}"
        if baseline:
            line += f" (ratio {value / baseline:.2f} vs {base or 'baseline'} {baseline:.3f} {unit})"
        print(line, flush=True)

    def target(self, name: str, ok: bool, detail: str) -> None:
        print(f"{name}: {'met' if ok else 'MISSED'} ({detail})", flush=True)
        if not ok:
            self.failures.append(name)

    def exit_code(self) -> int:
        return 1 if self.failures else 0
