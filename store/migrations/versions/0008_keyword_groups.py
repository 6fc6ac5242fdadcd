"""Keyword groups: editors' tags on keywords (``keyword_tags``) and each own site's brand terms
(``brand_terms``), which split its keywords into brand and non-brand.

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "keyword_tags",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("account", sa.String(64), nullable=False),
        sa.Column("keyword", sa.String(255), nullable=False),
        sa.Column("tag", sa.String(32), nullable=False),
        sa.Column("added_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_keyword_tags"),
        sa.UniqueConstraint("account", "keyword", "tag", name="uq_keyword_tags_account_keyword_tag"),
    )
    op.create_table(
        "brand_terms",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("account", sa.String(64), nullable=False),
        sa.Column("site", sa.String(255), nullable=False),
        sa.Column("term", sa.String(255), nullable=False),
        sa.Column("added_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_brand_terms"),
        sa.UniqueConstraint("account", "site", "term", name="uq_brand_terms_account_site_term"),
    )


def downgrade() -> None:
    op.drop_table("brand_terms")
    op.drop_table("keyword_tags")
