"""A Trust Map's rows that could not be used: ``trust_map_snapshots.skipped`` counts them.

Revision ID: 0011
Revises: 0010

A map with an unusable row (a "domain" that is not a domain name, a DR that is not a number) keeps its
usable rows; the count of skipped ones tells a later comparison that a referring domain missing from
that day's sample may be one of them (unknown, not lost). Every map recorded before this revision
skipped nothing (a map with an unusable row was not kept at all), so existing rows count 0.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("trust_map_snapshots") as batch:
        batch.add_column(sa.Column("skipped", sa.Integer(), nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("trust_map_snapshots") as batch:
        batch.drop_column("skipped")
