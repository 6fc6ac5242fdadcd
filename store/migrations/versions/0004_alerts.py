"""Alerts: each account's rule settings, the alerts the rules found, and their webhook deliveries.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "alert_rules",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("account", sa.String(64), nullable=False),
        sa.Column("rule", sa.String(32), nullable=False),
        sa.Column("threshold", sa.Float()),
        sa.Column("enabled", sa.Boolean(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_by", sa.String(255)),
        sa.PrimaryKeyConstraint("id", name="pk_alert_rules"),
        sa.UniqueConstraint("account", "rule", name="uq_alert_rules_account_rule"),
    )
    op.create_table(
        "alerts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("account", sa.String(64), nullable=False),
        sa.Column("rule", sa.String(32), nullable=False),
        sa.Column("fingerprint", sa.String(255), nullable=False),
        sa.Column("subject", sa.String(255), nullable=False),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("title", sa.Text(), nullable=False),
        sa.Column("before_value", sa.String(64)),
        sa.Column("after_value", sa.String(64)),
        sa.Column("detail", sa.Text()),
        sa.Column("chart", sa.String(32), nullable=False),
        sa.Column("chart_subject", sa.String(255), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("acknowledged_at", sa.DateTime(timezone=True)),
        sa.Column("acknowledged_by", sa.String(255)),
        sa.PrimaryKeyConstraint("id", name="pk_alerts"),
        sa.UniqueConstraint("account", "rule", "fingerprint", name="uq_alerts_account_rule_fingerprint"),
    )
    op.create_index("ix_alerts_account_acknowledged_at", "alerts", ["account", "acknowledged_at"])
    op.create_table(
        "alert_deliveries",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("alert_id", sa.Integer(), nullable=False),
        sa.Column("channel", sa.String(32), nullable=False),
        sa.Column("state", sa.String(32), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_attempt_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("claimed_until", sa.DateTime(timezone=True)),
        sa.Column("last_status", sa.Integer()),
        sa.Column("last_error", sa.Text()),
        sa.Column("delivered_at", sa.DateTime(timezone=True)),
        sa.ForeignKeyConstraint(
            ["alert_id"],
            ["alerts.id"],
            name="fk_alert_deliveries_alert_id_alerts",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_alert_deliveries"),
        sa.UniqueConstraint("alert_id", "channel", name="uq_alert_deliveries_alert_id_channel"),
    )


def downgrade() -> None:
    op.drop_table("alert_deliveries")
    op.drop_index("ix_alerts_account_acknowledged_at", table_name="alerts")
    op.drop_table("alerts")
    op.drop_table("alert_rules")
