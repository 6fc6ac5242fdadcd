"""Where the history lives: the environment wins over the secrets file, an SQLite file in data/ is the
default, a plain postgresql:// URL works, and a URL is only ever shown without its password. Plus the
``upgrade`` command and the SQLite settings that make concurrent writers safe."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rigs.postgres import PostgresServer
from services.cli import main
from store import HistoryStore, database_url, display_url
from store.config import APP_ROOT
from store.migrations import head_revision


def _secrets(tmp_path: Path, url: str) -> tuple[Path, ...]:
    path = tmp_path / "secrets.toml"
    path.write_text(f'[connections.history]\nurl = "{url}"\n', encoding="utf-8")
    return (tmp_path / "missing.toml", path)


def test_the_environment_wins_over_the_secrets_file(tmp_path: Path) -> None:
    files = _secrets(tmp_path, "sqlite:///from-secrets.sqlite3")
    assert (
        database_url({"DASHBOARD_DATABASE_URL": "sqlite:///from-env.sqlite3"}, files)
        == "sqlite:///from-env.sqlite3"
    )
    assert database_url({}, files) == "sqlite:///from-secrets.sqlite3"


def test_without_configuration_history_is_a_file_in_data_beside_the_app(tmp_path: Path) -> None:
    url = database_url({}, (tmp_path / "none.toml",))
    assert url == f"sqlite:///{APP_ROOT / 'data' / 'history.sqlite3'}"
    assert (APP_ROOT / "app.py").exists()
    assert "data/" in (APP_ROOT / ".gitignore").read_text().splitlines()


def test_a_plain_postgresql_url_uses_psycopg_and_its_password_is_never_shown(tmp_path: Path) -> None:
    url = database_url(
        {"DASHBOARD_DATABASE_URL": "postgresql://team:p%40ss-w0rd@db.internal:5432/history"}, ()
    )
    assert url.startswith("postgresql+psycopg://team:")
    shown = display_url(url)
    assert shown == "postgresql+psycopg://team:***@db.internal:5432/history"
    assert "w0rd" not in display_url("postgres://team:w0rd@db/history")


def test_sqlite_runs_in_wal_mode_with_foreign_keys_and_a_busy_timeout(tmp_path: Path) -> None:
    with HistoryStore.open(f"sqlite:///{tmp_path / 'h.sqlite3'}") as store, store.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
        assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() >= 10_000


def test_the_upgrade_command_brings_a_database_to_the_newest_schema(
    store_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["upgrade", "--database-url", store_url]) == 0
    # the newest revision, whichever it is now: a new migration must not break this test
    assert f"is up to date (schema {head_revision()})" in capsys.readouterr().out
    assert main(["upgrade", "--database-url", "postgresql://x:topsecret@127.0.0.1:9/none"]) == 3
    err = capsys.readouterr().err
    assert "History database unavailable" in err and "topsecret" not in err


#: Every form psycopg accepts a password in, plus a client key's passphrase: none may ever be shown.
QUERY_SECRETS = "?password=Qpass-4921&sslpassword=Kpass-7730&sslmode=prefer"


def test_upgrade_never_shows_a_password_given_in_the_query(
    postgres: PostgresServer, capsys: pytest.CaptureFixture[str]
) -> None:
    # The test server trusts every local connection, so the URL works and its line is printed.
    url = postgres.create_database("history_query_password") + QUERY_SECRETS
    assert main(["upgrade", "--database-url", url]) == 0
    out = capsys.readouterr().out
    assert "is up to date" in out and "127.0.0.1" in out
    assert "Qpass" not in out and "Kpass" not in out, out
    assert "sslmode=prefer" in out  # what is not a secret stays readable

    unreachable = "postgresql://x:Upass-1187@127.0.0.1:9/none" + QUERY_SECRETS
    assert main(["upgrade", "--database-url", unreachable]) == 3
    err = capsys.readouterr().err
    assert "History database unavailable" in err and "127.0.0.1:9" in err
    assert not {"Qpass", "Kpass", "Upass"} & set(re.findall(r"[A-Z]pass", err)), err
