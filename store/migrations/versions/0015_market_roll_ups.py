"""The market's daily roll-ups and the versions of each day's top 10s.

Revision ID: 0015
Revises: 0014

``serp_day_versions`` counts the writes of an account's top 10s of each day; ``market_roll_days`` and
``market_roll_domains`` keep a keyword set's sums of each day, stamped with the version they were summed
from (``store.rollups``). Nothing is filled here: a history's days have version 0 until they are written
again, and a keyword set's roll-ups are summed on its first read.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None

ACCOUNT = 64
KEY = 64
SUBJECT = 255


def upgrade() -> None:
    op.create_table(
        "serp_day_versions",
        sa.Column("account", sa.String(ACCOUNT), nullable=False),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("account", "day", name="pk_serp_day_versions"),
    )
    op.create_table(
        "market_roll_days",
        sa.Column("account", sa.String(ACCOUNT), nullable=False),
        sa.Column("roll_key", sa.String(KEY), nullable=False),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("keywords", sa.Integer(), nullable=False),
        sa.Column("volume", sa.Float(), nullable=False),
        sa.Column("volumes_known", sa.Integer(), nullable=False),
        sa.Column("kept", sa.Integer(), nullable=True),
        sa.PrimaryKeyConstraint("account", "roll_key", "day", name="pk_market_roll_days"),
    )
    op.create_table(
        "market_roll_domains",
        sa.Column("account", sa.String(ACCOUNT), nullable=False),
        sa.Column("roll_key", sa.String(KEY), nullable=False),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("domain", sa.String(SUBJECT), nullable=False),
        sa.Column("clicks", sa.Float(), nullable=False),
        sa.Column("volume_clicks", sa.Float(), nullable=True),
        sa.PrimaryKeyConstraint("account", "roll_key", "day", "domain", name="pk_market_roll_domains"),
    )


def downgrade() -> None:
    op.drop_table("market_roll_domains")
    op.drop_table("market_roll_days")
    op.drop_table("serp_day_versions")
