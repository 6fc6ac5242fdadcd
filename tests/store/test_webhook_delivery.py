"""Webhook delivery against a real HTTP receiver on 127.0.0.1, on SQLite and PostgreSQL.

The receiver fails the first attempts (a timeout, a 503, a dropped connection) and then accepts; runs
at advancing times must deliver each alert exactly once, wait out the backoff, refuse a 404 for good,
and never put a secret in a body. Two runs at once never send one alert twice. Each run delivers the
deployment's own account (``ACCOUNT`` here) only: another account's alert is never sent.
"""

from __future__ import annotations

import threading
from datetime import date, timedelta

from sqlalchemy import update

from services.alerts.config import AlertConfig
from services.alerts.evaluate import evaluate_alerts
from services.delivery.outbox import backoff
from services.delivery.webhook import DeliveryReport, deliver_pending
from store import HistoryStore
from tests.store.alert_samples import DELIVERIES, T0, add_alert, delivery
from tests.store.local_servers import webhook_receiver
from tests.store.samples import ACCOUNT, OTHER_ACCOUNT, lookup

TOKEN_PATH = "/services/T000/B000/s3cr3t-webhook-token"
API_KEY = "vdr_live_0123456789abcdef"
TIMEOUT_S = 3.0  # a busy machine's ordinary delivery must fit in it; the scripted timeout outlasts it
DASHBOARD = "https://dash.example.com"


def _key(account: str, alert_id: int) -> str:
    return f"alert-{account[:12]}-{alert_id}"


def test_each_alert_is_accepted_exactly_once_through_timeouts_503s_and_dropped_connections(
    store: HistoryStore,
) -> None:
    ids = [add_alert(store, ACCOUNT, f"DR of site{n}.com fell", subject=f"site{n}.com") for n in range(4)]
    timeout_id, flaky_id, drop_id, gone_id = ids
    other = add_alert(store, OTHER_ACCOUNT, "Verification lost for other.com", subject="other.com")
    script = {
        _key(ACCOUNT, timeout_id): ["timeout"],
        _key(ACCOUNT, flaky_id): ["503", "503"],
        _key(ACCOUNT, drop_id): ["drop"],
        _key(ACCOUNT, gone_id): ["404"],
    }
    with webhook_receiver(script=script, sleep_s=TIMEOUT_S + 0.6) as receiver:
        config = AlertConfig(receiver.url(TOKEN_PATH), "json", DASHBOARD)

        def run(after: timedelta) -> DeliveryReport:
            return deliver_pending(store, config, account=ACCOUNT, now=T0 + after, timeout_s=TIMEOUT_S)

        first = run(timedelta(0))
        assert first == DeliveryReport(delivered=0, waiting=3, rejected=1)  # the other account's: never
        assert delivery(store, gone_id).state == "rejected"
        assert delivery(store, gone_id).last_status == 404
        assert delivery(store, timeout_id).last_error == f"the webhook did not answer within {TIMEOUT_S:g} s"

        asked = len(receiver.requests)
        assert run(timedelta(minutes=4)) == DeliveryReport(0, 3, 0)  # the 5-minute backoff holds
        assert len(receiver.requests) == asked

        assert run(timedelta(minutes=5)) == DeliveryReport(delivered=2, waiting=1, rejected=0)
        assert delivery(store, flaky_id).attempts == 2
        # The second failure waits twice as long: 10 minutes from the 5-minute run.
        assert run(timedelta(minutes=14)) == DeliveryReport(0, 1, 0)
        assert run(timedelta(minutes=15)) == DeliveryReport(1, 0, 0)
        assert run(timedelta(hours=10)) == DeliveryReport(0, 0, 0)

    accepted = receiver.answered_ok()
    expected = {_key(ACCOUNT, i) for i in (timeout_id, flaky_id, drop_id)}
    assert sorted(accepted) == sorted(expected)  # each exactly once, the refused one never
    assert receiver.by_key(_key(OTHER_ACCOUNT, other)) == []  # not the deployment's account: never sent
    assert delivery(store, other).state == "pending"
    assert [r.action for r in receiver.by_key(_key(ACCOUNT, gone_id))] == ["404"]
    assert [r.action for r in receiver.by_key(_key(ACCOUNT, flaky_id))] == ["503", "503", "ok"]
    for request in receiver.requests:
        text = request.body.decode()
        assert "s3cr3t" not in text and API_KEY not in text and ACCOUNT not in text
        assert request.path == TOKEN_PATH
    body = receiver.by_key(_key(ACCOUNT, drop_id))[-1].json()
    assert body == {
        "id": drop_id,
        "rule": "authority_drop",
        "rule_name": "DR or TrueDR dropped",
        "subject": "site2.com",
        "day": "2026-11-22",
        "title": "DR of site2.com fell",
        "before": "80",
        "after": "76",
        "detail": None,
        # The window of its 7-day comparison and its metric (an alert row without them: the rule's usual).
        "link": f"{DASHBOARD}/history?history_domain=site2.com&history_tab=Domain+trends"
        "&history_from=2026-11-14&history_before=2026-11-15&history_to=2026-11-22&history_metric=dr",
    }


def test_slack_body_reads_as_a_sentence_with_a_link_and_cannot_mention_the_channel(
    store: HistoryStore,
) -> None:
    alert_id = add_alert(
        store,
        ACCOUNT,
        "Keyword <!channel> left the top 10",
        rule="keyword_left_top10",
        subject="best crm",
        before="8",
        after="14",
        chart="keyword",
    )
    with webhook_receiver() as receiver:
        config = AlertConfig(receiver.url(TOKEN_PATH), "slack", DASHBOARD)
        assert deliver_pending(store, config, account=ACCOUNT, now=T0, timeout_s=TIMEOUT_S).delivered == 1
    [request] = receiver.requests
    assert request.key == _key(ACCOUNT, alert_id)
    text = request.json()["text"]
    assert "Keyword &lt;!channel&gt; left the top 10" in text
    assert "8 → 14" in text
    assert (
        f"<{DASHBOARD}/history?history_keyword=best+crm&history_tab=Keyword+positions"
        "&history_from=2026-11-20&history_before=2026-11-21&history_to=2026-11-22|Open the chart>"
    ) in text
    assert ACCOUNT not in text and "s3cr3t" not in text


def test_a_run_that_died_while_sending_is_taken_over_once_its_claim_runs_out(store: HistoryStore) -> None:
    alert_id = add_alert(store, ACCOUNT, "Traffic validation lost for a.com", subject="a.com")
    with store.engine.begin() as conn:  # what a run killed between claiming and settling leaves
        conn.execute(
            update(DELIVERIES)
            .where(DELIVERIES.c.alert_id == alert_id)
            .values(state="sending", attempts=1, claimed_until=T0 + timedelta(minutes=2))
        )
    with webhook_receiver() as receiver:
        config = AlertConfig(receiver.url(TOKEN_PATH), "json", DASHBOARD)
        early = deliver_pending(store, config, account=ACCOUNT, now=T0 + timedelta(minutes=1))
        assert early == DeliveryReport(0, 1, 0)
        assert receiver.requests == []
        later = deliver_pending(store, config, account=ACCOUNT, now=T0 + timedelta(minutes=3))
        assert later == DeliveryReport(1, 0, 0)
    assert receiver.answered_ok() == [_key(ACCOUNT, alert_id)]
    row = delivery(store, alert_id)
    assert (row.state, row.attempts, row.last_status) == ("delivered", 2, 200)


def test_two_runs_at_once_never_send_one_alert_twice(store: HistoryStore) -> None:
    ids = [
        add_alert(store, ACCOUNT, f"Referring domains of d{n}.com fell", subject=f"d{n}.com")
        for n in range(12)
    ]
    reports: list[DeliveryReport] = []
    with webhook_receiver(ok_delay_s=0.02) as receiver:
        config = AlertConfig(receiver.url(TOKEN_PATH), "json", DASHBOARD)
        start = threading.Barrier(2)

        def run() -> None:
            start.wait()
            reports.append(deliver_pending(store, config, account=ACCOUNT, timeout_s=5))

        threads = [threading.Thread(target=run) for _ in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
    assert sorted(receiver.answered_ok()) == sorted(_key(ACCOUNT, i) for i in ids)
    assert sum(report.delivered for report in reports) == len(ids)


def test_without_a_webhook_nothing_is_sent_and_the_alerts_keep_waiting(store: HistoryStore) -> None:
    add_alert(store, ACCOUNT, "DR of a.com fell", subject="a.com")
    lines: list[str] = []
    report = deliver_pending(store, AlertConfig(), account=ACCOUNT, now=T0, progress=lines.append)
    assert report == DeliveryReport(0, 1, 0)
    assert lines == ["webhook: not configured, 1 alert waits for it"]


def test_backoff_doubles_from_five_minutes_up_to_six_hours() -> None:
    assert [backoff(n) for n in (1, 2, 3)] == [timedelta(minutes=m) for m in (5, 10, 20)]
    assert backoff(30) == timedelta(hours=6)


def test_alerts_found_by_evaluation_reach_the_webhook_once_and_the_app_shows_them_sent(
    store: HistoryStore,
) -> None:
    days = [date(2026, 11, 15) + timedelta(days=n) for n in range(9)]
    last, before_last = days[-1], days[-2]
    store.watchlist.watch(ACCOUNT, "domain", "stripe.com", origin="own")
    store.watchlist.watch(ACCOUNT, "domain", "quiet.com")
    store.snapshots.seed(
        ACCOUNT,
        lookups=[(day, lookup("stripe.com", dr=80 if day < before_last else 72)) for day in days]
        + [(day, lookup("quiet.com", dr=40 if day < last else 33)) for day in days],
    )
    # Found before a webhook was configured: kept in the app, never sent.
    unsent = evaluate_alerts(store, ACCOUNT, as_of=before_last, channels=())
    assert unsent.by_rule.get("authority_drop", 0) >= 1
    found = evaluate_alerts(store, ACCOUNT, as_of=last, channels=("webhook",))
    assert found.by_rule.get("authority_drop", 0) >= 1
    lines: list[str] = []
    with webhook_receiver() as receiver:
        config = AlertConfig(receiver.url(TOKEN_PATH), "slack", DASHBOARD)
        first = deliver_pending(store, config, account=ACCOUNT, progress=lines.append, timeout_s=5)
        again = deliver_pending(store, config, account=ACCOUNT, timeout_s=5)
    assert (first.delivered, first.waiting, again.delivered) == (found.new, 0, 0)
    assert len(receiver.answered_ok()) == found.new
    texts = [request.json()["text"] for request in receiver.requests]
    assert all("quiet.com" in text and "stripe.com" not in text for text in texts)
    assert "history_domain=quiet.com" in texts[0]
    deliveries = store.alerts.entries(ACCOUNT, state="all").set_index("subject")["delivery"]
    assert set(deliveries[["quiet.com"]]) == {"sent"}
    assert deliveries[["stripe.com"]].isna().all()
    assert lines and all("s3cr3t" not in line and ACCOUNT not in line for line in lines)
