"""The spreadsheet feeds' records: one row of ``report_feeds`` per feed, with the random token in its
address (``secrets.token_urlsafe``, 256 bits), who made it and when, and when it was revoked. What a
feed's file holds and how it is written lives with the reports (``services.reports.feeds``)."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Row, Table, insert, select, update

from store.engine import Connected
from store.models import SHORT_LEN, SUBJECT_LEN
from store.reports.tables import ReportFeedRow
from store.rows import subject_name
from store.watchlist import as_utc, check_account

FEEDS: Table = ReportFeedRow.__table__


@dataclass(frozen=True)
class Feed:
    """One feed as stored. ``keyword_group`` None: the site's own figures."""

    id: int
    account: str
    site: str | None
    keyword_group: str | None
    token: str
    created_by: str
    created_at: datetime
    refreshed_at: datetime | None = None
    revoked_at: datetime | None = None
    revoked_by: str | None = None

    @property
    def live(self) -> bool:
        return self.revoked_at is None

    @property
    def file_name(self) -> str:
        return f"{self.token}.csv"

    @property
    def about(self) -> str:
        """What the feed holds, in words (never its token)."""
        if self.keyword_group is None:
            return f"{self.site}: daily figures"
        return f"{self.site}: tracked keywords in group {self.keyword_group!r}"


def _feed(row: Row[Any]) -> Feed:
    return Feed(
        id=row.id,
        account=row.account,
        site=row.site,
        keyword_group=row.keyword_group,
        token=row.token,
        created_by=row.created_by,
        created_at=as_utc(row.created_at),
        refreshed_at=as_utc(row.refreshed_at) if row.refreshed_at else None,
        revoked_at=as_utc(row.revoked_at) if row.revoked_at else None,
        revoked_by=row.revoked_by,
    )


class Feeds(Connected):
    """The spreadsheet feeds' records (``HistoryStore.feeds``)."""

    def create_feed(self, account: str, site: str, person: str, *, keyword_group: str | None = None) -> Feed:
        """A new feed of ``site`` (of its keywords in ``keyword_group`` when given), with a fresh token."""
        group = " ".join(keyword_group.split()) if keyword_group else None
        if group is not None and len(group) > SHORT_LEN:
            raise ValueError(f"a keyword group's name is at most {SHORT_LEN} characters")
        row: dict[str, Any] = {
            "account": check_account(account),
            "site": subject_name(site),
            "keyword_group": group,
            "token": secrets.token_urlsafe(32),
            "created_by": person[:SUBJECT_LEN],
            "created_at": datetime.now(UTC),
        }
        with self._writing() as conn:
            feed_id = conn.execute(insert(FEEDS).values(row).returning(FEEDS.c.id)).scalar_one()
        return Feed(feed_id, **row)

    def revoke_feed(self, account: str, feed_id: int, person: str) -> bool:
        """End a feed (its file goes at the next refresh); False when it was revoked already."""
        query = (
            update(FEEDS)
            .where(
                FEEDS.c.account == check_account(account), FEEDS.c.id == feed_id, FEEDS.c.revoked_at.is_(None)
            )
            .values(revoked_at=datetime.now(UTC), revoked_by=person[:SUBJECT_LEN])
        )
        with self._writing() as conn:
            return bool(conn.execute(query).rowcount)

    def entries(self, account: str | None = None, site: str | None = None) -> list[Feed]:
        """The feeds of ``account`` (every account's when None; of one site when given), newest first."""
        query = select(*FEEDS.c).order_by(FEEDS.c.created_at.desc(), FEEDS.c.id.desc())
        if account is not None:
            query = query.where(FEEDS.c.account == check_account(account))
        if site is not None:
            query = query.where(FEEDS.c.site == subject_name(site))
        with self._reading() as conn:
            return [_feed(row) for row in conn.execute(query)]

    def mark_feed_refreshed(self, feed_id: int, at: datetime) -> None:
        with self._writing() as conn:
            conn.execute(update(FEEDS).where(FEEDS.c.id == feed_id).values(refreshed_at=at))
