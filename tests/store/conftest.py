"""Fixtures of the store tests: each test's database, on an SQLite file or on the test process's real
PostgreSQL server (``postgres``, in tests/conftest.py); ``database_at`` leaves it at an older schema
revision, with rows, for the upgrade tests.

Store tests run twice, against an SQLite file and against PostgreSQL (``store_url`` is parametrised),
each time on a database of their own, so tests never see each other's rows. No mocked database.
"""

from __future__ import annotations

import itertools
import shutil
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from sqlalchemy import inspect, text

from rigs.postgres import PostgresServer
from sandbox import DEMO_KEY, SandboxServer
from store import HistoryStore
from store.engine import make_engine
from store.migrations import upgrade
from tests.store.commands import StoreCommand, run_command

if TYPE_CHECKING:
    from tests.store.fault_matrix import Case, CaseId

_database_numbers = itertools.count(1)


def new_database_url(kind: str, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    if kind == "sqlite":
        return f"sqlite:///{tmp_path / f'history-{next(_database_numbers)}.sqlite3'}"
    server: PostgresServer = request.getfixturevalue("postgres")
    return server.create_database(f"history_{next(_database_numbers)}")


@pytest.fixture(params=["sqlite", "postgresql"])
def database_kind(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.fixture
def store_url(database_kind: str, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    """A new, empty database of this test's kind."""
    return new_database_url(database_kind, tmp_path, request)


@pytest.fixture(scope="session")
def _migrated_templates(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Per database kind, one database migrated to the newest schema (made on first use)."""
    return {}


@pytest.fixture(scope="module")
def migrated_copies(
    database_kind: str,
    request: pytest.FixtureRequest,
    _migrated_templates: dict[str, str],
    tmp_path_factory: pytest.TempPathFactory,
) -> Callable[[], str]:
    """Makes new databases of this module's kind already at the newest schema: copies of one migrated
    once per session, for modules that need a database per case by the dozen (a migration takes most of
    a second), such as a batch of cases run once for all of the module's tests (the module sets its
    ``database_kind`` for all of its tests). Each call gives a new one."""
    folder = tmp_path_factory.mktemp("databases")
    if database_kind not in _migrated_templates:
        if database_kind == "sqlite":
            url = f"sqlite:///{tmp_path_factory.mktemp('template') / 'history.sqlite3'}"
        else:
            url = request.getfixturevalue("postgres").create_database("history_template")
        HistoryStore.open(url).close()
        _migrated_templates[database_kind] = url
    template = _migrated_templates[database_kind]

    def copy() -> str:
        number = next(_database_numbers)
        if database_kind == "sqlite":
            path = folder / f"history-{number}.sqlite3"
            shutil.copyfile(template.removeprefix("sqlite:///"), path)
            return f"sqlite:///{path}"
        server: PostgresServer = request.getfixturevalue("postgres")
        return server.create_database(f"history_{number}", template="history_template")

    return copy


@pytest.fixture
def store(store_url: str) -> Iterator[HistoryStore]:
    opened = HistoryStore.open(store_url)
    yield opened
    opened.close()


#: An SQL statement of an older schema and its parameters (a list of them: the statement once per item).
Insert = tuple[str, Mapping[str, Any] | Sequence[Mapping[str, Any]]]


@pytest.fixture
def database_at(store_url: str) -> Callable[..., None]:
    """Leave this test's database at schema ``revision`` with rows written by ``inserts``; ``absent``,
    a table a later revision adds, is checked not to be there yet. Opening the store then upgrades it."""

    def at(revision: str, absent: str, *inserts: Insert) -> None:
        engine = make_engine(store_url)
        upgrade(engine, revision)
        assert absent not in inspect(engine).get_table_names()
        with engine.begin() as conn:
            for statement, parameters in inserts:
                conn.execute(text(statement), parameters)
        engine.dispose()

    return at


@pytest.fixture(scope="module")
def job_runs(request: pytest.FixtureRequest, migrated_copies: Callable[[], str]) -> dict[CaseId, Case]:
    """The daily job's fault-matrix cases the requesting module selected (``tests.store.fault_matrix``),
    run side by side once before its first test, on databases of the module's kind."""
    from tests.store.fault_matrix import run_selected

    return run_selected(request, migrated_copies)


@pytest.fixture
def demo_command(
    sandbox: SandboxServer, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> StoreCommand:
    """``python -m store`` as cron runs it (in this process), with the demo key against the session's
    sandbox."""
    monkeypatch.setenv("VERIFIEDDR_API_KEY", DEMO_KEY)
    monkeypatch.setenv("VERIFIEDDR_API_BASE", sandbox.base_url)

    return lambda *args: run_command(capsys, *args)
