"""The cycle collector paused around a large read (``store.engine.collector_paused``) runs again after
it, however pauses nest or overlap across threads, and stays off if it was off: a collector left off
would let a long-running app server's memory grow with every cycle it makes."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator

import pytest

from store.engine import collector_paused


@pytest.fixture(autouse=True)
def collector_as_it_was() -> Iterator[None]:
    was = gc.isenabled()
    yield
    (gc.enable if was else gc.disable)()


def test_nested_pauses_resume_the_collector_after_the_last() -> None:
    gc.enable()
    with collector_paused():
        assert not gc.isenabled()
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()


def test_a_pause_ended_by_an_error_resumes_the_collector() -> None:
    gc.enable()
    with pytest.raises(RuntimeError), collector_paused():
        raise RuntimeError("the read failed")
    assert gc.isenabled()


def test_overlapping_pauses_in_two_threads_resume_it_after_both() -> None:
    gc.enable()
    inside, release = threading.Event(), threading.Event()

    def reading() -> None:
        with collector_paused():
            inside.set()
            release.wait(timeout=60)

    other = threading.Thread(target=reading)
    with collector_paused():
        other.start()
        assert inside.wait(timeout=60)
    assert not gc.isenabled()  # the other read goes on
    release.set()
    other.join(timeout=60)
    assert gc.isenabled()


def test_a_collector_that_was_off_stays_off() -> None:
    gc.disable()
    with collector_paused():
        pass
    assert not gc.isenabled()
