"""Every read and write of the history store goes through its one error boundary
(``store.engine.Connected``), so no method can let a driver's error reach a page or a job as a
traceback: a new method that opened a connection of its own would fail here before it could.

And ``HistoryStore`` stays a composition: one repository per area, each standing on that boundary over
the store's one engine; a repository that needs another is given it when it is made, none reaches
another through the store; and the store itself only opens, names and closes its database, so there is
one way to call each read and write (``store.<area>.<method>``), never a second one on the store."""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import re
from pathlib import Path
from typing import get_type_hints

from sqlalchemy import Engine, create_engine

import store as store_package
from store import HistoryStore
from store.engine import WRITE_OPTION, Connected

ROOT = Path(__file__).resolve().parents[2]
#: Opening a connection or a transaction on an engine directly, bypassing ``_reading`` / ``_writing``.
DIRECT = re.compile(r"\b_?(engine|writer)\.(connect|begin)\(")
#: The boundary itself (the migrations, which run at open inside its own plain-words handling, are skipped).
ALLOWED = {"store/engine.py"}
#: What ``HistoryStore`` itself offers besides its repositories: opening, naming and closing the database.
LIFECYCLE = {"open", "close", "engine", "url_for_display"}


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


def test_history_store_offers_its_repositories_and_nothing_else() -> None:
    """A read or write added to ``HistoryStore`` itself (a method, or one forwarding to a repository)
    would be a second way to call it: it belongs on its area's repository."""
    public = {name for name in dir(HistoryStore) if not name.startswith("_")}
    assert public == LIFECYCLE, f"not reads or writes of HistoryStore itself: {sorted(public - LIFECYCLE)}"
    store = _unopened_store()
    attributes = {name for name in vars(store) if not name.startswith("_")}
    assert attributes == {"url", *get_type_hints(HistoryStore)}, "an attribute of the store is a repository"


def _self_attributes(cls: type) -> tuple[set[str], set[str]]:
    """The ``self.<name>`` a class's own methods use, and the ones its ``__init__`` assigns."""
    tree = ast.parse(inspect.getsource(cls))
    used, assigned = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
            (assigned if isinstance(node.ctx, ast.Store) else used).add(node.attr)
    return used, assigned


def test_no_repository_reaches_another_through_the_store() -> None:
    """A repository calls only what it is (its own methods and the boundary's) and what it was given when
    it was made: a call that worked only because every area was one class (``self.record_audit``) fails
    here, and so does a repository holding the store or a module of the store importing it."""
    for cls in _repository_classes():
        used, assigned = _self_attributes(cls)
        for base in cls.__mro__[1:]:
            if issubclass(base, Connected):
                assigned |= _self_attributes(base)[1]
        unknown = {name for name in used if not hasattr(cls, name) and name not in assigned}
        assert unknown == set(), f"{cls.__name__} uses {sorted(unknown)}, neither its own nor given to it"
        given = get_type_hints(cls.__init__, localns={"Engine": Engine})
        given.pop("return", None)
        strangers = {
            name: hint
            for name, hint in given.items()
            if hint not in (Engine, str) and not (isinstance(hint, type) and issubclass(hint, Connected))
        }
        assert strangers == {}, f"{cls.__name__} is given more than an engine and other repositories"
    for path in sorted((ROOT / "store").rglob("*.py")):
        if path.name == "history.py" or path.name == "__init__.py" or "migrations" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                names = {alias.name for alias in node.names}
                assert node.module != "store.history" and "HistoryStore" not in names, (
                    f"{path.relative_to(ROOT)} imports the store: a repository is given what it needs"
                )
