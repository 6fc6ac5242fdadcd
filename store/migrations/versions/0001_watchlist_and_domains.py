"""The first schema: the watchlist and one lookup row per (account, domain, day).

Revision ID: 0001
Revises: (none)
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "watch_items",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("account", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("subject", sa.String(255), nullable=False),
        sa.Column("origin", sa.String(32), nullable=False),
        sa.Column("added_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_watch_items"),
        sa.UniqueConstraint("account", "kind", "subject", name="uq_watch_items_account_kind_subject"),
    )
    op.create_table(
        "domain_snapshots",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("account", sa.String(64), nullable=False),
        sa.Column("domain", sa.String(255), nullable=False),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("dr", sa.Integer()),
        sa.Column("true_dr", sa.Integer()),
        sa.Column("trust_score", sa.Integer()),
        sa.Column("confidence", sa.String(32)),
        sa.Column("traffic", sa.BigInteger()),
        sa.Column("referring_domains", sa.BigInteger()),
        sa.Column("backlinks", sa.BigInteger()),
        sa.Column("gained_domains", sa.BigInteger()),
        sa.Column("lost_domains", sa.BigInteger()),
        sa.Column("traffic_validated", sa.Boolean()),
        sa.Column("verified", sa.Boolean()),
        sa.Column("source", sa.String(32), nullable=False),
        sa.Column("recorded_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_domain_snapshots"),
        sa.UniqueConstraint("account", "domain", "day", name="uq_domain_snapshots_account_domain_day"),
    )


def downgrade() -> None:
    op.drop_table("domain_snapshots")
    op.drop_table("watch_items")
