"""The audit log: one appended row per write attempt from the app (who, account, what, outcome).

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "audit_events",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("person", sa.String(255), nullable=False),
        sa.Column("role", sa.String(32)),
        sa.Column("account", sa.String(64), nullable=False),
        sa.Column("operation", sa.String(64), nullable=False),
        sa.Column("target", sa.String(500)),
        sa.Column("outcome", sa.String(32), nullable=False),
        sa.Column("status", sa.Integer()),
        sa.Column("message", sa.Text()),
        sa.Column("detail", sa.Text()),
        sa.PrimaryKeyConstraint("id", name="pk_audit_events"),
    )
    op.create_index("ix_audit_events_account_at", "audit_events", ["account", "at"])


def downgrade() -> None:
    op.drop_index("ix_audit_events_account_at", table_name="audit_events")
    op.drop_table("audit_events")
