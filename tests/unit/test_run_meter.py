"""A long run's progress lines: one every tenth of the reads or every 30 s, whichever comes first, each
saying how far, how fast, what failed and how long is left (on a fake clock)."""

from __future__ import annotations

from analysis.wording import duration_words
from services.jobs.progress import RunMeter


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_line_every_tenth_of_the_reads_with_pace_failures_and_time_left() -> None:
    clock, said = FakeClock(), []
    meter = RunMeter(1000, said.append, clock=clock)
    for done in range(1, 1001):
        clock.now = done / 20  # 20 reads a second
        meter.settled(calls=2 if done % 100 == 0 else 1, failed=done in (5, 6))
    assert len(said) == 10
    assert said[0] == "progress: 100 of 1,000 reads (10 %), 20.2 calls/s, 2 failed so far, about 45 s left"
    assert said[4] == "progress: 500 of 1,000 reads (50 %), 20.2 calls/s, 2 failed so far, about 25 s left"
    assert said[-1] == "progress: 1,000 of 1,000 reads (100 %), 20.2 calls/s, 2 failed, done in 50 s"


def test_a_slow_run_says_a_line_every_30_seconds_between_tenths() -> None:
    clock, said = FakeClock(), []
    meter = RunMeter(100, said.append, clock=clock)
    for _ in range(6):
        clock.now += 14.0  # one read every 14 s: a tenth takes 140 s
        meter.settled(calls=1, failed=False)
    assert [line.split(", ")[0] for line in said] == [
        "progress: 3 of 100 reads (3 %)",
        "progress: 6 of 100 reads (6 %)",
    ]
    assert said[-1].endswith("about 21 min 56 s left")


def test_durations_in_words() -> None:
    assert [duration_words(s) for s in (0.2, 45, 60, 250, 3600, 3900)] == [
        "1 s",
        "45 s",
        "1 min",
        "4 min 10 s",
        "1 h",
        "1 h 5 min",
    ]
