"""Notes on charts: ``chart_notes`` (a day or span of days, what happened, and optionally the subject or
keyword group it concerns; ``kind`` tells an editor's note from a Google update an editor added).

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "chart_notes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("account", sa.String(64), nullable=False),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("end_day", sa.Date()),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("subject", sa.String(255)),
        sa.Column("keyword_group", sa.String(32)),
        sa.Column("link", sa.String(500)),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("created_by", sa.String(255), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_chart_notes"),
    )
    op.create_index("ix_chart_notes_account_day", "chart_notes", ["account", "day"])


def downgrade() -> None:
    op.drop_index("ix_chart_notes_account_day", table_name="chart_notes")
    op.drop_table("chart_notes")
