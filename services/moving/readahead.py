"""Reading the next batches while the current one is written: the source's reads (and the turning of its
rows into values) overlap the target's writes, which mostly wait on the other database.

At most ``AHEAD`` batches wait in between, so memory stays bounded by the batch size. An error of the
reading is raised where the batch would have been taken, and a writer that stops early (an error, a
kill) stops the reading too.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterable, Iterator
from typing import TypeVar, cast

Batch = TypeVar("Batch")

#: Batches read ahead of the one being written.
AHEAD = 2
_END = object()


class _Failed:
    def __init__(self, error: BaseException) -> None:
        self.error = error


def read_ahead(batches: Iterable[Batch], ahead: int = AHEAD) -> Iterator[Batch]:
    """The same batches in the same order, read in a thread of their own up to ``ahead`` in advance."""
    waiting: queue.Queue[object] = queue.Queue(maxsize=ahead)
    stopped = threading.Event()

    def hand_over(item: object) -> bool:
        while not stopped.is_set():
            try:
                waiting.put(item, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def read() -> None:
        try:
            for batch in batches:
                if not hand_over(batch):
                    return
            hand_over(_END)
        except BaseException as exc:  # handed to the writer, which raises it as its own
            hand_over(_Failed(exc))
        finally:
            close = getattr(batches, "close", None)
            if close is not None:
                close()

    reader = threading.Thread(target=read, name="history-read-ahead", daemon=True)
    reader.start()
    try:
        while True:
            item = waiting.get()
            if item is _END:
                return
            if isinstance(item, _Failed):
                raise item.error
            yield cast(Batch, item)  # every other item is a batch of ``batches``
    finally:
        stopped.set()
        reader.join()
