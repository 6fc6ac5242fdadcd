"""The one bounded cache and the books and memos kept in it: which entry goes first, what counts as a
use, and each keeper's own rule (expiry, generation, the frame's identity)."""

from __future__ import annotations

import threading

import pandas as pd
import pytest

from client.models import QuotaInfo
from components.common.bounded_cache import BoundedCache
from components.core.cache import cache_books
from components.core.cache.cache_books import CacheLedger, QuotaBoard
from components.core.history import source as source_module
from components.core.history.source import QueryCache
from components.market.frames import FiguresMemo


def test_storing_one_more_forgets_the_least_recently_used() -> None:
    cache: BoundedCache[str, int] = BoundedCache(2)
    cache.put("a", 1)
    cache.put("b", 2)
    assert cache.get("a") == 1  # a use: "b" is now the least recent
    cache.put("c", 3)
    assert (cache.peek("a"), cache.peek("b"), cache.peek("c")) == (1, None, 3)
    cache.put("a", 10)  # storing again is a use too, and does not grow the cache
    cache.put("d", 4)
    assert len(cache) == 2 and (cache.peek("a"), cache.peek("c"), cache.peek("d")) == (10, None, 4)


def test_a_peek_or_an_unusable_value_is_not_a_use() -> None:
    cache: BoundedCache[str, int] = BoundedCache(2)
    cache.put("a", 1)
    cache.put("b", 2)
    assert cache.peek("a") == 1
    assert cache.get("a", lambda value: value > 1) is None  # there, but it cannot serve
    cache.put("c", 3)  # so "a" is still the least recent
    assert (cache.peek("a"), cache.peek("b"), cache.peek("c")) == (None, 2, 3)
    assert cache.get("b", lambda value: value == 2) == 2


def test_forgetting_by_key_or_by_rule_and_a_cache_of_no_room() -> None:
    cache: BoundedCache[tuple[str, int], int] = BoundedCache(8)
    for account in ("x", "y"):
        for number in range(3):
            cache.put((account, number), number)
    cache.pop(("y", 0))
    cache.pop(("y", 99))  # absent: nothing happens
    cache.pop_where(lambda key: key[0] == "x")
    assert len(cache) == 2 and cache.peek(("y", 1)) == 1
    for room in (0, -1):
        empty: BoundedCache[str, int] = BoundedCache(room)
        empty.put("a", 1)
        assert len(empty) == 0 and empty.get("a") is None and empty.max_entries == room


def test_threads_sharing_one_cache_never_exceed_its_bound() -> None:
    cache: BoundedCache[int, int] = BoundedCache(16)
    start = threading.Barrier(4)

    def fill(offset: int) -> None:
        start.wait()
        for number in range(2000):
            cache.put(offset + number % 40, number)
            cache.get(offset + (number * 7) % 40)

    workers = [threading.Thread(target=fill, args=(offset,)) for offset in (0, 100, 200, 300)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert len(cache) == 16


def test_a_cache_sized_by_bytes_keeps_at_most_that_many_and_no_value_larger() -> None:
    cache: BoundedCache[str, bytes] = BoundedCache(10, size_of=len)
    cache.put("a", b"1234")
    cache.put("b", b"123456")
    cache.put("c", b"12")  # 12 bytes would be kept: the least recent goes
    assert (cache.peek("a"), cache.peek("b"), cache.peek("c")) == (None, b"123456", b"12")
    cache.put("c", b"x" * 11)  # larger than the whole budget: not kept, nor its older value
    assert cache.peek("c") is None and cache.peek("b") == b"123456"


def test_once_makes_a_value_once_and_keeps_it_but_not_an_error() -> None:
    cache: BoundedCache[str, int] = BoundedCache(2)
    made: list[int] = []
    assert cache.once("a", lambda: made.append(1) or 1) == 1
    assert cache.once("a", lambda: made.append(2) or 2) == 1 and made == [1]

    def failing() -> int:
        raise RuntimeError("cannot")

    with pytest.raises(RuntimeError, match="cannot"):
        cache.once("b", failing)
    assert cache.once("b", lambda: 3) == 3  # the failure was not kept


def test_once_asked_by_several_threads_makes_the_value_once() -> None:
    cache: BoundedCache[str, int] = BoundedCache(2)
    making, go = threading.Event(), threading.Event()
    made: list[int] = []

    def make() -> int:
        made.append(1)
        making.set()
        assert go.wait(30)
        return 7

    got: list[int] = []
    first = threading.Thread(target=lambda: got.append(cache.once("a", make)))
    first.start()
    assert making.wait(30)
    others = [threading.Thread(target=lambda: got.append(cache.once("a", make))) for _ in range(3)]
    for thread in others:
        thread.start()
    go.set()
    for thread in [first, *others]:
        thread.join(30)
    assert got == [7, 7, 7, 7] and made == [1]


def test_the_quota_board_keeps_the_latest_quotas_and_a_read_does_not_keep_one_longer() -> None:
    board = QuotaBoard(2)
    board.record("https://a", "fp", None)  # no quota headers: nothing to write down
    assert board.get("https://a", "fp") is None
    first, second, third = (QuotaInfo(remaining=n) for n in (10, 20, 30))
    board.record("https://a", "fp", first)
    board.record("https://b", "fp", second)
    assert board.get("https://a", "fp") == first
    board.record("https://c", "fp", third)  # "a" was read, not recorded again: it goes first
    assert board.get("https://a", "fp") is None
    assert (board.get("https://b", "fp"), board.get("https://c", "fp")) == (second, third)


def test_the_ledger_holds_an_entry_until_its_expiry_or_until_forgotten(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = [1000.0]
    monkeypatch.setattr(cache_books.time, "monotonic", lambda: clock[0])
    ledger = CacheLedger(ttl_s=60, max_entries=2)
    ledger.record(("k", 1))
    ledger.record(("k", 2))
    assert ledger.holds(("k", 1)) and ledger.holds(("k", 2))
    ledger.forget(("k", 2))
    assert not ledger.holds(("k", 2))
    clock[0] += 60
    assert not ledger.holds(("k", 1))  # as old as the ttl: expired
    ledger.record(("k", 3))
    ledger.record(("k", 4))
    ledger.record(("k", 5))  # beyond two entries: the oldest is forgotten early
    assert not ledger.holds(("k", 3)) and ledger.holds(("k", 4)) and ledger.holds(("k", 5))


def test_the_query_cache_keeps_its_latest_answers_up_to_its_bound() -> None:
    cache = QueryCache(ttl_s=60, max_entries=2)
    assert cache.max_entries == 2
    for name in ("a", "b"):
        cache.get(("acct", name), lambda name=name: name)
    assert cache.get(("acct", "a"), lambda: "a again") == "a"  # a use: "b" goes first
    cache.get(("acct", "c"), lambda: "c")
    assert cache.get(("acct", "b"), lambda: "b read again") == "b read again"


def test_the_query_cache_keeps_no_answer_read_while_its_account_was_written() -> None:
    cache = QueryCache(ttl_s=60)

    def read_during_a_write() -> str:
        cache.changed("acct")
        return "read before the write landed"

    cache.get(("acct", "q"), read_during_a_write)
    assert cache.get(("acct", "q"), lambda: "fresh") == "fresh"


def test_an_answer_that_took_longer_than_its_time_to_read_is_kept_for_its_time_after(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A year of 5,000 keywords read in 90 s: the rerun a moment later uses it, where it was already
    out of date when it arrived (its time counted from the start of the read) and was read again."""
    clock = [1000.0]
    monkeypatch.setattr(source_module, "now", lambda: clock[0])
    cache = QueryCache(ttl_s=60)

    def slow_read() -> str:
        clock[0] += 90
        return "a year of rows"

    assert cache.get(("acct", "q"), slow_read) == "a year of rows"
    clock[0] += 1
    assert cache.get(("acct", "q"), lambda: "read again") == "a year of rows"
    clock[0] += 60
    assert cache.get(("acct", "q"), lambda: "read again") == "read again"


def test_sessions_asking_the_query_cache_at_once_wait_for_the_one_read() -> None:
    # Two first views of a page (or two share links of one report) at the same moment: one read.
    cache = QueryCache(ttl_s=60)
    reading, go = threading.Event(), threading.Event()
    reads: list[str] = []

    def slow_read() -> str:
        reads.append("read")
        reading.set()
        assert go.wait(30)
        return "rows"

    got: list[str] = []

    def ask() -> None:
        got.append(cache.get(("acct", "q"), slow_read))

    first = threading.Thread(target=ask)
    first.start()
    assert reading.wait(30)
    others = [threading.Thread(target=ask) for _ in range(2)]
    for thread in others:
        thread.start()
    go.set()
    for thread in [first, *others]:
        thread.join(30)
    assert got == ["rows", "rows", "rows"] and reads == ["read"]


def test_a_failed_read_fails_every_waiting_session_and_the_next_ask_reads_again() -> None:
    cache = QueryCache(ttl_s=60)

    def failing() -> str:
        raise RuntimeError("database gone")

    with pytest.raises(RuntimeError, match="database gone"):
        cache.get(("acct", "q"), failing)
    assert cache.get(("acct", "q"), lambda: "back") == "back"


def test_the_figures_memo_answers_by_the_frames_identity_and_key() -> None:
    memo: FiguresMemo[str] = FiguresMemo(size=2)
    assert memo.size == 2
    frame, equal_frame = pd.DataFrame({"x": [1]}), pd.DataFrame({"x": [1]})
    computed: list[str] = []

    def compute(name: str) -> str:
        computed.append(name)
        return name

    assert memo.get(frame, "k", lambda: compute("first")) == "first"
    assert memo.get(frame, "k", lambda: compute("again")) == "first"
    assert memo.get(equal_frame, "k", lambda: compute("other frame")) == "other frame"
    assert memo.get(frame, "other key", lambda: compute("other key")) == "other key"
    assert memo.get(frame, "k", lambda: compute("evicted")) == "evicted"  # two entries at most
    assert computed == ["first", "other frame", "other key", "evicted"]
