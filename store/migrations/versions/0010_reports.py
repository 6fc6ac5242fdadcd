"""Reports: editors' comments (``report_comments``), monthly schedules (``report_schedules``) and their
outbox (``report_sends``), share links (``report_links``), spreadsheet feeds (``report_feeds``) and the
signing secret every replica shares (``store_secrets``).

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

ACCOUNT = 64
SUBJECT = 255
SHORT = 32
TOKEN = 64


def _made(prefix: str) -> list[sa.Column]:
    return [
        sa.Column(f"{prefix}_by", sa.String(SUBJECT), nullable=False),
        sa.Column(f"{prefix}_at", sa.DateTime(timezone=True), nullable=False),
    ]


def _period() -> list[sa.Column]:
    return [
        sa.Column("account", sa.String(ACCOUNT), nullable=False),
        sa.Column("site", sa.String(SUBJECT), nullable=False),
        sa.Column("period_start", sa.Date(), nullable=False),
        sa.Column("period_end", sa.Date(), nullable=False),
    ]


def upgrade() -> None:
    op.create_table(
        "report_comments",
        sa.Column("id", sa.Integer(), nullable=False),
        *_period(),
        sa.Column("text", sa.Text(), nullable=False),
        *_made("updated"),
        sa.PrimaryKeyConstraint("id", name="pk_report_comments"),
        sa.UniqueConstraint(
            "account", "site", "period_start", name="uq_report_comments_account_site_period_start"
        ),
    )
    op.create_table(
        "report_schedules",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("account", sa.String(ACCOUNT), nullable=False),
        sa.Column("site", sa.String(SUBJECT), nullable=False),
        sa.Column("recipients", sa.Text(), nullable=False),
        sa.Column("review_first", sa.Boolean(), nullable=False),
        *_made("updated"),
        sa.PrimaryKeyConstraint("id", name="pk_report_schedules"),
        sa.UniqueConstraint("account", "site", name="uq_report_schedules_account_site"),
    )
    op.create_table(
        "report_sends",
        sa.Column("id", sa.Integer(), nullable=False),
        *_period(),
        sa.Column("state", sa.String(SHORT), nullable=False),
        sa.Column("recipients", sa.Text(), nullable=False),
        sa.Column("pdf", sa.LargeBinary()),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("claimed_until", sa.DateTime(timezone=True)),
        sa.Column("built_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("approved_by", sa.String(SUBJECT)),
        sa.Column("approved_at", sa.DateTime(timezone=True)),
        sa.Column("sent_at", sa.DateTime(timezone=True)),
        sa.Column("last_error", sa.Text()),
        sa.PrimaryKeyConstraint("id", name="pk_report_sends"),
        sa.UniqueConstraint(
            "account", "site", "period_start", name="uq_report_sends_account_site_period_start"
        ),
    )
    op.create_table(
        "report_links",
        sa.Column("id", sa.Integer(), nullable=False),
        *_period(),
        *_made("created"),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revoked_at", sa.DateTime(timezone=True)),
        sa.Column("revoked_by", sa.String(SUBJECT)),
        sa.PrimaryKeyConstraint("id", name="pk_report_links"),
    )
    op.create_index("ix_report_links_account_site", "report_links", ["account", "site"])
    op.create_table(
        "report_feeds",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("account", sa.String(ACCOUNT), nullable=False),
        sa.Column("site", sa.String(SUBJECT)),
        sa.Column("keyword_group", sa.String(SHORT)),
        sa.Column("token", sa.String(TOKEN), nullable=False),
        *_made("created"),
        sa.Column("refreshed_at", sa.DateTime(timezone=True)),
        sa.Column("revoked_at", sa.DateTime(timezone=True)),
        sa.Column("revoked_by", sa.String(SUBJECT)),
        sa.PrimaryKeyConstraint("id", name="pk_report_feeds"),
        sa.UniqueConstraint("token", name="uq_report_feeds_token"),
    )
    op.create_index("ix_report_feeds_account", "report_feeds", ["account"])
    op.create_table(
        "store_secrets",
        sa.Column("name", sa.String(SHORT), nullable=False),
        sa.Column("value", sa.String(TOKEN * 2), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("name", name="pk_store_secrets"),
    )


def downgrade() -> None:
    op.drop_table("store_secrets")
    op.drop_index("ix_report_feeds_account", table_name="report_feeds")
    op.drop_table("report_feeds")
    op.drop_index("ix_report_links_account_site", table_name="report_links")
    op.drop_table("report_links")
    op.drop_table("report_sends")
    op.drop_table("report_schedules")
    op.drop_table("report_comments")
