"""Every read and write of the history store goes through its one error boundary
(``store.engine.Connected``), so no method can let a driver's error reach a page or a job as a
traceback: a new method that opened a connection of its own would fail here before it could.

Every repository of ``HistoryStore`` stands on that boundary, over the store's one engine."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
from pathlib import Path
from typing import get_type_hints

from sqlalchemy import create_engine

import store as store_package
from store import HistoryStore
from store.engine import WRITE_OPTION, Connected

ROOT = Path(__file__).resolve().parents[2]
#: Opening a connection or a transaction on an engine directly, bypassing ``_reading`` / ``_writing``.
DIRECT = re.compile(r"\b_?(engine|writer)\.(connect|begin)\(")
#: The boundary itself (the migrations, which run at open inside its own plain-words handling, are skipped).
ALLOWED = {"store/engine.py"}


def test_no_part_of_the_store_opens_a_connection_around_the_boundary() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in sorted((ROOT / "store").rglob("*.py"))
        if str(path.relative_to(ROOT)) not in ALLOWED and "migrations" not in path.parts
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if DIRECT.search(line)
    ]
    assert found == [], "\n".join(found)


def _unopened_store() -> HistoryStore:
    """A store over an in-memory engine that is never connected (nothing here reads or writes)."""
    return HistoryStore(create_engine("sqlite://"), "sqlite://")


def _repository_classes() -> set[type[Connected]]:
    """Every class of the store's modules that stands on the boundary."""
    found: set[type[Connected]] = set()
    for module_info in pkgutil.walk_packages(store_package.__path__, "store."):
        if ".migrations" in module_info.name or module_info.name == "store.__main__":
            continue
        module = importlib.import_module(module_info.name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, Connected) and cls is not Connected and cls.__module__ == module.__name__:
                found.add(cls)
    return found


def test_every_repository_of_the_history_store_stands_on_the_boundary_over_one_engine() -> None:
    store = _unopened_store()
    declared = get_type_hints(HistoryStore)
    repositories = {name: getattr(store, name) for name in declared}
    assert len(repositories) > 1, "HistoryStore is made of repositories"
    for name, repository in repositories.items():
        assert isinstance(repository, declared[name]) and isinstance(repository, Connected), name
        assert repository._engine is store.engine, f"{name} reads through another engine"
        assert repository._writer.pool is store.engine.pool, f"{name} writes through another pool"
        assert repository._writer.get_execution_options().get(WRITE_OPTION), (
            f"{name} writes without BEGIN IMMEDIATE"
        )
    assert len({id(r) for r in repositories.values()}) == len(repositories), "one repository per area"
    # Every repository class in the store is one of the store's areas, and none is built from another.
    classes = _repository_classes()
    assert classes == {type(r) for r in repositories.values()}
    assert [
        (a.__name__, b.__name__) for a in classes for b in classes if a is not b and issubclass(a, b)
    ] == []
