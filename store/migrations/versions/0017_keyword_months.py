"""Each keyword's monthly tallies, and the versions of each day's keyword rows.

Revision ID: 0017
Revises: 0016

``keyword_day_versions`` counts the writes of an account's keyword rows of each day; ``keyword_months``
keep one site's keyword's tallies of a month (days recorded and in the top 10, best position, its newest
two days) and ``keyword_month_stamps`` the version each site's month was tallied at and its last day
(``store.rollups.keyword_months``). Every day that already has keyword rows gets version 1 here, so the
months of an existing history are tallied on their first read.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None

ACCOUNT = 64
SUBJECT = 255


def upgrade() -> None:
    op.create_table(
        "keyword_day_versions",
        sa.Column("account", sa.String(ACCOUNT), nullable=False),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("account", "day", name="pk_keyword_day_versions"),
    )
    op.create_table(
        "keyword_months",
        sa.Column("account", sa.String(ACCOUNT), nullable=False),
        sa.Column("site", sa.String(SUBJECT), nullable=False),
        sa.Column("keyword", sa.String(SUBJECT), nullable=False),
        sa.Column("month", sa.Date(), nullable=False),
        sa.Column("days_recorded", sa.Integer(), nullable=False),
        sa.Column("days_in_top_10", sa.Integer(), nullable=False),
        sa.Column("best_position", sa.Integer(), nullable=True),
        sa.Column("best_day", sa.Date(), nullable=True),
        sa.Column("last_day", sa.Date(), nullable=False),
        sa.Column("last_position", sa.Integer(), nullable=True),
        sa.Column("last_median_dr", sa.Float(), nullable=True),
        sa.Column("last_gap", sa.Float(), nullable=True),
        sa.Column("before_last_day", sa.Date(), nullable=True),
        sa.Column("before_last_position", sa.Integer(), nullable=True),
        sa.PrimaryKeyConstraint("account", "site", "keyword", "month", name="pk_keyword_months"),
    )
    op.create_table(
        "keyword_month_stamps",
        sa.Column("account", sa.String(ACCOUNT), nullable=False),
        sa.Column("site", sa.String(SUBJECT), nullable=False),
        sa.Column("month", sa.Date(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("through", sa.Date(), nullable=False),
        sa.PrimaryKeyConstraint("account", "site", "month", name="pk_keyword_month_stamps"),
    )
    op.execute(
        "INSERT INTO keyword_day_versions (account, day, version)"
        " SELECT DISTINCT account, day, 1 FROM keyword_snapshots"
    )


def downgrade() -> None:
    op.drop_table("keyword_month_stamps")
    op.drop_table("keyword_months")
    op.drop_table("keyword_day_versions")
