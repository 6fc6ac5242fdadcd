"""Schema migrations of the history database (Alembic, configured in code: no alembic.ini needed).

``upgrade(engine, revision)`` brings a database to ``revision`` (the newest by default) inside one
transaction: on PostgreSQL behind an advisory lock, on SQLite behind ``BEGIN IMMEDIATE``, so the app
and the daily job starting at the same moment never both create the same table. A database already
at the newest revision is left alone without taking any lock, and without importing Alembic: its
revision is read with one query and compared with ``HEAD_REVISION``, so an app server started on a
migrated database never loads Alembic and Mako (about 7 MiB of every replica's memory).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import Engine, inspect, text

from store.engine import write_engine

if TYPE_CHECKING:
    from alembic.config import Config

MIGRATIONS_DIR = Path(__file__).resolve().parent
FIRST_REVISION = "0001"
#: An arbitrary constant: the key of the PostgreSQL advisory lock held while migrating.
ADVISORY_LOCK_KEY = 7_140_014
#: The newest revision in versions/ (a test checks it against Alembic's own answer): bump it with
#: every new migration. Were it left behind, ``upgrade`` would only lose its shortcut, never skip work.
HEAD_REVISION = "0019"
#: Where Alembic keeps a database's revision (its default table).
VERSION_TABLE = "alembic_version"


class SchemaUnknown(Exception):
    """The database is at a revision this version does not know (made by a newer version?)."""


def alembic_config() -> Config:
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    return config


def head_revision() -> str:
    """The newest revision as Alembic reads it from versions/ (imports Alembic)."""
    from alembic.script import ScriptDirectory

    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None
    return head


def current_revision(engine: Engine) -> str | None:
    """The database's revision, None when it has none yet (read with SQLAlchemy alone)."""
    with engine.connect() as connection:
        if not inspect(connection).has_table(VERSION_TABLE):
            return None
        revisions = connection.execute(text("SELECT version_num FROM alembic_version")).scalars().all()
    if len(revisions) > 1:
        raise SchemaUnknown(f"the database has {len(revisions)} revisions at once: {sorted(revisions)}")
    return revisions[0] if revisions else None


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Apply migrations up to ``revision``; a no-op (lock-free, Alembic not imported) when already there.

    SchemaUnknown when the database is at a revision this version does not know.
    """
    wanted = HEAD_REVISION if revision == "head" else revision
    if current_revision(engine) == wanted:
        return
    from alembic import command
    from alembic.util import CommandError

    config = alembic_config()
    with write_engine(engine).begin() as connection:
        if connection.dialect.name == "postgresql":
            connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({ADVISORY_LOCK_KEY})")
        config.attributes["connection"] = connection
        try:
            command.upgrade(config, revision)
        except CommandError as exc:
            raise SchemaUnknown(str(exc)) from exc


def downgrade(engine: Engine, revision: str) -> None:
    """Take the schema back to ``revision`` in one transaction, behind the same lock as ``upgrade`` (an
    operator going back to an older version of the dashboard; tests of each revision's way back)."""
    from alembic import command

    config = alembic_config()
    with write_engine(engine).begin() as connection:
        if connection.dialect.name == "postgresql":
            connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({ADVISORY_LOCK_KEY})")
        config.attributes["connection"] = connection
        command.downgrade(config, revision)
