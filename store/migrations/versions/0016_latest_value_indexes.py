"""Partial indexes for each keyword's latest search volume and impressions.

Revision ID: 0016
Revises: 0015

The market weighs each keyword by its latest known search volume (or impressions): a walk down the
(account, keyword, day) index, newest day first, to the first row that carries the value
(``store.walks.latest_values``). Most keyword rows carry none (a watched keyword's report has no
volume; few rows have impressions), so at 5,000 keywords that walk stepped over most of a year's rows,
and on PostgreSQL over every month's partition. These indexes hold only the rows that carry the value:
the walk's first row is its answer. On PostgreSQL they are made on each month's partition too.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None

#: index name → the column whose rows it holds.
INDEXES = {
    "ix_keyword_snapshots_volume_days": "search_volume",
    "ix_keyword_snapshots_impression_days": "impressions",
}


def upgrade() -> None:
    for name, column in INDEXES.items():
        carrying = sa.text(f"{column} IS NOT NULL")
        op.create_index(
            name,
            "keyword_snapshots",
            ["account", "keyword", "day"],
            postgresql_where=carrying,
            sqlite_where=carrying,
        )


def downgrade() -> None:
    for name in INDEXES:
        op.drop_index(name, table_name="keyword_snapshots")
