"""The daily job end to end: ``python -m store snapshot`` against the session's sandbox server (a real
HTTP server) and a real database, as cron would run it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from datetime import date
from pathlib import Path

import pytest

from client.settings import key_fingerprint
from sandbox import DEMO_KEY, SandboxConfig, SandboxServer
from sandbox import data as sandbox_data
from sandbox.keyword_data import serp_on
from services.cli import main
from services.jobs.snapshot import SubjectResult
from store import HistoryStore
from tests.hostile_map import map_in_front
from tests.sandbox_picks import listed_domains, new_domain
from tests.store.commands import run_command

AS_OF = "2025-01-06"
DAY = date.fromisoformat(AS_OF)
ACCOUNT = key_fingerprint(DEMO_KEY)
OWN_SITES = ("acme-widgets.com", "example.com", "northwind-coffee.com")
ROOT = Path(__file__).resolve().parents[2]


def competitors(count: int) -> list[str]:
    """Listed sandbox sites with a ready Trust Map that the demo key does not own."""
    found = (d for d in listed_domains() if not sandbox_data.is_map_cold(d) and d not in OWN_SITES)
    return [next(found) for _ in range(count)]


def run_job(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], base_url: str, url: str, *extra: str
) -> tuple[int, str, str]:
    monkeypatch.setenv("VERIFIEDDR_API_KEY", DEMO_KEY)
    monkeypatch.setenv("VERIFIEDDR_API_BASE", base_url)
    return run_command(capsys, "snapshot", "--database-url", url, *extra)


#: The daily job run as cron runs it on AS_OF: its exit code, what it printed and what it said on stderr.
JobRun = Callable[[], tuple[int, str, str]]


@pytest.fixture
def snapshot_on_day(
    sandbox: SandboxServer,
    store_url: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> JobRun:
    """The job against this test's sandbox and database, on AS_OF."""
    return lambda: run_job(monkeypatch, capsys, sandbox.base_url, store_url, "--as-of", AS_OF)


def test_first_run_records_the_whole_watchlist_and_a_second_run_the_same_day_changes_nothing(
    sandbox: SandboxServer,
    store_url: str,
    snapshot_on_day: JobRun,
) -> None:
    rivals = competitors(3)
    with HistoryStore.open(store_url) as store:
        for domain in rivals:
            store.watchlist.watch(ACCOUNT, "domain", domain)
        store.watchlist.watch(ACCOUNT, "keyword", "crm software", site="example.com")

    code, out, err = snapshot_on_day()
    subjects = len(OWN_SITES) + len(rivals) + 1
    assert code == 0, err
    assert out.strip().splitlines()[-1] == f"recorded {subjects}, unchanged 0, failed 0"
    assert f"[{subjects}/{subjects}] " in err and f"{rivals[0]}: recorded" in err

    with HistoryStore.open(store_url) as store:
        assert [(w.subject, w.origin) for w in store.watchlist.entries(ACCOUNT)][:3] == [
            (s, "own") for s in OWN_SITES
        ]
        history = store.queries.domain_history(ACCOUNT, [*OWN_SITES, *rivals])
        assert sorted(history["domain"]) == sorted([*OWN_SITES, *rivals])
        assert set(history["day"].dt.date) == {DAY} and set(history["source"]) == {"job"}
        assert history["dr"].notna().all()
        assert all(store.queries.trust_map_days(ACCOUNT, d) == [DAY] for d in rivals)
        tracked = store.queries.keyword_history(ACCOUNT, "example-com")
        assert len(tracked) > 0 and set(tracked["day"].dt.date) == {DAY}
        assert store.queries.keyword_history(ACCOUNT, "example.com")["keyword"].tolist() == ["crm software"]
        # Only operations that spend no quota: never /dr nor /site-check.
        served = {path for (_, path, _), n in sandbox.state.request_counts.items() if n}
        assert not any(p.startswith(("/api/v1/dr/", "/api/v1/site-check/")) for p in served)

    code, out, err = snapshot_on_day()
    assert code == 0, err
    assert out.strip().splitlines()[-1] == f"recorded 0, unchanged {subjects}, failed 0"
    with HistoryStore.open(store_url) as store:
        assert len(store.queries.domain_history(ACCOUNT, [*OWN_SITES, *rivals])) == len(OWN_SITES) + len(
            rivals
        )


def test_a_domain_that_fails_is_named_and_the_exit_is_non_zero(
    sandbox: SandboxServer,
    store_url: str,
    snapshot_on_day: JobRun,
) -> None:
    broken = competitors(1)[0]
    sandbox.state.add_fault("lookup", 500, key=DEMO_KEY)
    sandbox.state.add_fault("trust_map", 500, key=DEMO_KEY)
    with HistoryStore.open(store_url) as store:
        store.watchlist.watch(ACCOUNT, "domain", broken)
    code, _out, err = snapshot_on_day()
    assert code == 1
    failure = next(line for line in err.splitlines() if line.startswith(f"failed: {broken}: "))
    assert (
        failure
        == f"failed: {broken}: lookup and Trust Map failed: Internal server error. Please try again later."
    )


def test_a_watched_domain_the_service_stopped_listing_waits_without_failing_the_run(
    store_url: str,
    snapshot_on_day: JobRun,
) -> None:
    unlisted = new_domain("history-unlisted-", listed=False)
    rival = competitors(1)[0]
    with HistoryStore.open(store_url) as store:
        store.watchlist.watch(ACCOUNT, "domain", unlisted)
        store.watchlist.watch(ACCOUNT, "domain", rival)
    code, out, err = snapshot_on_day()
    assert code == 0, err
    assert out.strip().splitlines()[-1] == f"recorded {len(OWN_SITES) + 1}, unchanged 0, failed 0"
    assert f"waiting: {unlisted}: not a listed site on VerifiedDR" in err
    assert not any(line.startswith("failed: ") for line in err.splitlines())
    with HistoryStore.open(store_url) as store:
        assert store.queries.domain_history(ACCOUNT, [rival])["domain"].tolist() == [rival]
        assert store.queries.domain_history(ACCOUNT, [unlisted]).empty


def test_an_unreachable_database_stops_the_job_with_a_clear_message(
    sandbox: SandboxServer, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    url = "postgresql://history:hunter2-secret@127.0.0.1:9/history"
    code, out, err = run_job(monkeypatch, capsys, sandbox.base_url, url)
    assert code == 3 and out == ""
    assert "History database unavailable: could not connect to the history database at " in err
    assert "connection refused" in err and "hunter2-secret" not in err
    assert sum(sandbox.state.request_counts.values()) == 0  # nothing asked of the service


def test_without_an_api_key_the_job_says_what_to_set(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("VERIFIEDDR_API_KEY", "")
    code = main(["snapshot", "--database-url", f"sqlite:///{tmp_path / 'h.sqlite3'}"])
    assert code == 2
    assert "set VERIFIEDDR_API_KEY" in capsys.readouterr().err


def test_a_run_killed_half_way_keeps_what_it_recorded_and_the_next_run_completes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite:///{tmp_path / 'history.sqlite3'}"
    rivals = competitors(8)
    with HistoryStore.open(url) as store:
        for domain in rivals:
            store.watchlist.watch(ACCOUNT, "domain", domain)
    # A slow service, so the kill lands half-way.
    with SandboxServer(SandboxConfig(latency_ms=100), host="127.0.0.1", port=0) as slow:
        env = {**os.environ, "VERIFIEDDR_API_KEY": DEMO_KEY, "VERIFIEDDR_API_BASE": slow.base_url}
        args = [
            sys.executable,
            "-m",
            "store",
            "snapshot",
            "--database-url",
            url,
            "--as-of",
            AS_OF,
            "--workers",
            "2",
        ]
        job = subprocess.Popen(
            args, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        assert job.stderr is not None
        done_lines = 0
        deadline = time.monotonic() + 60
        while done_lines < 4 and time.monotonic() < deadline:
            if job.stderr.readline().startswith("["):
                done_lines += 1
        job.send_signal(signal.SIGKILL)
        job.wait(timeout=10)
        with HistoryStore.open(url) as store:
            kept = len(store.queries.domain_history(ACCOUNT, [*OWN_SITES, *rivals]))
        assert 4 <= kept < len(OWN_SITES) + len(rivals)

        code, out, err = run_job(monkeypatch, capsys, slow.base_url, url, "--as-of", AS_OF)
    assert code == 0, err
    recorded, unchanged = out.strip().splitlines()[-1].split(", ")[:2]
    assert int(recorded.split()[1]) > 0 and int(unchanged.split()[1]) >= 3
    with HistoryStore.open(url) as store:
        assert len(store.queries.domain_history(ACCOUNT, [*OWN_SITES, *rivals])) == len(OWN_SITES) + len(
            rivals
        )


def test_a_failure_names_its_requests_in_the_order_they_are_asked_whichever_finished_first() -> None:
    # The lookup and the Trust Map run in parallel threads: the Trust Map's failure may arrive first.
    result = SubjectResult(label="old-site.com", pending=2)
    result.failed("Trust Map", "failed: not listed")
    result.failed("lookup", "failed: not listed")
    assert result.reasons == "lookup and Trust Map failed: not listed"


def _ranked_site(keyword: str) -> tuple[str, int, str]:
    """A demo site in the keyword's sandbox top 10 (on the sandbox's day, whatever ``--as-of`` says), its
    position, and another demo site that is not."""
    places = {row.domain: row.position for row in serp_on(keyword)}
    inside = next(site for site in OWN_SITES if site in places)
    outside = next(site for site in sorted(OWN_SITES) if site not in places)
    return inside, places[inside], outside


def test_a_watched_keyword_is_asked_and_recorded_for_the_site_it_is_watched_for(
    sandbox: SandboxServer,
    store_url: str,
    snapshot_on_day: JobRun,
) -> None:
    # Before, the job asked for the alphabetically first own site (acme-widgets.com, not in this top
    # 10) and recorded "not ranking" for a keyword watched for the site that ranks.
    site, position, other = _ranked_site("cold brew coffee")
    assert other < site  # the old code's pick
    with HistoryStore.open(store_url) as store:
        store.watchlist.watch(ACCOUNT, "keyword", "cold brew coffee", site=site)
    code, _out, err = snapshot_on_day()
    assert code == 0, err
    assert f'keyword "cold brew coffee" for {site}: recorded' in err
    asked = [
        query for (_, path, query), n in sandbox.state.request_counts.items() if path == "/api/v1/keywords"
    ]
    assert asked and all(f"domain={site}" in query for query in asked)
    with HistoryStore.open(store_url) as store:
        rows = store.queries.keyword_history(ACCOUNT, site)
    assert rows["keyword"].tolist() == ["cold brew coffee"]
    assert rows["position"].tolist() == [position]
    # The whole top 10 is kept from that same answer: not one request more.
    assert (
        sum(n for (_, path, _q), n in sandbox.state.request_counts.items() if path == "/api/v1/keywords") == 1
    )
    with HistoryStore.open(store_url) as store:
        top10 = store.queries.serp_history(ACCOUNT, site)
    assert top10["position"].tolist() == list(range(1, 11))
    assert site in top10["domain"].tolist()
    # Its DRs summed ahead by the job: a report of the day sums nothing more.
    with HistoryStore.open(store_url) as store:
        assert store.dr_days.keep(ACCOUNT, None, None) == 0
        spread = store.dr_days.spread(ACCOUNT, site, since=DAY, until=DAY, excluding=site)
    assert spread["keyword"].tolist() == ["cold brew coffee"] and spread["rated"].tolist() == [9]


def test_a_keyword_watched_before_sites_were_recorded_waits_for_a_site_and_is_not_asked(
    sandbox: SandboxServer,
    store_url: str,
    snapshot_on_day: JobRun,
) -> None:
    with HistoryStore.open(store_url) as store:
        store.watchlist.watch(
            ACCOUNT, "keyword", "cold brew coffee"
        )  # no site: as rows from before the change
    code, out, err = snapshot_on_day()
    assert code == 0, err
    assert 'waiting: keyword "cold brew coffee" for site unknown: pick the site' in err
    assert sandbox.state.count("GET", "/api/v1/keywords", "keyword=cold+brew+coffee") == 0
    assert out.strip().splitlines()[-1] == f"recorded {len(OWN_SITES)}, unchanged 0, failed 0"


@pytest.mark.parametrize("fault", [404, 500, "nonjson"])
def test_when_the_site_list_fails_the_job_says_so_and_records_the_sites_it_knew(
    fault: int | str,
    sandbox: SandboxServer,
    store_url: str,
    snapshot_on_day: JobRun,
) -> None:
    # Before: TypeError: _problem() takes 2 positional arguments but 3 were given, and nothing recorded.
    with HistoryStore.open(store_url) as store:
        for site in OWN_SITES:
            store.watchlist.watch(ACCOUNT, "domain", site, origin="own")
    sandbox.state.add_fault("sites", fault, key=DEMO_KEY)
    code, out, err = snapshot_on_day()
    assert code == 1
    assert "Traceback" not in err
    assert "failed: your own sites: the list of your sites failed: " in err
    assert out.strip().splitlines()[-1] == f"recorded {len(OWN_SITES)}, unchanged 0, failed 1"
    with HistoryStore.open(store_url) as store:
        assert sorted(store.queries.domain_history(ACCOUNT, OWN_SITES)["domain"]) == sorted(OWN_SITES)
        assert not store.queries.keyword_history(ACCOUNT, "example-com").empty


def test_a_failed_lookup_keeps_the_sites_trust_map_and_keywords_and_says_partly_recorded(
    sandbox: SandboxServer,
    store_url: str,
    snapshot_on_day: JobRun,
) -> None:
    sandbox.state.add_fault("lookup", 500, key=DEMO_KEY)
    code, out, err = snapshot_on_day()
    assert code == 1
    assert (
        "failed: example.com: partly recorded (Trust Map and tracked keywords kept; lookup failed: "
        "Internal server error. Please try again later.)"
    ) in err
    assert out.strip().splitlines()[-1] == f"recorded 0, unchanged 0, failed {len(OWN_SITES)}"
    with HistoryStore.open(store_url) as store:
        assert store.queries.domain_history(ACCOUNT, OWN_SITES).empty
        assert store.queries.trust_map_days(ACCOUNT, "example.com") == [DAY]
        assert not store.queries.keyword_history(ACCOUNT, "example-com").empty


def test_a_trust_map_with_an_unusable_row_is_recorded_without_it_and_the_run_says_so(
    sandbox: SandboxServer,
    store_url: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Every Trust Map answer holds three usable rows and one whose "domain" is a spreadsheet formula
    (``tests.hostile_map``): the day keeps the three, and the run names the fourth, once per map."""
    (rival,) = competitors(1)
    with HistoryStore.open(store_url) as store:
        store.watchlist.watch(ACCOUNT, "domain", rival)
    with map_in_front(sandbox.base_url) as base:
        code, out, err = run_job(monkeypatch, capsys, base, store_url, "--as-of", AS_OF)
    assert code == 0, err
    assert out.strip().splitlines()[-1] == f"recorded {len(OWN_SITES) + 1}, unchanged 0, failed 0"
    said = (
        "Trust Map: 1 referring domain in the answer could not be used: "
        "row 4 (\"=cmd|' /C calc'!A0\"): its name is not a domain name"
    )
    assert f"{rival}: recorded ({said})" in err
    assert f"skipped: {rival}: {said}" in err.splitlines()
    with HistoryStore.open(store_url) as store:
        links = store.queries.trust_map_links(ACCOUNT, rival, DAY)
        assert len(links) == 3 and "=" not in "".join(links["referring_domain"])
        totals = store.queries.trust_map_totals(ACCOUNT, rival)
        assert totals[["sampled", "skipped"]].values.tolist() == [[3, 1]]
