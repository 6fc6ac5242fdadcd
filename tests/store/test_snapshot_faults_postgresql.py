"""The daily job's fault matrix on PostgreSQL: every operation it calls × the faults whose answers reach
the database differently (SQLite runs every fault), one database and one sandbox per case (see
``tests.store.fault_matrix``)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.store.fault_matrix import STORED_DIFFERENTLY, run_every_fault


@pytest.fixture
def database_kind() -> str:
    return "postgresql"


def test_the_job_survives_each_fault_and_keeps_everything_else(
    migrated_copies: Callable[[], str], monkeypatch: pytest.MonkeyPatch
) -> None:
    run_every_fault(migrated_copies, monkeypatch, STORED_DIFFERENTLY)
