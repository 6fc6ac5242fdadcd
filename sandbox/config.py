"""The knobs of one sandbox instance.

They live apart from the server so that the state and the app can read them without importing the
uvicorn machinery (and without an import cycle).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date


@dataclass(frozen=True)
class SandboxConfig:
    """How the sandbox behaves; the defaults suit the app's demo mode and most tests.

    ``latency_ms`` is added to every /api/v1 request so the app's spinners and timeouts can be seen;
    ``rate_limit`` (requests per second per key, None for no limit) lets tests meet a 429;
    ``quota`` is the number of quota units each key may spend on /dr and /site-check;
    ``today`` fixes the day the drifting demo numbers stand for (None: ``sandbox.clock.today()``).
    """

    latency_ms: float = 0
    rate_limit: float | None = None
    quota: int = 1000
    today: date | None = None

    def __post_init__(self) -> None:
        if self.latency_ms < 0:
            raise ValueError("latency_ms cannot be negative")
        if self.rate_limit is not None and self.rate_limit <= 0:
            raise ValueError("rate_limit must be positive (or None for no limit)")
        if self.quota < 0:
            raise ValueError("quota cannot be negative")
