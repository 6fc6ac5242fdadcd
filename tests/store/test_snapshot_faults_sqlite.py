"""The daily job's fault matrix on an SQLite file: every operation it calls × every fault the sandbox
injects, one database and one sandbox per case (see ``tests.store.fault_matrix``)."""

from __future__ import annotations

import pytest

from tests.store.fault_matrix import FAULTS, Case, CaseId, assert_behaved, cases


@pytest.fixture(scope="module")
def database_kind() -> str:
    return "sqlite"


@pytest.mark.parametrize(("operation", "fault"), cases(FAULTS))
def test_the_job_survives_the_fault_and_keeps_everything_else(
    operation: str, fault: int | str, job_runs: dict[CaseId, Case]
) -> None:
    assert_behaved(job_runs[operation, fault])
