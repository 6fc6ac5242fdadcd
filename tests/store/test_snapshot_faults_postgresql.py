"""The daily job's fault matrix on PostgreSQL: every operation it calls × the faults whose answers reach
the database differently (SQLite runs every fault), one database and one sandbox per case (see
``tests.store.fault_matrix``)."""

from __future__ import annotations

import pytest

from tests.store.fault_matrix import STORED_DIFFERENTLY, Case, CaseId, assert_behaved, cases


@pytest.fixture(scope="module")
def database_kind() -> str:
    return "postgresql"


@pytest.mark.parametrize(("operation", "fault"), cases(STORED_DIFFERENTLY))
def test_the_job_survives_the_fault_and_keeps_everything_else(
    operation: str, fault: int | str, job_runs: dict[CaseId, Case]
) -> None:
    assert_behaved(job_runs[operation, fault])
