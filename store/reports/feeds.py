"""Spreadsheet feeds: a CSV of one site's history (or of one keyword group's positions) at an address
nobody can guess, for Google Sheets' ``=IMPORTDATA(url)``, which sends no headers, so the token is in
the address itself.

A feed is a row of ``report_feeds`` with a random token (``secrets.token_urlsafe``, 256 bits). Its file
is ``static/feeds/<token>.csv`` beside ``app.py``, which Streamlit serves at
``/app/static/feeds/<token>.csv`` (``server.enableStaticServing``). ``refresh_feeds`` writes every live
feed's file (atomically: a reader never gets half a file) and removes the file of every revoked feed
and any other feed-like file (``<token>.csv``) in that folder; the daily snapshot runs it, and so does
the app when a feed is made.

The columns, in this order, with no header row (IMPORTDATA would read a header as data):

- a site feed (``SITE_COLUMNS``): day, site, DR, TrueDR, trust score, traffic, referring domains,
  backlinks: one line a day, the last ``SITE_DAYS`` days;
- a keyword group feed (``KEYWORD_COLUMNS``): day, site, keyword, position, search volume: one line a
  day and keyword of the group among the site's tracked keywords, the last ``KEYWORD_DAYS`` days.

Days are ``YYYY-MM-DD``; a value not recorded that day is an empty field.
"""

from __future__ import annotations

import os
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import pandas as pd
from sqlalchemy import Engine, Row, Table, insert, select, update

from client.inputs import slug_for
from store.market.groups import in_group
from store.models import SHORT_LEN, SUBJECT_LEN
from store.reports.tables import ReportFeedRow
from store.rows import subject_name
from store.watchlist import as_utc, check_account

FEEDS: Table = ReportFeedRow.__table__
#: Where the files go: ``static/feeds`` beside ``app.py`` (what Streamlit serves), unless this is set.
FEEDS_DIR_ENV = "DASHBOARD_FEEDS_DIR"
DEFAULT_FOLDER = Path(__file__).resolve().parents[2] / "static" / "feeds"
#: The address of a feed's file below the app's own address.
URL_PATH = "app/static/feeds"
SITE_COLUMNS = ("day", "site", "dr", "true_dr", "trust_score", "traffic", "referring_domains", "backlinks")
KEYWORD_COLUMNS = ("day", "site", "keyword", "position", "search_volume")
#: A feed's file name (the only files a refresh ever removes): its token, ``.csv``.
FEED_FILE = re.compile(r"[A-Za-z0-9_-]{20,64}\.csv")
SITE_DAYS = 365
KEYWORD_DAYS = 90


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
        return f"{self.site}: keywords in group {self.keyword_group!r}"


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


def feed_url(app_address: str, feed: Feed) -> str:
    """The address a spreadsheet reads: ``https://dashboard.example.com/app/static/feeds/<token>.csv``."""
    return f"{app_address.rstrip('/')}/{URL_PATH}/{feed.file_name}"


def importdata_formula(url: str) -> str:
    return f'=IMPORTDATA("{url}")'


def feeds_folder() -> Path:
    configured = (os.environ.get(FEEDS_DIR_ENV) or "").strip()
    return Path(configured) if configured else DEFAULT_FOLDER


class FeedsMixin:
    """Spreadsheet feeds of ``HistoryStore`` (``_engine`` reads, ``_writer`` writes)."""

    _engine: Engine
    _writer: Engine

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
        with self._writer.begin() as conn:
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
        with self._writer.begin() as conn:
            return bool(conn.execute(query).rowcount)

    def feeds(self, account: str | None = None, site: str | None = None) -> list[Feed]:
        """The feeds of ``account`` (every account's when None; of one site when given), newest first."""
        query = select(*FEEDS.c).order_by(FEEDS.c.created_at.desc(), FEEDS.c.id.desc())
        if account is not None:
            query = query.where(FEEDS.c.account == check_account(account))
        if site is not None:
            query = query.where(FEEDS.c.site == subject_name(site))
        with self._engine.connect() as conn:
            return [_feed(row) for row in conn.execute(query)]

    def mark_feed_refreshed(self, feed_id: int, at: datetime) -> None:
        with self._writer.begin() as conn:
            conn.execute(update(FEEDS).where(FEEDS.c.id == feed_id).values(refreshed_at=at))


def _days(frame: pd.DataFrame) -> pd.Series:
    return pd.to_datetime(frame["day"]).dt.strftime("%Y-%m-%d")


def feed_frame(store: Any, feed: Feed, today: date) -> pd.DataFrame:
    """The feed's lines, its documented columns in order, oldest day first."""
    site = feed.site or ""
    if feed.keyword_group is None:
        rows = store.domain_history(feed.account, [site], since=today - timedelta(days=SITE_DAYS - 1))
        rows = rows.assign(site=rows["domain"], day=_days(rows))
        return rows.loc[:, list(SITE_COLUMNS)].reset_index(drop=True)
    rows = store.keyword_history(feed.account, slug_for(site), since=today - timedelta(days=KEYWORD_DAYS - 1))
    rows = rows.assign(site=site)
    rows = in_group(
        rows, feed.keyword_group, store.keyword_tags(feed.account), store.brand_terms(feed.account)
    )
    rows = rows.assign(day=_days(rows))
    return rows.loc[:, list(KEYWORD_COLUMNS)].sort_values(["day", "keyword"]).reset_index(drop=True)


def feed_csv(store: Any, feed: Feed, today: date) -> str:
    """The feed's file: CSV without a header row, ``\\n`` line ends, UTF-8."""
    return feed_frame(store, feed, today).to_csv(index=False, header=False, lineterminator="\n")


@dataclass
class FeedRefresh:
    written: int = 0
    removed: int = 0
    #: One line per feed whose file could not be written (its old file stays).
    failures: list[str] = field(default_factory=list)

    @property
    def line(self) -> str:
        failed = f", {len(self.failures)} failed" if self.failures else ""
        return f"feeds: {self.written} written, {self.removed} removed{failed}"


def refresh_feeds(
    store: Any,
    folder: Path | None = None,
    *,
    account: str | None = None,
    now: datetime | None = None,
    today: date | None = None,
    say: Callable[[str], None] = lambda _line: None,
) -> FeedRefresh:
    """Write each live feed's file (of ``account``, or of every account), remove revoked feeds' files
    and any file in ``folder`` that is no live feed's; the files end at ``today`` (the day a snapshot
    recorded; default the date of ``now``). Returns what was done; never raises for one feed."""
    target = folder or feeds_folder()
    moment = now or datetime.now(UTC)
    target.mkdir(parents=True, exist_ok=True)
    every = store.feeds()
    live = {feed.file_name for feed in every if feed.live}
    done = FeedRefresh()
    for feed in every:
        if not feed.live or (account is not None and feed.account != account):
            continue
        part = target / f".{feed.token}.part"
        try:
            part.write_text(feed_csv(store, feed, today or moment.date()), encoding="utf-8")
            os.replace(part, target / feed.file_name)
            store.mark_feed_refreshed(feed.id, moment)
            done.written += 1
        except Exception as exc:  # one feed's failure never stops the others
            part.unlink(missing_ok=True)
            done.failures.append(f"{feed.about}: {getattr(exc, 'reason', None) or type(exc).__name__}")
    for path in target.iterdir():
        if path.is_file() and FEED_FILE.fullmatch(path.name) and path.name not in live:
            path.unlink(missing_ok=True)
            done.removed += 1
    for failure in done.failures:
        say(f"feed not written: {failure}")
    return done


def refresh_after_snapshot(store: Any, account: str, day: date, say: Callable[[str], None]) -> None:
    """The daily job's step: rewrite the account's feeds from the history just recorded. A feed that
    cannot be written keeps yesterday's file and is named; the snapshot's outcome does not change."""
    try:
        refresh = refresh_feeds(store, account=account, today=day, say=say)
    except Exception as exc:  # the feeds' folder cannot be written: say so, the day is recorded
        say(f"feeds not refreshed: {getattr(exc, 'reason', None) or type(exc).__name__}: {exc}")
        return
    say(refresh.line)
