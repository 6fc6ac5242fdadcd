"""Each top 10's DRs of one day summed up, and the version of the day they were summed at.

Revision ID: 0018
Revises: 0017

``top10_dr_days`` keep, per site, keyword and day, the median, lowest and highest DR of the top 10's
rated results, with and without the site's own results; ``top10_dr_stamps`` the version of the day's
top 10s they were summed at (``store.rollups.dr_days``). Both are derived: an existing history's days
are summed on their first read.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None

ACCOUNT = 64
SUBJECT = 255


def upgrade() -> None:
    op.create_table(
        "top10_dr_days",
        sa.Column("account", sa.String(ACCOUNT), nullable=False),
        sa.Column("site", sa.String(SUBJECT), nullable=False),
        sa.Column("keyword", sa.String(SUBJECT), nullable=False),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("rated", sa.Integer(), nullable=False),
        sa.Column("median_dr", sa.Float(), nullable=True),
        sa.Column("min_dr", sa.Float(), nullable=True),
        sa.Column("max_dr", sa.Float(), nullable=True),
        sa.Column("rivals_rated", sa.Integer(), nullable=False),
        sa.Column("rivals_median_dr", sa.Float(), nullable=True),
        sa.Column("rivals_min_dr", sa.Float(), nullable=True),
        sa.Column("rivals_max_dr", sa.Float(), nullable=True),
        sa.PrimaryKeyConstraint("account", "site", "keyword", "day", name="pk_top10_dr_days"),
    )
    op.create_table(
        "top10_dr_stamps",
        sa.Column("account", sa.String(ACCOUNT), nullable=False),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("account", "day", name="pk_top10_dr_stamps"),
    )


def downgrade() -> None:
    op.drop_table("top10_dr_stamps")
    op.drop_table("top10_dr_days")
