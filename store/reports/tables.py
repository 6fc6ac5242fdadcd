"""The report tables (revision 0010): editors' comments, monthly schedules and their outbox, share
links, spreadsheet feeds, and the one signing secret every replica and the cron jobs share; and the
report charts already drawn (revision 0012).

Kept beside the reports rather than in ``store.models``, on the same ``Base``: the migrations' metadata
(``store.migrations.env``) and ``HistoryStore`` (through the report repositories) import them, so every table
is in the metadata the migrations and backups walk.
"""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import Boolean, Date, DateTime, Index, Integer, LargeBinary, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from store.models import ACCOUNT_LEN, SHORT_LEN, SUBJECT_LEN, Base

TOKEN_LEN = 64
#: A shared column's place: before the table's own (whose ``sort_order`` is 0).
FIRST = -1


class _SitePeriod:
    """The columns a row about one site's report for one period starts with (a comment, a send, a link);
    ``sort_order`` puts them first in the table, as the migrations made it."""

    id: Mapped[int] = mapped_column(Integer, primary_key=True, sort_order=FIRST)
    account: Mapped[str] = mapped_column(String(ACCOUNT_LEN), sort_order=FIRST)
    site: Mapped[str] = mapped_column(String(SUBJECT_LEN), sort_order=FIRST)
    period_start: Mapped[date] = mapped_column(Date, sort_order=FIRST)
    period_end: Mapped[date] = mapped_column(Date, sort_order=FIRST)


class ReportCommentRow(_SitePeriod, Base):
    """An editor's comment on one site's report for one period, printed in it and in every copy sent."""

    __tablename__ = "report_comments"
    __table_args__ = (UniqueConstraint("account", "site", "period_start"),)

    text: Mapped[str] = mapped_column(Text)
    updated_by: Mapped[str] = mapped_column(String(SUBJECT_LEN))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ReportScheduleRow(Base):
    """A site's monthly report: who receives it, and whether an editor approves each one first."""

    __tablename__ = "report_schedules"
    __table_args__ = (UniqueConstraint("account", "site"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    account: Mapped[str] = mapped_column(String(ACCOUNT_LEN))
    site: Mapped[str] = mapped_column(String(SUBJECT_LEN))
    #: One address a line.
    recipients: Mapped[str] = mapped_column(Text)
    review_first: Mapped[bool] = mapped_column(Boolean)
    updated_by: Mapped[str] = mapped_column(String(SUBJECT_LEN))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ReportSendRow(_SitePeriod, Base):
    """One scheduled report of one site and period: the outbox row that makes it go out exactly once.

    ``state``: ``waiting_review`` (built, an editor has to approve it), ``pending`` (due to be sent),
    ``sending`` (claimed by a run until ``claimed_until``), ``sent`` or ``failed``. The PDF built is
    kept, so what an editor approved is exactly what is mailed.
    """

    __tablename__ = "report_sends"
    __table_args__ = (UniqueConstraint("account", "site", "period_start"),)

    state: Mapped[str] = mapped_column(String(SHORT_LEN))
    recipients: Mapped[str] = mapped_column(Text)
    pdf: Mapped[bytes | None] = mapped_column(LargeBinary)
    attempts: Mapped[int] = mapped_column(Integer)
    claimed_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    built_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    approved_by: Mapped[str | None] = mapped_column(String(SUBJECT_LEN))
    approved_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    sent_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    last_error: Mapped[str | None] = mapped_column(Text)


class ReportLinkRow(_SitePeriod, Base):
    """A read-only share link to one report: the signed token names this row; revoking it ends the link."""

    __tablename__ = "report_links"
    __table_args__ = (Index(None, "account", "site"),)

    created_by: Mapped[str] = mapped_column(String(SUBJECT_LEN))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    revoked_by: Mapped[str | None] = mapped_column(String(SUBJECT_LEN))


class ReportFeedRow(Base):
    """A spreadsheet feed: a CSV at an unguessable URL (the token), of one site or keyword group."""

    __tablename__ = "report_feeds"
    __table_args__ = (UniqueConstraint("token"), Index(None, "account"))

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    account: Mapped[str] = mapped_column(String(ACCOUNT_LEN))
    site: Mapped[str | None] = mapped_column(String(SUBJECT_LEN))
    keyword_group: Mapped[str | None] = mapped_column(String(SHORT_LEN))
    token: Mapped[str] = mapped_column(String(TOKEN_LEN))
    created_by: Mapped[str] = mapped_column(String(SUBJECT_LEN))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    refreshed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    revoked_by: Mapped[str | None] = mapped_column(String(SUBJECT_LEN))


class StoreSecretRow(Base):
    """A secret made once and shared through the database (the share links' signing key)."""

    __tablename__ = "store_secrets"

    name: Mapped[str] = mapped_column(String(SHORT_LEN), primary_key=True)
    value: Mapped[str] = mapped_column(String(TOKEN_LEN * 2))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ReportChartRow(Base):
    """A report chart as drawn (an SVG document), under the digest of the figure and size it was drawn
    from: drawn once for the whole deployment, by whichever app process or command drew it first."""

    __tablename__ = "report_charts"
    __table_args__ = (Index(None, "drawn_at"), Index(None, "account", "site", "period_start"))

    account: Mapped[str] = mapped_column(String(ACCOUNT_LEN), primary_key=True)
    digest: Mapped[str] = mapped_column(String(TOKEN_LEN), primary_key=True)
    #: The report it was first drawn for (a page asks whether that report was drawn before).
    site: Mapped[str] = mapped_column(String(SUBJECT_LEN))
    period_start: Mapped[date] = mapped_column(Date)
    svg: Mapped[str] = mapped_column(Text)
    drawn_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
