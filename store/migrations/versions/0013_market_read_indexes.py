"""Indexes for how the market reads the top 10s and the keyword history at agency size.

Revision ID: 0013
Revises: 0012

The Market page, the reports and the visibility command read one site's top 10s over a period
(``serp_results`` by account, site and day; until now only by account and day, or through the unique key,
which starts with the keyword after the site). The weights of the volume-weighted visibility are each
keyword's latest known volume (``keyword_snapshots`` by account, keyword and day), and the History page
reads every keyword of a period (by account and day). On a year of 5,000 keywords (18 million top-10
rows) building them takes a while, once, at the upgrade.
"""

from __future__ import annotations

from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_serp_results_account_site_day", "serp_results", ["account", "site", "day"])
    op.create_index("ix_keyword_snapshots_account_day", "keyword_snapshots", ["account", "day"])
    op.create_index(
        "ix_keyword_snapshots_account_keyword_day", "keyword_snapshots", ["account", "keyword", "day"]
    )


def downgrade() -> None:
    op.drop_index("ix_keyword_snapshots_account_keyword_day", table_name="keyword_snapshots")
    op.drop_index("ix_keyword_snapshots_account_day", table_name="keyword_snapshots")
    op.drop_index("ix_serp_results_account_site_day", table_name="serp_results")
