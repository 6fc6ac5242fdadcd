"""Every read and write of the history store goes through its one error boundary
(``store.engine.Connected``), so no method can let a driver's error reach a page or a job as a
traceback: a new method that opened a connection of its own would fail here before it could."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: Opening a connection or a transaction on an engine directly, bypassing ``_reading`` / ``_writing``.
DIRECT = re.compile(r"\b_?(engine|writer)\.(connect|begin)\(")
#: The boundary itself, and the migrations (which run at open, inside its own plain-words handling).
ALLOWED = {"store/engine.py", "store/history.py"}


def test_no_part_of_the_store_opens_a_connection_around_the_boundary() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in sorted((ROOT / "store").rglob("*.py"))
        if str(path.relative_to(ROOT)) not in ALLOWED and "migrations" not in path.parts
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if DIRECT.search(line)
    ]
    assert found == [], "\n".join(found)


def test_every_part_of_the_history_store_stands_on_the_boundary() -> None:
    from store import HistoryStore
    from store.engine import Connected

    parts = [base for base in HistoryStore.__mro__[1:] if base not in (Connected, object)]
    assert parts, "HistoryStore is made of parts"
    assert all(issubclass(part, Connected) for part in parts), [p.__name__ for p in parts]
