"""The history tables at the newest schema revision (SQLAlchemy 2 typed declarative).

Every snapshot row carries the account it was read with (the API key's fingerprint, never the key)
and the day it stands for; one row per (account, subject, day), enforced by a unique constraint that
the upserts in ``store.recording`` conflict on. The migrations in ``store/migrations/versions`` build
exactly these tables; the models are what queries and writes use.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import ClassVar

from sqlalchemy import (
    BigInteger,
    Boolean,
    Date,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

#: Constraint names the migrations use too, so both sides agree on every database.
NAMING_CONVENTION = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

ACCOUNT_LEN = 64
SUBJECT_LEN = 255
SHORT_LEN = 32
#: A note's link (a Google update's page on the Search Status Dashboard).
LINK_LEN = 500


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)
    #: Every model here maps one table (SQLAlchemy types ``__table__`` as any ``FromClause``, which
    #: ``insert``/``update`` don't take): saying so once lets queries use ``Model.__table__`` typed.
    __table__: ClassVar[Table]


class WatchItemRow(Base):
    """A domain or keyword an account watches; ``origin``: own (its site), added (by a person), demo.

    ``site`` is the domain a watched keyword is measured for ("" for a domain, and for a keyword watched
    before sites were recorded: "site unknown"); one keyword may be watched for several sites.
    """

    __tablename__ = "watch_items"
    __table_args__ = (UniqueConstraint("account", "kind", "subject", "site"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    account: Mapped[str] = mapped_column(String(ACCOUNT_LEN))
    kind: Mapped[str] = mapped_column(String(SHORT_LEN))
    subject: Mapped[str] = mapped_column(String(SUBJECT_LEN))
    origin: Mapped[str] = mapped_column(String(SHORT_LEN))
    added_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    site: Mapped[str] = mapped_column(String(SUBJECT_LEN), server_default="")


class DomainSnapshotRow(Base):
    """A domain's lookup on one day (``global_rank`` came with the second revision)."""

    __tablename__ = "domain_snapshots"
    __table_args__ = (UniqueConstraint("account", "domain", "day"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    account: Mapped[str] = mapped_column(String(ACCOUNT_LEN))
    domain: Mapped[str] = mapped_column(String(SUBJECT_LEN))
    day: Mapped[date] = mapped_column(Date)
    dr: Mapped[int | None] = mapped_column(Integer)
    true_dr: Mapped[int | None] = mapped_column(Integer)
    trust_score: Mapped[int | None] = mapped_column(Integer)
    confidence: Mapped[str | None] = mapped_column(String(SHORT_LEN))
    traffic: Mapped[int | None] = mapped_column(BigInteger)
    referring_domains: Mapped[int | None] = mapped_column(BigInteger)
    backlinks: Mapped[int | None] = mapped_column(BigInteger)
    gained_domains: Mapped[int | None] = mapped_column(BigInteger)
    lost_domains: Mapped[int | None] = mapped_column(BigInteger)
    traffic_validated: Mapped[bool | None] = mapped_column(Boolean)
    verified: Mapped[bool | None] = mapped_column(Boolean)
    source: Mapped[str] = mapped_column(String(SHORT_LEN))
    recorded_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    global_rank: Mapped[int | None] = mapped_column(BigInteger)


class TrustMapSnapshotRow(Base):
    """A domain's Trust Map totals on one day; its sampled links are in ``trust_map_links``.

    ``links_digest`` fingerprints the link sample, so a day whose totals stayed the same but whose
    links changed is still recorded (and one whose links did not change is "unchanged").
    """

    __tablename__ = "trust_map_snapshots"
    __table_args__ = (UniqueConstraint("account", "domain", "day"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    account: Mapped[str] = mapped_column(String(ACCOUNT_LEN))
    domain: Mapped[str] = mapped_column(String(SUBJECT_LEN))
    day: Mapped[date] = mapped_column(Date)
    total_domains: Mapped[int | None] = mapped_column(BigInteger)
    sampled: Mapped[int] = mapped_column(Integer)
    live: Mapped[int] = mapped_column(Integer)
    lost: Mapped[int] = mapped_column(Integer)
    spam_risky: Mapped[int] = mapped_column(Integer)
    #: Rows of the answer that could not be used (not in the links): unknown that day, never lost.
    skipped: Mapped[int] = mapped_column(Integer, server_default="0")
    links_digest: Mapped[str] = mapped_column(String(64))
    source: Mapped[str] = mapped_column(String(SHORT_LEN))
    recorded_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class TrustMapLinkRow(Base):
    """One referring domain of a Trust Map snapshot (replaced whole when the day's snapshot changes)."""

    __tablename__ = "trust_map_links"

    snapshot_id: Mapped[int] = mapped_column(
        ForeignKey("trust_map_snapshots.id", ondelete="CASCADE"), primary_key=True
    )
    referring_domain: Mapped[str] = mapped_column(String(SUBJECT_LEN), primary_key=True)
    dr: Mapped[int | None] = mapped_column(Integer)
    backlinks: Mapped[int | None] = mapped_column(BigInteger)
    link_type: Mapped[str | None] = mapped_column(String(SHORT_LEN))
    status: Mapped[str | None] = mapped_column(String(SHORT_LEN))
    spam_score: Mapped[float | None] = mapped_column(Float)
    importance: Mapped[float | None] = mapped_column(Float)


class KeywordSnapshotRow(Base):
    """A keyword's position and bar on one day: a tracked keyword of a site (``site`` = its slug), or a
    watched keyword's report (``site`` = the domain it was measured for, which has a dot where a slug
    has none; "" for reports recorded before watched keywords had a site: "site unknown")."""

    __tablename__ = "keyword_snapshots"
    __table_args__ = (
        UniqueConstraint("account", "site", "keyword", "day"),
        Index(None, "account", "day"),
        Index(None, "account", "keyword", "day"),
        # Only the rows carrying a value: each keyword's latest one is the first row (migration 0016).
        *(
            Index(
                f"ix_keyword_snapshots_{name}_days",
                "account",
                "keyword",
                "day",
                postgresql_where=text(f"{column} IS NOT NULL"),
                sqlite_where=text(f"{column} IS NOT NULL"),
            )
            for name, column in (("volume", "search_volume"), ("impression", "impressions"))
        ),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    account: Mapped[str] = mapped_column(String(ACCOUNT_LEN))
    site: Mapped[str] = mapped_column(String(SUBJECT_LEN))
    keyword: Mapped[str] = mapped_column(String(SUBJECT_LEN))
    day: Mapped[date] = mapped_column(Date)
    position: Mapped[int | None] = mapped_column(Integer)
    previous_position: Mapped[int | None] = mapped_column(Integer)
    median_dr: Mapped[float | None] = mapped_column(Float)
    min_dr: Mapped[float | None] = mapped_column(Float)
    user_dr: Mapped[int | None] = mapped_column(Integer)
    gap: Mapped[float | None] = mapped_column(Float)
    tier: Mapped[str | None] = mapped_column(String(SHORT_LEN))
    impressions: Mapped[int | None] = mapped_column(BigInteger)
    search_volume: Mapped[int | None] = mapped_column(BigInteger)
    source: Mapped[str] = mapped_column(String(SHORT_LEN))
    recorded_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class SerpResultRow(Base):
    """One result of a watched keyword's top 10 on one day: its position, domain and DR (None when the
    service could not resolve it, never 0). Kept from the same report as the keyword's own row (no extra
    call), under the same (account, site, keyword, day), replaced whole when the day's top 10 changes."""

    __tablename__ = "serp_results"
    __table_args__ = (
        UniqueConstraint("account", "site", "keyword", "day", "position"),
        Index(None, "account", "day"),
        Index(None, "account", "site", "day"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    account: Mapped[str] = mapped_column(String(ACCOUNT_LEN))
    site: Mapped[str] = mapped_column(String(SUBJECT_LEN))
    keyword: Mapped[str] = mapped_column(String(SUBJECT_LEN))
    day: Mapped[date] = mapped_column(Date)
    position: Mapped[int] = mapped_column(Integer)
    domain: Mapped[str] = mapped_column(String(SUBJECT_LEN))
    dr: Mapped[int | None] = mapped_column(Integer)
    source: Mapped[str] = mapped_column(String(SHORT_LEN))
    recorded_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class KeywordTagRow(Base):
    """A tag an editor gave a keyword ("pricing", "blog"): the market view's groups. A tag belongs to the
    keyword, whichever site it is watched or tracked for; a keyword has any number of tags."""

    __tablename__ = "keyword_tags"
    __table_args__ = (UniqueConstraint("account", "keyword", "tag"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    account: Mapped[str] = mapped_column(String(ACCOUNT_LEN))
    keyword: Mapped[str] = mapped_column(String(SUBJECT_LEN))
    tag: Mapped[str] = mapped_column(String(SHORT_LEN))
    added_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class BrandTermRow(Base):
    """A brand term of one of the account's own sites: a keyword watched for the site that contains one is
    a brand keyword. A site without rows uses its name (``analysis.market.groups.default_brand_terms``)."""

    __tablename__ = "brand_terms"
    __table_args__ = (UniqueConstraint("account", "site", "term"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    account: Mapped[str] = mapped_column(String(ACCOUNT_LEN))
    site: Mapped[str] = mapped_column(String(SUBJECT_LEN))
    term: Mapped[str] = mapped_column(String(SUBJECT_LEN))
    added_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ChartNoteRow(Base):
    """A note an editor put on the charts: a day (or, for a Google update, a span of days) and what
    happened. ``subject`` (a domain or keyword) and ``keyword_group`` narrow the charts it shows on;
    empty, it shows on every History and Market chart of its days."""

    __tablename__ = "chart_notes"
    __table_args__ = (Index(None, "account", "day"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    account: Mapped[str] = mapped_column(String(ACCOUNT_LEN))
    day: Mapped[date] = mapped_column(Date)
    end_day: Mapped[date | None] = mapped_column(Date)
    kind: Mapped[str] = mapped_column(String(SHORT_LEN))
    text: Mapped[str] = mapped_column(Text)
    subject: Mapped[str | None] = mapped_column(String(SUBJECT_LEN))
    keyword_group: Mapped[str | None] = mapped_column(String(SHORT_LEN))
    link: Mapped[str | None] = mapped_column(String(LINK_LEN))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    created_by: Mapped[str] = mapped_column(String(SUBJECT_LEN))


AUDIT_TEXT_LEN = 500


class AuditEventRow(Base):
    """One write attempt from the app: who, in which account, what, on what, and what became of it.

    Appended only: nothing in the store updates or deletes these rows. Never holds the API key; for an
    exchange proposal ``detail`` holds the subject, never the message body.
    """

    __tablename__ = "audit_events"
    __table_args__ = (Index(None, "account", "at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    person: Mapped[str] = mapped_column(String(SUBJECT_LEN))
    role: Mapped[str | None] = mapped_column(String(SHORT_LEN))
    account: Mapped[str] = mapped_column(String(ACCOUNT_LEN))
    operation: Mapped[str] = mapped_column(String(SHORT_LEN * 2))
    target: Mapped[str | None] = mapped_column(String(AUDIT_TEXT_LEN))
    outcome: Mapped[str] = mapped_column(String(SHORT_LEN))
    status: Mapped[int | None] = mapped_column(Integer)
    message: Mapped[str | None] = mapped_column(Text)
    detail: Mapped[str | None] = mapped_column(Text)


class AlertRuleRow(Base):
    """An account's choice for one alert rule (threshold, on or off); no row means the rule's defaults."""

    __tablename__ = "alert_rules"
    __table_args__ = (UniqueConstraint("account", "rule"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    account: Mapped[str] = mapped_column(String(ACCOUNT_LEN))
    rule: Mapped[str] = mapped_column(String(SHORT_LEN))
    threshold: Mapped[float | None] = mapped_column(Float)
    enabled: Mapped[bool] = mapped_column(Boolean)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_by: Mapped[str | None] = mapped_column(String(SUBJECT_LEN))


class AlertRow(Base):
    """One thing a rule found on one snapshot day; ``fingerprint`` makes re-evaluating the day a no-op.

    Open while ``acknowledged_at`` is empty; acknowledged ones are kept for history.
    """

    __tablename__ = "alerts"
    __table_args__ = (
        UniqueConstraint("account", "rule", "fingerprint"),
        Index(None, "account", "acknowledged_at"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    account: Mapped[str] = mapped_column(String(ACCOUNT_LEN))
    rule: Mapped[str] = mapped_column(String(SHORT_LEN))
    fingerprint: Mapped[str] = mapped_column(String(SUBJECT_LEN))
    subject: Mapped[str] = mapped_column(String(SUBJECT_LEN))
    day: Mapped[date] = mapped_column(Date)
    title: Mapped[str] = mapped_column(Text)
    before_value: Mapped[str | None] = mapped_column(String(SHORT_LEN * 2))
    after_value: Mapped[str | None] = mapped_column(String(SHORT_LEN * 2))
    detail: Mapped[str | None] = mapped_column(Text)
    chart: Mapped[str] = mapped_column(String(SHORT_LEN))
    chart_subject: Mapped[str] = mapped_column(String(SUBJECT_LEN))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    acknowledged_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    acknowledged_by: Mapped[str | None] = mapped_column(String(SUBJECT_LEN))
    #: The evidence a chart link opens on (``store.alerts.catalog.Finding``); empty on alerts found
    #: before revision 0006 knew the comparison's earlier day (their links fall back to the rule's usual).
    since: Mapped[date | None] = mapped_column(Date)
    metric: Mapped[str | None] = mapped_column(String(SHORT_LEN))
    referring_domain: Mapped[str | None] = mapped_column(String(SUBJECT_LEN))
    site: Mapped[str | None] = mapped_column(String(SUBJECT_LEN))


class AlertDeliveryRow(Base):
    """An alert's delivery to one channel (the webhook): an outbox row, made with the alert."""

    __tablename__ = "alert_deliveries"
    __table_args__ = (UniqueConstraint("alert_id", "channel"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    alert_id: Mapped[int] = mapped_column(ForeignKey("alerts.id", ondelete="CASCADE"))
    channel: Mapped[str] = mapped_column(String(SHORT_LEN))
    state: Mapped[str] = mapped_column(String(SHORT_LEN))
    attempts: Mapped[int] = mapped_column(Integer)
    next_attempt_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    claimed_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    last_status: Mapped[int | None] = mapped_column(Integer)
    last_error: Mapped[str | None] = mapped_column(Text)
    delivered_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
