"""Trust Map snapshots with their links, keyword positions, and each lookup's global rank.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Nullable: the days recorded before this revision simply have no rank.
    op.add_column("domain_snapshots", sa.Column("global_rank", sa.BigInteger(), nullable=True))
    op.create_table(
        "trust_map_snapshots",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("account", sa.String(64), nullable=False),
        sa.Column("domain", sa.String(255), nullable=False),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("total_domains", sa.BigInteger()),
        sa.Column("sampled", sa.Integer(), nullable=False),
        sa.Column("live", sa.Integer(), nullable=False),
        sa.Column("lost", sa.Integer(), nullable=False),
        sa.Column("spam_risky", sa.Integer(), nullable=False),
        sa.Column("links_digest", sa.String(64), nullable=False),
        sa.Column("source", sa.String(32), nullable=False),
        sa.Column("recorded_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_trust_map_snapshots"),
        sa.UniqueConstraint("account", "domain", "day", name="uq_trust_map_snapshots_account_domain_day"),
    )
    op.create_table(
        "trust_map_links",
        sa.Column("snapshot_id", sa.Integer(), nullable=False),
        sa.Column("referring_domain", sa.String(255), nullable=False),
        sa.Column("dr", sa.Integer()),
        sa.Column("backlinks", sa.BigInteger()),
        sa.Column("link_type", sa.String(32)),
        sa.Column("status", sa.String(32)),
        sa.Column("spam_score", sa.Float()),
        sa.Column("importance", sa.Float()),
        sa.ForeignKeyConstraint(
            ["snapshot_id"],
            ["trust_map_snapshots.id"],
            name="fk_trust_map_links_snapshot_id_trust_map_snapshots",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("snapshot_id", "referring_domain", name="pk_trust_map_links"),
    )
    op.create_table(
        "keyword_snapshots",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("account", sa.String(64), nullable=False),
        sa.Column("site", sa.String(255), nullable=False),
        sa.Column("keyword", sa.String(255), nullable=False),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("position", sa.Integer()),
        sa.Column("previous_position", sa.Integer()),
        sa.Column("median_dr", sa.Float()),
        sa.Column("min_dr", sa.Float()),
        sa.Column("user_dr", sa.Integer()),
        sa.Column("gap", sa.Float()),
        sa.Column("tier", sa.String(32)),
        sa.Column("impressions", sa.BigInteger()),
        sa.Column("search_volume", sa.BigInteger()),
        sa.Column("source", sa.String(32), nullable=False),
        sa.Column("recorded_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_keyword_snapshots"),
        sa.UniqueConstraint(
            "account", "site", "keyword", "day", name="uq_keyword_snapshots_account_site_keyword_day"
        ),
    )


def downgrade() -> None:
    op.drop_table("keyword_snapshots")
    op.drop_table("trust_map_links")
    op.drop_table("trust_map_snapshots")
    with op.batch_alter_table("domain_snapshots") as batch:
        batch.drop_column("global_rank")
