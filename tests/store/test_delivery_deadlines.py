"""Deadlines of webhook delivery against a real receiver on 127.0.0.1 that trickles its answer: one byte
every tenth of a second, so no single read ever waits long enough for a per-read timeout.

Each delivery is cut off at its own deadline for the whole request (and retried later, like any
timeout); the whole delivery pass stops at its deadline, names the alerts it did not send and leaves
them waiting; ``alerts`` then exits 1, and ``snapshot`` still ends with its tally. Every run here is
guarded by a generous outer limit, so code without the deadlines fails the test instead of hanging it.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import TypeVar

import pytest

from client.settings import key_fingerprint
from sandbox import DEMO_KEY
from sandbox.clock import today
from sandbox.demo_history import lookup_on
from services.alerts.config import AlertConfig
from services.delivery.webhook import DeliveryReport, deliver_pending
from store import HistoryStore
from tests.store.alert_history import OWN
from tests.store.alert_samples import T0, add_alert, delivery
from tests.store.commands import StoreCommand, run_command
from tests.store.local_servers import webhook_receiver
from tests.store.samples import ACCOUNT

DASHBOARD = "https://dash.example.com"
TEAM_KEY = "vdr_live_deadline0123456789abcd"
TEAM = key_fingerprint(TEAM_KEY)
#: Far beyond any deadline configured here: reaching it means the run hung.
GUARD_S = 30.0
Result = TypeVar("Result")


def guarded(run: Callable[[], Result], limit_s: float = GUARD_S) -> tuple[Result, float]:
    """``run()`` in a thread, with the seconds it took; fails the test when it is still running after
    ``limit_s`` (the thread ends when the receiver stops and hangs up)."""
    results: list[Result] = []
    errors: list[BaseException] = []

    def work() -> None:
        try:
            results.append(run())
        except BaseException as exc:  # handed to the test below
            errors.append(exc)

    started = time.monotonic()
    thread = threading.Thread(target=work, daemon=True)
    thread.start()
    thread.join(limit_s)
    took = time.monotonic() - started
    assert not thread.is_alive(), f"the delivery was still running after {limit_s:.0f} s: it hung"
    if errors:
        raise errors[0]
    return results[0], took


def _key(alert_id: int) -> str:
    return f"alert-{ACCOUNT[:12]}-{alert_id}"


def test_a_trickling_webhook_is_cut_off_at_the_delivery_deadline_and_the_next_alert_still_goes(
    store: HistoryStore,
) -> None:
    slow = add_alert(store, ACCOUNT, "DR of slow.com fell", subject="slow.com")
    fine = add_alert(store, ACCOUNT, "DR of fine.com fell", subject="fine.com")
    with webhook_receiver(script={_key(slow): ["trickle"]}) as receiver:
        config = AlertConfig(receiver.url("/hook"), "json", DASHBOARD, webhook_timeout_s=0.5)
        report, took = guarded(lambda: deliver_pending(store, config, account=ACCOUNT, now=T0))
    assert report == DeliveryReport(delivered=1, waiting=1, rejected=0)
    assert took < GUARD_S / 2
    row = delivery(store, slow)
    assert row.state == "pending"  # retried by a later run, like any timeout
    assert row.last_error == "the webhook did not answer within 0.5 s"
    assert delivery(store, fine).state == "delivered"
    assert receiver.answered_ok() == [_key(fine)]


def test_the_delivery_pass_stops_at_its_deadline_and_names_what_it_did_not_send(
    store: HistoryStore,
) -> None:
    ids = [add_alert(store, ACCOUNT, f"DR of s{n}.com fell", subject=f"s{n}.com") for n in range(4)]
    lines: list[str] = []
    with webhook_receiver(script={_key(i): ["trickle"] for i in ids}) as receiver:
        config = AlertConfig(
            receiver.url("/hook"), "json", DASHBOARD, webhook_timeout_s=0.5, delivery_deadline_s=1.2
        )
        report, took = guarded(
            lambda: deliver_pending(store, config, account=ACCOUNT, now=T0, progress=lines.append)
        )
    assert took < GUARD_S / 2
    tried = {request.key for request in receiver.requests}
    # 4 deliveries of 0.5 s each cannot fit in 1.2 s: the pass stopped before some were even tried.
    assert len(tried) < len(ids)
    assert report.delivered == 0 and report.waiting == len(ids)
    named = [i for i in ids if any(f"alert {i} " in line for line in report.unsent)]
    assert named and len(named) == len(report.unsent)
    # (A delivery the pass began may not have reached a busy receiver yet: the receiver's count of
    # what was tried is a floor, so every alert named as not sent was never received, not vice versa.)
    for alert_id in named:
        assert _key(alert_id) not in tried
        assert delivery(store, alert_id).state == "pending"  # still waiting for the next run
    assert any("not sent" in line and "1.2 s" in line for line in lines), lines
    assert "not sent" in report.summary


def _cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[str], str]:
    code, out, err = run_command(capsys, *args)
    return code, out.strip().splitlines(), err


@pytest.fixture
def deadlines(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The commands' settings: no secrets file, short deadlines (as an operator would set them)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DASHBOARD_ALERT_WEBHOOK_TIMEOUT", "0.5")
    monkeypatch.setenv("DASHBOARD_ALERT_DELIVERY_DEADLINE", "1.2")


def test_the_alerts_command_ends_at_its_deadline_names_what_it_did_not_send_and_exits_1(
    tmp_path: Path, deadlines: None, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite:///{tmp_path / 'history.sqlite3'}"
    monkeypatch.setenv("VERIFIEDDR_API_KEY", TEAM_KEY)
    with HistoryStore.open(url) as store:
        ids = [add_alert(store, TEAM, f"DR of s{n}.com fell", subject=f"s{n}.com") for n in range(4)]
    keys = {f"alert-{TEAM[:12]}-{i}": ["trickle"] for i in ids}
    with webhook_receiver(script=keys) as receiver:
        monkeypatch.setenv("DASHBOARD_ALERT_WEBHOOK", receiver.url("/hook"))
        (code, out, err), took = guarded(lambda: _cli(capsys, "alerts", "--database-url", url))
    assert took < GUARD_S / 2
    assert code == 1, err
    # The alerts the pass claimed and tried, as it says them; the receiver may have seen fewer, since a try
    # begun just before the deadline can be cut off before its request arrives (a busy machine's timing).
    tried = len([line for line in err.splitlines() if line.startswith(("webhook: alert ", "webhook: sent "))])
    assert len(receiver.requests) <= tried < len(ids)
    assert out[-1].endswith(f"waiting {len(ids)}, rejected 0, not sent {len(ids) - tried} (out of time)")
    assert "the delivery pass reached its deadline (1.2 s)" in err


def test_the_snapshot_ends_although_the_webhook_trickles(
    tmp_path: Path, deadlines: None, monkeypatch: pytest.MonkeyPatch, demo_command: StoreCommand
) -> None:
    account = key_fingerprint(DEMO_KEY)
    as_of = today()
    answer = lookup_on(OWN, as_of)
    url = f"sqlite:///{tmp_path / 'history.sqlite3'}"
    with HistoryStore.open(url) as store:  # a week ago example.com stood 5 DR higher: today is an alert
        higher = answer.authority.model_copy(update={"dr": (answer.authority.dr or 0) + 5})
        week_ago = answer.model_copy(update={"authority": higher})
        store.snapshots.seed(account, lookups=[(as_of - timedelta(days=7), week_ago)], source="job")
    monkeypatch.setenv(
        "DASHBOARD_ALERT_DELIVERY_DEADLINE", "20"
    )  # room for the one delivery on a busy machine
    with webhook_receiver(script={f"alert-{account[:12]}-1": ["trickle"]}) as receiver:
        monkeypatch.setenv("DASHBOARD_ALERT_WEBHOOK", receiver.url("/hook"))
        args = ("snapshot", "--database-url", url, "--as-of", as_of.isoformat())
        (code, printed, err), took = guarded(lambda: demo_command(*args))
    out = printed.strip().splitlines()
    assert took < GUARD_S
    assert code == 0, err  # the alert waits for a retry, like any timeout
    assert out[-2:] == ["webhook: delivered 0, waiting 1, rejected 0", "recorded 3, unchanged 0, failed 0"]
    assert "did not answer within 0.5 s" in err
    assert len(receiver.requests) == 1
