"""Every watched keyword's whole top 10 per day: ``serp_results`` (position, domain, DR).

Revision ID: 0007
Revises: 0006

The keyword report the history already reads carries the live top 10; until this revision only the
watched site's own position was kept. Days recorded before it have no top 10 (the market view starts
with this revision's first snapshot, or the demo history).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "serp_results",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("account", sa.String(64), nullable=False),
        sa.Column("site", sa.String(255), nullable=False),
        sa.Column("keyword", sa.String(255), nullable=False),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("domain", sa.String(255), nullable=False),
        sa.Column("dr", sa.Integer()),
        sa.Column("source", sa.String(32), nullable=False),
        sa.Column("recorded_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_serp_results"),
        sa.UniqueConstraint(
            "account",
            "site",
            "keyword",
            "day",
            "position",
            name="uq_serp_results_account_site_keyword_day_position",
        ),
    )
    op.create_index("ix_serp_results_account_day", "serp_results", ["account", "day"])


def downgrade() -> None:
    op.drop_index("ix_serp_results_account_day", table_name="serp_results")
    op.drop_table("serp_results")
