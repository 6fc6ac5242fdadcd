"""Each keyword's latest search volume and impressions, kept, and the keyword rows' versions they hold.

Revision ID: 0019
Revises: 0018

``keyword_latest_values`` keep, per keyword and measure (its search volume, its impressions), the latest
keyword row with a value among all sites': its day, its site and the value; ``keyword_latest_stamps``
the day versions of the keyword rows they were kept from: the last day's, and the sum of the days'
before it (``store.rollups.latest_values``). Both are
derived: an existing history's values are found on their first read.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None

ACCOUNT = 64
SUBJECT = 255
MEASURE = 32


def upgrade() -> None:
    op.create_table(
        "keyword_latest_values",
        sa.Column("account", sa.String(ACCOUNT), nullable=False),
        sa.Column("keyword", sa.String(SUBJECT), nullable=False),
        sa.Column("measure", sa.String(MEASURE), nullable=False),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("site", sa.String(SUBJECT), nullable=False),
        sa.Column("value", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("account", "keyword", "measure", name="pk_keyword_latest_values"),
    )
    op.create_table(
        "keyword_latest_stamps",
        sa.Column("account", sa.String(ACCOUNT), nullable=False),
        sa.Column("through", sa.Date(), nullable=False),
        sa.Column("before_version", sa.Integer(), nullable=False),
        sa.Column("last_version", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("account", name="pk_keyword_latest_stamps"),
    )


def downgrade() -> None:
    op.drop_table("keyword_latest_stamps")
    op.drop_table("keyword_latest_values")
