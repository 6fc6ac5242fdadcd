"""Alerts kept per account, on SQLite and PostgreSQL: rule settings with their defaults, the open list and
its count, acknowledging (only one's own alerts, once), the webhook delivery in plain words, and a
database made by the previous schema upgraded without losing a row."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date

import pandas as pd
import pytest
from sqlalchemy import inspect, text, update

from store import ALERT_COLUMNS, RULES, HistoryStore, RuleSetting
from store.alerts import Finding
from store.migrations import current_revision, head_revision
from store.models import AlertDeliveryRow
from tests.store import samples
from tests.store.alert_history import OWN, day, lookup, record_lookups, watch_own
from tests.store.samples import ACCOUNT, OTHER_ACCOUNT


def finding(subject: str = OWN, on: int = 7, key: str = "dr") -> Finding:
    return Finding(
        rule="authority_drop",
        subject=subject,
        day=day(on),
        title=f"{subject}: DR fell 3 points in 7 days (50 → 47)",
        chart="domain",
        chart_subject=subject,
        before="50",
        after="47",
        key=key,
    )


def test_every_rule_has_its_default_until_an_account_changes_it(store: HistoryStore) -> None:
    settings = store.alerts.alert_settings(ACCOUNT)
    assert list(settings) == list(RULES)
    assert settings["authority_drop"] == RuleSetting("authority_drop", 2.0, True)
    assert settings["keyword_moved"].threshold == 5.0 and settings["referring_domains_fell"].threshold == 5.0
    assert settings["spam_risky_link"].threshold == 50.0 and settings["strong_link_lost"].threshold == 50.0
    assert settings["verification_lost"] == RuleSetting("verification_lost", None, True)

    changed = store.alerts.set_alert_setting(
        ACCOUNT, "keyword_moved", threshold=8, enabled=True, person="ann@acme.com"
    )
    assert changed == RuleSetting("keyword_moved", 8.0, True)
    store.alerts.set_alert_setting(
        ACCOUNT, "verification_lost", threshold=None, enabled=False, person="ann@acme.com"
    )
    store.alerts.set_alert_setting(
        ACCOUNT, "keyword_moved", threshold=3, enabled=False, person="bob@acme.com"
    )
    mine = store.alerts.alert_settings(ACCOUNT)
    assert mine["keyword_moved"] == RuleSetting("keyword_moved", 3.0, False)
    assert mine["verification_lost"] == RuleSetting("verification_lost", None, False)
    assert store.alerts.alert_settings(OTHER_ACCOUNT)["keyword_moved"] == RuleSetting(
        "keyword_moved", 5.0, True
    )


@pytest.mark.parametrize(
    ("rule", "threshold", "words"),
    [
        ("no_such_rule", 2, "no alert rule"),
        ("authority_drop", 0, "more than 0"),
        ("authority_drop", -3, "more than 0"),
        ("referring_domains_fell", 150, "at most 100"),
        ("authority_drop", None, "needs a threshold"),
        ("verification_lost", 4, "has no threshold"),
        ("keyword_moved", float("nan"), "must be a number"),
    ],
)
def test_a_bad_setting_is_refused_in_plain_words_and_nothing_changes(
    store: HistoryStore, rule: str, threshold: float | None, words: str
) -> None:
    with pytest.raises(ValueError, match=words):
        store.alerts.set_alert_setting(
            ACCOUNT, rule, threshold=threshold, enabled=True, person="ann@acme.com"
        )
    assert store.alerts.alert_settings(ACCOUNT)["authority_drop"].threshold == 2.0


def test_alerts_are_listed_newest_first_and_acknowledged_per_account(store: HistoryStore) -> None:
    report = store.alerts.record_findings(
        ACCOUNT, [finding(on=7), finding("b.com", on=9), finding("c.com", on=8)]
    )
    assert (report.new, report.known, report.by_rule) == (3, 0, {"authority_drop": 3})
    store.alerts.record_findings(OTHER_ACCOUNT, [finding("theirs.com", on=9)])

    alerts = store.alerts.entries(ACCOUNT)
    assert list(alerts.columns) == list(ALERT_COLUMNS)
    assert alerts["subject"].tolist() == ["b.com", "c.com", OWN]
    assert alerts.loc[0, "rule_name"] == RULES["authority_drop"].name
    assert (alerts.loc[0, "before"], alerts.loc[0, "after"]) == ("50", "47")
    assert alerts["delivery"].isna().all()  # no webhook was configured when they were found
    assert store.alerts.open_alert_count(ACCOUNT) == 3 and store.alerts.open_alert_count(OTHER_ACCOUNT) == 1

    theirs = int(store.alerts.entries(OTHER_ACCOUNT).loc[0, "id"])
    mine = int(alerts.loc[0, "id"])
    assert store.alerts.acknowledge_alert(ACCOUNT, theirs, "ann@acme.com") is False  # never another account's
    assert store.alerts.open_alert_count(OTHER_ACCOUNT) == 1
    assert store.alerts.acknowledge_alert(ACCOUNT, mine, "ann@acme.com") is True
    assert store.alerts.acknowledge_alert(ACCOUNT, mine, "bob@acme.com") is False  # once
    assert store.alerts.open_alert_count(ACCOUNT) == 2
    assert store.alerts.entries(ACCOUNT)["subject"].tolist() == ["c.com", OWN]
    seen = store.alerts.entries(ACCOUNT, state="acknowledged")
    assert seen["subject"].tolist() == ["b.com"] and seen.loc[0, "acknowledged_by"] == "ann@acme.com"
    assert pd.notna(seen.loc[0, "acknowledged_at"]) and alerts["acknowledged_at"].isna().all()
    assert len(store.alerts.entries(ACCOUNT, state="all")) == 3
    assert store.alerts.entries(ACCOUNT, state="all", since=day(8))["subject"].tolist() == ["b.com", "c.com"]
    assert len(store.alerts.entries(ACCOUNT, state="all", limit=1)) == 1


def test_an_acknowledged_alert_can_be_reopened_once_and_only_by_its_account(store: HistoryStore) -> None:
    store.alerts.record_findings(ACCOUNT, [finding(on=7), finding("b.com", on=9)])
    store.alerts.record_findings(OTHER_ACCOUNT, [finding("theirs.com", on=9)])
    mine = int(store.alerts.entries(ACCOUNT).loc[0, "id"])
    theirs = int(store.alerts.entries(OTHER_ACCOUNT).loc[0, "id"])
    assert store.alerts.reopen_alert(ACCOUNT, mine) is False  # open already: nothing to reopen
    store.alerts.acknowledge_alert(ACCOUNT, mine, "ann@acme.com")
    store.alerts.acknowledge_alert(OTHER_ACCOUNT, theirs, "eve@other.com")
    assert store.alerts.open_alert_count(ACCOUNT) == 1

    assert store.alerts.reopen_alert(ACCOUNT, theirs) is False  # never another account's
    assert store.alerts.entries(OTHER_ACCOUNT, state="acknowledged")["id"].tolist() == [theirs]
    assert store.alerts.reopen_alert(ACCOUNT, mine) is True
    assert store.alerts.reopen_alert(ACCOUNT, mine) is False  # once
    assert store.alerts.open_alert_count(ACCOUNT) == 2
    reopened = store.alerts.entries(ACCOUNT).set_index("id").loc[mine]
    assert pd.isna(reopened["acknowledged_at"]) and pd.isna(reopened["acknowledged_by"])
    assert store.alerts.entries(ACCOUNT, state="acknowledged").empty
    assert store.alerts.acknowledge_alert(ACCOUNT, mine, "bob@acme.com") is True  # and acknowledged again
    assert store.alerts.entries(ACCOUNT, state="acknowledged").loc[0, "acknowledged_by"] == "bob@acme.com"


def test_reopening_an_alert_never_sends_its_webhook_again(store: HistoryStore) -> None:
    store.alerts.record_findings(ACCOUNT, [finding()], channels=["webhook"])
    alert_id = int(store.alerts.entries(ACCOUNT).loc[0, "id"])
    table = AlertDeliveryRow.__table__
    with store.engine.begin() as conn:
        conn.execute(update(table).where(table.c.alert_id == alert_id).values(state="delivered", attempts=1))
    store.alerts.acknowledge_alert(ACCOUNT, alert_id, "ann@acme.com")
    assert store.alerts.reopen_alert(ACCOUNT, alert_id) is True
    with store.engine.connect() as conn:
        rows = conn.execute(text("SELECT state, attempts FROM alert_deliveries")).all()
    assert [tuple(row) for row in rows] == [("delivered", 1)]  # still the one delivery, done once
    assert store.alerts.entries(ACCOUNT)["delivery"].tolist() == ["sent"]


def test_a_finding_recorded_again_is_known_and_gets_no_second_delivery(store: HistoryStore) -> None:
    first = store.alerts.record_findings(ACCOUNT, [finding(), finding(key="true_dr")], channels=["webhook"])
    again = store.alerts.record_findings(ACCOUNT, [finding()], channels=["webhook"])
    assert (first.new, again.new, again.known) == (2, 0, 1)
    with store.engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM alert_deliveries")).scalar() == 2
    assert store.alerts.entries(ACCOUNT)["delivery"].tolist() == ["waiting to be sent", "waiting to be sent"]


def test_the_webhook_delivery_reads_in_plain_words(store: HistoryStore) -> None:
    store.alerts.record_findings(
        ACCOUNT, [finding("a.com"), finding("b.com"), finding("c.com")], channels=["webhook"]
    )
    ids = dict(
        zip(store.alerts.entries(ACCOUNT)["subject"], store.alerts.entries(ACCOUNT)["id"], strict=True)
    )
    table = AlertDeliveryRow.__table__
    with store.engine.begin() as conn:
        conn.execute(
            update(table).where(table.c.alert_id == int(ids["a.com"])).values(state="delivered", attempts=1)
        )
        conn.execute(
            update(table)
            .where(table.c.alert_id == int(ids["b.com"]))
            .values(state="rejected", attempts=1, last_status=404)
        )
        conn.execute(update(table).where(table.c.alert_id == int(ids["c.com"])).values(attempts=3))
    words = dict(
        zip(store.alerts.entries(ACCOUNT)["subject"], store.alerts.entries(ACCOUNT)["delivery"], strict=True)
    )
    assert words == {
        "a.com": "sent",
        "b.com": "refused by the webhook (404)",
        "c.com": "waiting to retry (3 attempts)",
    }


def test_the_jobs_run_over_every_account_with_history(store: HistoryStore) -> None:
    assert store.alerts.alert_accounts() == []
    watch_own(store, OTHER_ACCOUNT)  # a watchlist alone is not history
    record_lookups(store, ACCOUNT, [lookup(), lookup()])
    store.snapshots.record_keyword_report(
        OTHER_ACCOUNT, samples.keyword_report(), day(1), "job", "example.com"
    )
    assert store.alerts.alert_accounts() == sorted([ACCOUNT, OTHER_ACCOUNT])
    assert store.alerts.latest_snapshot_day(ACCOUNT) == day(1)
    assert store.alerts.latest_snapshot_day("0123456789abcdef") is None


def test_a_database_at_the_audit_schema_keeps_its_rows_and_gains_the_alert_tables(
    store_url: str, database_at: Callable[..., None]
) -> None:
    database_at(
        "0003",
        "alerts",
        (
            "INSERT INTO domain_snapshots (account, domain, day, dr, true_dr, source, recorded_at) "
            "VALUES (:a, 'example.com', :day, 50, 45, 'job', :t)",
            {"a": ACCOUNT, "day": date(2025, 3, 3), "t": "2025-03-03 10:00:00"},
        ),
        (
            "INSERT INTO audit_events (at, person, account, operation, target, outcome) "
            "VALUES (:t, 'ann@acme.com', :a, 'approve_exchange', 'partner.io', 'sent')",
            {"a": ACCOUNT, "t": "2025-03-03 10:00:00"},
        ),
    )
    with HistoryStore.open(store_url) as store:
        assert current_revision(store.engine) == head_revision()
        assert {"alert_rules", "alerts", "alert_deliveries"} <= set(inspect(store.engine).get_table_names())
        assert store.queries.domain_history(ACCOUNT, [OWN])["dr"].tolist() == [50]
        assert store.audit.events(ACCOUNT)["target"].tolist() == ["partner.io"]
        assert store.alerts.alert_accounts() == [ACCOUNT]
        assert store.alerts.record_findings(ACCOUNT, [finding()], channels=["webhook"]).new == 1
        assert store.alerts.open_alert_count(ACCOUNT) == 1
