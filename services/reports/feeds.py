"""Spreadsheet feeds: a CSV of one site's history (or of one keyword group's positions) at an address
nobody can guess, for Google Sheets' ``=IMPORTDATA(url)``, which sends no headers, so the token is in
the address itself.

A feed is a row of ``report_feeds`` with a random token (``secrets.token_urlsafe``, 256 bits). Its file
is ``static/feeds/<token>.csv`` beside ``app.py``, which Streamlit serves at
``/app/static/feeds/<token>.csv`` (``server.enableStaticServing``; through the shipped nginx config only
these files, with ``Cache-Control: no-store`` and no wildcard CORS). ``refresh_feeds`` writes every live
feed's file (atomically: a reader never gets half a file) and removes the file of every revoked feed
and any other feed-like file (``<token>.csv``) in that folder; the daily snapshot runs it, and so does
the app when a feed is made.

The columns, in this order, with no header row (IMPORTDATA would read a header as data):

- a site feed (``SITE_COLUMNS``): day, site, DR, TrueDR, trust score, traffic, referring domains,
  backlinks, then the site's visibility and share of voice (%, one decimal) among all keywords watched
  for it, as the Market page shows them under the team's CTR curve: one line a day, the last
  ``SITE_DAYS`` days;
- a keyword group feed (``KEYWORD_COLUMNS``): day, site, keyword, position, search volume: one line a
  day and keyword of the group among the site's TRACKED keywords (not the watched ones the Market page
  measures), the last ``KEYWORD_DAYS`` days.

Days are ``YYYY-MM-DD``; a value not recorded that day is an empty field. The file keeps the rule every
CSV of the app keeps (``analysis.spreadsheet``): a keyword (anyone with the API key can track one) that
a spreadsheet would run as a formula, starting with =, +, -, @, a tab or a carriage return, gets an
apostrophe in front; the figures stay plain numbers; lines end with CRLF.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import pandas as pd

from analysis.market.groups import in_group
from analysis.market.standing import complete_lines
from analysis.spreadsheet import csv_text
from client.inputs import slug_for
from services.market import market_as_shown, team_ctr
from store.reports.feed_records import Feed

#: Where the files go: ``static/feeds`` beside ``app.py`` (what Streamlit serves), unless this is set.
FEEDS_DIR_ENV = "DASHBOARD_FEEDS_DIR"
DEFAULT_FOLDER = Path(__file__).resolve().parents[2] / "static" / "feeds"
#: The address of a feed's file below the app's own address.
URL_PATH = "app/static/feeds"
#: The site's own figures in a site feed, as recorded each day.
SITE_FIGURES = ("dr", "true_dr", "trust_score", "traffic", "referring_domains", "backlinks")
SITE_COLUMNS = ("day", "site", *SITE_FIGURES, "visibility", "share_of_voice")
KEYWORD_COLUMNS = ("day", "site", "keyword", "position", "search_volume")
#: A feed's file name (the only files a refresh ever removes): its token, ``.csv``.
FEED_FILE = re.compile(r"[A-Za-z0-9_-]{20,64}\.csv")
SITE_DAYS = 365
KEYWORD_DAYS = 90


def feed_url(app_address: str, feed: Feed) -> str:
    """The address a spreadsheet reads: ``https://dashboard.example.com/app/static/feeds/<token>.csv``."""
    return f"{app_address.rstrip('/')}/{URL_PATH}/{feed.file_name}"


def importdata_formula(url: str) -> str:
    return f'=IMPORTDATA("{url}")'


def feeds_folder() -> Path:
    configured = (os.environ.get(FEEDS_DIR_ENV) or "").strip()
    return Path(configured) if configured else DEFAULT_FOLDER


def _days(frame: pd.DataFrame) -> pd.Series:
    return pd.to_datetime(frame["day"]).dt.strftime("%Y-%m-%d")


def feed_frame(store: Any, feed: Feed, today: date, ctr: tuple[float, ...] | None = None) -> pd.DataFrame:
    """The feed's lines, its documented columns in order, oldest day first. A site feed's visibility and
    share of voice are the Market page's for all keywords watched for the site, under ``ctr`` (default:
    the team's curve)."""
    site = feed.site or ""
    if feed.keyword_group is None:
        since = today - timedelta(days=SITE_DAYS - 1)
        rows = store.queries.domain_history(feed.account, [site], since=since)
        rows = rows.assign(site=rows["domain"], day=_days(rows))
        market = _site_figures(store, feed.account, site, since, today, ctr or team_ctr().curve)
        rows = rows.merge(market, on="day", how="outer").assign(site=site).sort_values("day", kind="stable")
        return rows.loc[:, list(SITE_COLUMNS)].reset_index(drop=True)
    rows = store.queries.keyword_history(
        feed.account, slug_for(site), since=today - timedelta(days=KEYWORD_DAYS - 1)
    )
    rows = rows.assign(site=site)
    rows = in_group(
        rows,
        feed.keyword_group,
        store.groups.keyword_tags(feed.account),
        store.groups.brand_terms(feed.account),
    )
    rows = rows.assign(day=_days(rows))
    return rows.loc[:, list(KEYWORD_COLUMNS)].sort_values(["day", "keyword"]).reset_index(drop=True)


def _site_figures(
    store: Any, account: str, site: str, since: date, until: date, ctr: tuple[float, ...]
) -> pd.DataFrame:
    """The site's visibility and share of voice on each day its watched keywords had a top 10 (0 on a
    day it was in none), rounded as the page shows them; no line on a day nothing was recorded."""
    market = market_as_shown(store, account, site, since=since, until=until, ctr=ctr)
    if market.empty:
        return pd.DataFrame(columns=["day", "visibility", "share_of_voice"])
    mine = complete_lines(market.figures, [site])
    return pd.DataFrame(
        {
            "day": _days(mine),
            "visibility": mine["visibility"].round(1),
            "share_of_voice": mine["share_of_voice"].round(1),
        }
    )


def feed_csv(store: Any, feed: Feed, today: date, ctr: tuple[float, ...] | None = None) -> str:
    """The feed's file: CSV without a header row, defused, UTF-8."""
    return csv_text(feed_frame(store, feed, today, ctr), header=False)


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
    every = store.feeds.entries()
    curve = team_ctr().curve
    live = {feed.file_name for feed in every if feed.live}
    done = FeedRefresh()
    for feed in every:
        if not feed.live or (account is not None and feed.account != account):
            continue
        part = target / f".{feed.token}.part"
        try:
            part.write_text(feed_csv(store, feed, today or moment.date(), curve), encoding="utf-8")
            os.replace(part, target / feed.file_name)
            store.feeds.mark_feed_refreshed(feed.id, moment)
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
