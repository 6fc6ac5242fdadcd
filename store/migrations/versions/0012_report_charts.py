"""Report charts already drawn (``report_charts``): an SVG under the digest of what it was drawn from.

Revision ID: 0012
Revises: 0011

Drawing a report's charts needs a browser that takes seconds to start in each process; kept here, a
chart drawn by one app process, the monthly job or a command is read back by every other (a share link
opened on a freshly started replica starts no browser). Rows are forgotten some weeks after they were
drawn (``store.reports.charts.KEEP_DAYS``).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None

ACCOUNT = 64
DIGEST = 64
SUBJECT = 255


def upgrade() -> None:
    op.create_table(
        "report_charts",
        sa.Column("account", sa.String(ACCOUNT), nullable=False),
        sa.Column("digest", sa.String(DIGEST), nullable=False),
        sa.Column("site", sa.String(SUBJECT), nullable=False),
        sa.Column("period_start", sa.Date(), nullable=False),
        sa.Column("svg", sa.Text(), nullable=False),
        sa.Column("drawn_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("account", "digest", name="pk_report_charts"),
    )
    op.create_index("ix_report_charts_drawn_at", "report_charts", ["drawn_at"])
    op.create_index(
        "ix_report_charts_account_site_period_start", "report_charts", ["account", "site", "period_start"]
    )


def downgrade() -> None:
    op.drop_index("ix_report_charts_account_site_period_start", table_name="report_charts")
    op.drop_index("ix_report_charts_drawn_at", table_name="report_charts")
    op.drop_table("report_charts")
