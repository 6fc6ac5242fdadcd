"""Schema migrations of the history database (Alembic, configured in code: no alembic.ini needed).

``upgrade(engine, revision)`` brings a database to ``revision`` (the newest by default) inside one
transaction: on PostgreSQL behind an advisory lock, on SQLite behind ``BEGIN IMMEDIATE``, so the app
and the daily job starting at the same moment never both create the same table. A database already
at the newest revision is left alone without taking any lock.
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine

from store.engine import write_engine

MIGRATIONS_DIR = Path(__file__).resolve().parent
FIRST_REVISION = "0001"
#: An arbitrary constant: the key of the PostgreSQL advisory lock held while migrating.
ADVISORY_LOCK_KEY = 7_140_014


def alembic_config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    return config


def head_revision() -> str:
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None
    return head


def current_revision(engine: Engine) -> str | None:
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Apply migrations up to ``revision``; a no-op (and lock-free) when already there."""
    wanted = head_revision() if revision == "head" else revision
    if current_revision(engine) == wanted:
        return
    config = alembic_config()
    with write_engine(engine).begin() as connection:
        if connection.dialect.name == "postgresql":
            connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({ADVISORY_LOCK_KEY})")
        config.attributes["connection"] = connection
        command.upgrade(config, revision)
