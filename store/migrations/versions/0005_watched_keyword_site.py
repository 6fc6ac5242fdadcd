"""A watched keyword belongs to a site: ``watch_items.site`` names the domain it is measured for.

Revision ID: 0005
Revises: 0004

Before this revision a watched keyword was measured for whichever own site sorted first, so its rows
say nothing reliable about any one site. The new column is "" for domains and for every keyword
watched before it ("site unknown" until someone picks one); each existing row and every recorded
position is kept as it was. One keyword may now be watched for several sites, so the unique
constraint gains the column. SQLite cannot alter a constraint in place: the batch rebuilds the table.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("watch_items") as batch:
        batch.add_column(sa.Column("site", sa.String(255), nullable=False, server_default=""))
        batch.drop_constraint("uq_watch_items_account_kind_subject", type_="unique")
        batch.create_unique_constraint(
            "uq_watch_items_account_kind_subject_site", ["account", "kind", "subject", "site"]
        )


def downgrade() -> None:
    # A keyword watched for several sites keeps one row (the lowest id) under the old constraint.
    op.execute(
        "DELETE FROM watch_items WHERE id NOT IN "
        "(SELECT MIN(id) FROM watch_items GROUP BY account, kind, subject)"
    )
    with op.batch_alter_table("watch_items") as batch:
        batch.drop_constraint("uq_watch_items_account_kind_subject_site", type_="unique")
        batch.create_unique_constraint("uq_watch_items_account_kind_subject", ["account", "kind", "subject"])
        batch.drop_column("site")
