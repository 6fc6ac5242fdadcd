"""Alembic's entry point: runs the migrations on the connection ``store.migrations.upgrade`` hands over.

Only the online mode exists (there is no SQL-script mode to support): the caller owns the connection
and its transaction, so the whole upgrade commits or rolls back as one.
"""

from __future__ import annotations

from alembic import context

from store.models import Base
from store.reports import tables as _report_tables  # noqa: F401  # their tables join Base.metadata
from store.rollups import tables as _rollup_tables  # noqa: F401  # their tables join Base.metadata

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError(
        "run the history migrations through store.migrations.upgrade (python -m store upgrade)"
    )

context.configure(
    connection=connection,
    target_metadata=Base.metadata,
    render_as_batch=connection.dialect.name == "sqlite",
)
with context.begin_transaction():
    context.run_migrations()
