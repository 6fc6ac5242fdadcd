"""The daily job's fault matrix on an SQLite file: every operation it calls × every fault the sandbox
injects, one database and one sandbox per case (see ``tests.store.fault_matrix``)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.store.fault_matrix import FAULTS, Case, CaseId, assert_behaved, cases, run_selected


@pytest.fixture(scope="module")
def database_kind() -> str:
    return "sqlite"


@pytest.fixture(scope="module")
def job_runs(request: pytest.FixtureRequest, migrated_copies: Callable[[], str]) -> dict[CaseId, Case]:
    """This module's selected cases, run side by side once before its first test."""
    return run_selected(request, migrated_copies)


@pytest.mark.parametrize(("operation", "fault"), cases(FAULTS))
def test_the_job_survives_the_fault_and_keeps_everything_else(
    operation: str, fault: int | str, job_runs: dict[CaseId, Case]
) -> None:
    assert_behaved(job_runs[operation, fault])
