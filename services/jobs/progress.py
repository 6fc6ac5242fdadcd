"""How a long run says how far it is, without drowning its log: one line every tenth of its reads or
every 30 seconds, whichever comes first, and one when it ends.

A line says what an operator watching a cron log needs: reads done of all, the share, the calls sent per
second so far (a 429 asked again is one more call), the reads failed so far and the time left at that
pace: ``progress: 1,500 of 5,000 reads (30 %), 19.8 calls/s, 2 failed so far, about 2 min 57 s left``.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from analysis.wording import counted, duration_words

#: A line at least this often (seconds), and at every tenth of the reads.
EVERY_S = 30.0
STEPS = 10


class RunMeter:
    """Counts a run's reads as they settle and says a progress line when one is due."""

    def __init__(
        self,
        total: int,
        say: Callable[[str], None],
        *,
        clock: Callable[[], float] = time.monotonic,
        every_s: float = EVERY_S,
    ) -> None:
        self.total, self.say, self.clock, self.every_s = total, say, clock, every_s
        self.started = self._last_line = clock()
        self.done = self.failed = self.calls = 0
        self._steps_said = 0

    def settled(self, *, calls: int, failed: bool) -> None:
        """One read settled after ``calls`` requests; a line when a tenth was crossed or 30 s passed."""
        self.done += 1
        self.calls += calls
        self.failed += int(failed)
        now = self.clock()
        step = self.done * STEPS // max(1, self.total)
        if step > self._steps_said or now - self._last_line >= self.every_s or self.done == self.total:
            self._steps_said = step
            self._last_line = now
            self.say(self.line(now))

    def line(self, now: float) -> str:
        elapsed = max(now - self.started, 1e-9)
        share = round(100 * self.done / max(1, self.total))
        pace = self.calls / elapsed
        failed = f"{self.failed:,} failed so far"
        if self.done >= self.total:
            when = f"done in {duration_words(elapsed)}"
            failed = f"{self.failed:,} failed"
        elif self.done:
            when = f"about {duration_words((self.total - self.done) * elapsed / self.done)} left"
        else:
            when = "time left not known yet"
        done = f"{self.done:,} of {counted(self.total, 'read')}"
        return f"progress: {done} ({share} %), {pace:.1f} calls/s, {failed}, {when}"
