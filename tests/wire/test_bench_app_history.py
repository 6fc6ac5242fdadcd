"""The benchmarks' app processes keep their history in a database of their own: a temporary SQLite file
removed when the app stops (never the repository's data/ folder), or the one the caller names."""

from __future__ import annotations

from pathlib import Path

import pytest

from rigs.processes import DATABASE_ENV, ROOT, app_process


def _environment(pid: int) -> dict[str, str]:
    """What a running process was started with (Linux)."""
    raw = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    return dict(entry.decode().split("=", 1) for entry in raw if b"=" in entry)


def _sqlite_file(url: str) -> Path:
    assert url.startswith("sqlite:///"), url
    return Path(url.removeprefix("sqlite:///"))


def test_an_app_started_for_a_benchmark_gets_a_temporary_history_database(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(DATABASE_ENV, raising=False)  # a benchmark run from a plain shell
    with app_process(api_key=None) as app:
        database = _sqlite_file(_environment(app.pid).get(DATABASE_ENV, "sqlite:///" + str(ROOT / "data")))
        assert ROOT not in database.parents  # not the repository's data/ folder
        assert database.parent.is_dir()
    assert not database.parent.exists()  # removed once the app stopped


def test_a_history_database_the_caller_names_is_used_and_kept(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'mine.sqlite3'}"
    with app_process(api_key=None, database_url=url) as app:
        assert _environment(app.pid)[DATABASE_ENV] == url
    assert tmp_path.is_dir()


def test_an_app_started_without_a_sandbox_to_ask_runs_on_its_own_and_gets_no_key(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A key without an address would send the app to the real service: a benchmark asks this machine only.
    monkeypatch.setenv("VERIFIEDDR_API_BASE", "https://elsewhere.invalid")
    with app_process() as app:
        started_with = _environment(app.pid)
    assert started_with["VERIFIEDDR_API_KEY"] == "" and "VERIFIEDDR_API_BASE" not in started_with
