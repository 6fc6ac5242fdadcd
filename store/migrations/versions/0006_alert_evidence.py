"""An alert keeps the evidence its chart link opens on: ``alerts.since`` (the day of the earlier snapshot
the rule compared with), ``metric``, ``referring_domain`` and ``site``.

Revision ID: 0006
Revises: 0005

All four are nullable: an alert found before this revision did not record the day it was compared
with, and its link falls back to the rule's usual comparison (a week for the weekly rules, the day
before for the others). The other three are recovered from what every alert row already holds: the
rule and its fingerprint ("subject|key|day", or "subject|key" for a rule told once), whose key is the
metric of a DR or TrueDR drop, a Trust Map alert's referring domain or a keyword's site. A fingerprint
shortened with a hash (longer than 255 characters) is left as it is.
"""

from __future__ import annotations

from datetime import date
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

#: A rule's fixed metric (the rules of a DR or TrueDR drop name theirs in the fingerprint).
FIXED_METRIC = {
    "referring_domains_fell": "referring_domains",
    "traffic_validation_lost": "traffic_validated",
    "verification_lost": "verified",
}
KEYWORD_RULES = ("keyword_left_top10", "keyword_moved")
LINK_RULES = ("spam_risky_link", "strong_link_lost")
#: Rules told once ever per subject and key: their fingerprint has no day.
ONCE = ("spam_risky_link",)


def fingerprint_key(rule: str, subject: str, day: date | str, fingerprint: str) -> str | None:
    """The key between the subject and the day in a fingerprint (None when it cannot be read back)."""
    head = f"{subject}|"
    tail = "" if rule in ONCE else f"|{day if isinstance(day, str) else day.isoformat()}"
    if not fingerprint.startswith(head) or not fingerprint.endswith(tail):
        return None
    key = fingerprint[len(head) : len(fingerprint) - len(tail)]
    return key or None


def evidence_of(rule: str, subject: str, day: date | str, fingerprint: str) -> dict[str, Any]:
    """The metric, referring domain and site an old alert row's rule and fingerprint tell."""
    if rule in FIXED_METRIC:
        return {"metric": FIXED_METRIC[rule]}
    if rule == "partner_stopped_linking":
        return {"referring_domain": subject}
    key = fingerprint_key(rule, subject, day, fingerprint)
    if key is None:
        return {}
    if rule == "authority_drop" and key in ("dr", "true_dr"):
        return {"metric": key}
    if rule in KEYWORD_RULES:
        return {"site": "" if key == "watched" else key}
    if rule in LINK_RULES:
        return {"referring_domain": key}
    return {}


def upgrade() -> None:
    with op.batch_alter_table("alerts") as batch:
        batch.add_column(sa.Column("since", sa.Date()))
        batch.add_column(sa.Column("metric", sa.String(32)))
        batch.add_column(sa.Column("referring_domain", sa.String(255)))
        batch.add_column(sa.Column("site", sa.String(255)))
    connection = op.get_bind()
    alerts = sa.table(
        "alerts",
        sa.column("id"),
        sa.column("rule"),
        sa.column("subject"),
        sa.column("day"),
        sa.column("fingerprint"),
        sa.column("metric"),
        sa.column("referring_domain"),
        sa.column("site"),
    )
    rows = connection.execute(
        sa.select(alerts.c.id, alerts.c.rule, alerts.c.subject, alerts.c.day, alerts.c.fingerprint)
    )
    for row in rows.all():
        found = evidence_of(row.rule, row.subject, row.day, row.fingerprint)
        if found:
            connection.execute(sa.update(alerts).where(alerts.c.id == row.id).values(**found))


def downgrade() -> None:
    with op.batch_alter_table("alerts") as batch:
        for name in ("site", "referring_domain", "metric", "since"):
            batch.drop_column(name)
