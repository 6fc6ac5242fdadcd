"""The alert commands end to end on a real SQLite file: ``python -m store alerts`` re-evaluates every
account without fetching and delivers the deployment's own account's alerts to a real webhook receiver
on 127.0.0.1, ``snapshot`` evaluates the day it recorded (its last line unchanged), and the demo history
yields alerts."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from client.settings import key_fingerprint
from components.core.history.store import seed_demo_history
from sandbox import DEMO_KEY, SandboxServer
from sandbox.clock import today
from sandbox.demo_history import lookup_on
from services.alerts.evaluate import evaluate_alerts
from services.cli import main
from store import HistoryStore
from tests.store.alert_history import OWN, day, lookup, record_lookups, watch_own
from tests.store.commands import run_command
from tests.store.local_servers import webhook_receiver
from tests.store.samples import OTHER_ACCOUNT, tracked

TOKEN = "T000-secret-hook-token"
#: The deployment's own key: its account is the one the webhook carries.
TEAM_KEY = "vdr_live_alerts0123456789abcdef"
ACCOUNT = key_fingerprint(TEAM_KEY)


@pytest.fixture
def url(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A history file with one alert-worthy week in each of two accounts; no alert settings on disk."""
    monkeypatch.chdir(tmp_path)  # no .streamlit/secrets.toml here
    monkeypatch.delenv("DASHBOARD_ALERT_WEBHOOK", raising=False)
    monkeypatch.setenv("VERIFIEDDR_API_KEY", TEAM_KEY)
    database = f"sqlite:///{tmp_path / 'history.sqlite3'}"
    with HistoryStore.open(database) as store:
        watch_own(store, ACCOUNT)
        record_lookups(store, ACCOUNT, [lookup(OWN, dr=dr) for dr in [50] * 7 + [47, 47]])  # DR drop, day 7
        store.snapshots.seed(
            OTHER_ACCOUNT,
            trackeds=[
                (day(7), tracked(positions={"crm tools": 4})),
                (day(8), tracked(positions={"crm tools": 12})),
            ],
            source="job",
        )
    return database


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[str], str]:
    code, out, err = run_command(capsys, *args)
    return code, out.strip().splitlines(), err


def test_alerts_evaluates_every_account_once_and_says_so_on_its_last_line(
    url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(
        capsys, "alerts", "--database-url", url, "--as-of", day(8).isoformat(), "--days", "9"
    )
    assert code == 0, err
    assert out[-1] == "alerts: 2 new, 0 already known; webhook: delivered 0, waiting 0, rejected 0"
    assert f"account {ACCOUNT[:12]}: 1 new, 0 already known (authority_drop 1)" in err
    assert f"account {OTHER_ACCOUNT[:12]}: 1 new, 0 already known (keyword_left_top10 1)" in err

    code, out, _err = run(
        capsys, "alerts", "--database-url", url, "--as-of", day(8).isoformat(), "--days", "9"
    )
    assert (
        code == 0 and out[-1] == "alerts: 0 new, 2 already known; webhook: delivered 0, waiting 0, rejected 0"
    )
    with HistoryStore.open(url) as store:
        assert store.alerts.entries(ACCOUNT)["title"].tolist() == [
            "example.com: DR fell 3 points in 7 days (50 → 47)"
        ]
        assert (
            store.alerts.entries(ACCOUNT)["delivery"].isna().all()
        )  # found while no webhook was set: never sent
        assert store.alerts.entries(OTHER_ACCOUNT)["rule"].tolist() == ["keyword_left_top10"]


def test_alerts_delivers_each_new_alert_of_the_deployment_once_without_showing_the_webhook_address(
    url: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    with webhook_receiver() as receiver:
        monkeypatch.setenv("DASHBOARD_ALERT_WEBHOOK", receiver.url(f"/services/{TOKEN}"))
        args = ("alerts", "--database-url", url, "--as-of", day(8).isoformat(), "--days", "9")
        code, out, err = run(capsys, *args)
        assert code == 0, err
        assert out[-1] == "alerts: 2 new, 0 already known; webhook: delivered 1, waiting 0, rejected 0"
        code, out, err = run(capsys, *args)
        assert out[-1] == "alerts: 0 new, 2 already known; webhook: delivered 0, waiting 0, rejected 0"
    # The other account's alert is kept for the app, never queued for the team's webhook.
    assert len(receiver.requests) == 1 and len(set(receiver.answered_ok())) == 1
    assert TOKEN not in "\n".join(out) + err
    with HistoryStore.open(url) as store:
        assert store.alerts.entries(ACCOUNT)["delivery"].tolist() == ["sent"]
        assert store.alerts.entries(OTHER_ACCOUNT)["delivery"].isna().all()


def test_alerts_with_a_bad_argument_or_database_exits_as_documented(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as stopped:
        main(["alerts", "--days", "0"])
    assert stopped.value.code == 2
    monkeypatch.setenv("DASHBOARD_ALERT_WEBHOOK", "not a web address")
    assert main(["alerts", "--database-url", f"sqlite:///{tmp_path / 'h.sqlite3'}"]) == 2
    assert "alert settings cannot be used" in capsys.readouterr().err
    monkeypatch.delenv("DASHBOARD_ALERT_WEBHOOK")
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    assert main(["alerts", "--database-url", f"sqlite:///{blocker}/h.sqlite3"]) == 3


def test_the_snapshot_evaluates_the_day_it_recorded_and_keeps_its_last_line(
    sandbox: SandboxServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    account = key_fingerprint(DEMO_KEY)
    as_of = today()
    answer = lookup_on(OWN, as_of)
    url = f"sqlite:///{tmp_path / 'history.sqlite3'}"
    with HistoryStore.open(url) as store:  # a week ago example.com stood 5 DR higher, all else the same
        higher = answer.authority.model_copy(update={"dr": (answer.authority.dr or 0) + 5})
        week_ago = answer.model_copy(update={"authority": higher})
        store.snapshots.seed(account, lookups=[(as_of - timedelta(days=7), week_ago)], source="job")
    monkeypatch.setenv("VERIFIEDDR_API_KEY", DEMO_KEY)
    monkeypatch.setenv("VERIFIEDDR_API_BASE", sandbox.base_url)
    with webhook_receiver() as receiver:
        monkeypatch.setenv("DASHBOARD_ALERT_WEBHOOK", receiver.url(f"/services/{TOKEN}"))
        code, out, err = run(capsys, "snapshot", "--database-url", url, "--as-of", as_of.isoformat())
    assert code == 0, err
    assert out[-3:] == [
        "alerts: 1 new",
        "webhook: delivered 1, waiting 0, rejected 0",
        "recorded 3, unchanged 0, failed 0",
    ]
    assert len(receiver.requests) == 1 and OWN in receiver.requests[0].body.decode()
    with HistoryStore.open(url) as store:
        assert store.alerts.entries(account)["rule"].tolist() == ["authority_drop"]


def test_the_demo_historys_last_week_has_alerts_with_titles_and_chart_links(tmp_path: Path) -> None:
    account = key_fingerprint(DEMO_KEY)
    with HistoryStore.open(f"sqlite:///{tmp_path / 'demo.sqlite3'}") as store:
        seed_demo_history(store, account, DEMO_KEY, today())  # as the app seeds it in Sandbox mode
        report = evaluate_alerts(store, account, days=7)
        assert report.new >= 1 and report.by_rule, report
        alerts = store.alerts.entries(account)
        assert len(alerts) == report.new
        assert (
            alerts["title"].str.len().gt(10).all()
            and alerts["chart"].isin(["domain", "keyword", "trust_map"]).all()
        )
        assert (alerts["day"].dt.date >= today() - timedelta(days=6)).all()
        assert evaluate_alerts(store, account, days=7).new == 0
