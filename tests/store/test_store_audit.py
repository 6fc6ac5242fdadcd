"""The audit log in the store: a database at the second revision keeps its rows when the log arrives,
events come back newest first and filtered, each account sees only its own, and nothing can change or
remove a row once written. Runs on SQLite and on PostgreSQL."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta

import pandas as pd
from sqlalchemy import inspect

from store import AUDIT_COLUMNS, AuditEvent, HistoryStore
from store.migrations import current_revision, head_revision
from tests.store.samples import ACCOUNT, OTHER_ACCOUNT

T0 = datetime(2025, 3, 10, 9, 30, tzinfo=UTC)


def _event(at: datetime, **overrides: object) -> AuditEvent:
    fields: dict[str, object] = {
        "person": "ana@company.com",
        "role": "editor",
        "account": ACCOUNT,
        "operation": "add_tracked_keyword",
        "target": "running shoes",
        "outcome": "sent",
        "at": at,
    }
    fields.update(overrides)
    return AuditEvent(**fields)  # type: ignore[arg-type]


def test_a_database_at_the_second_revision_keeps_its_rows_and_gains_the_audit_log(
    store_url: str, database_at: Callable[..., None]
) -> None:
    database_at(
        "0002",
        "audit_events",
        (
            "INSERT INTO watch_items (account, kind, subject, origin, added_at) "
            "VALUES (:a, 'domain', 'stripe.com', 'added', :t), (:a, 'keyword', 'crm', 'added', :t)",
            {"a": ACCOUNT, "t": "2025-01-01 10:00:00"},
        ),
        (
            "INSERT INTO domain_snapshots (account, domain, day, dr, global_rank, source,"
            " recorded_at) VALUES (:a, 'stripe.com', :day, :dr, :rank, 'job', :t)",
            [
                {"a": ACCOUNT, "day": date(2025, 1, 1 + n), "dr": 70 + n, "rank": 900 - n, "t": "2025-01-21"}
                for n in range(20)
            ],
        ),
    )

    with HistoryStore.open(store_url) as store:
        assert current_revision(store.engine) == head_revision()
        assert [(w.kind, w.subject) for w in store.watchlist.entries(ACCOUNT)] == [
            ("keyword", "crm"),
            ("domain", "stripe.com"),
        ]
        history = store.queries.domain_history(ACCOUNT, ["stripe.com"])
        assert history["dr"].tolist() == list(range(70, 90))
        assert history["global_rank"].tolist() == [900 - n for n in range(20)]
        indexes = {ix["name"]: ix["column_names"] for ix in inspect(store.engine).get_indexes("audit_events")}
        assert indexes["ix_audit_events_account_at"] == ["account", "at"]
        assert store.audit.events(ACCOUNT).empty
        store.audit.record(_event(T0))
        assert len(store.audit.events(ACCOUNT)) == 1


def test_events_come_back_newest_first_with_every_field(store: HistoryStore) -> None:
    store.audit.record(_event(T0, target="crm tools"))
    store.audit.record(
        _event(
            T0 + timedelta(hours=2),
            operation="approve_exchange",
            target="partner.io",
            outcome="refused_by_service",
            status=409,
            message="Already contacted: a proposal to this site is pending",
            detail="Link exchange with example.com",
        )
    )
    store.audit.record(_event(T0 + timedelta(hours=1), person="local", role="admin", target="stripe.com"))
    frame = store.audit.events(ACCOUNT)
    assert list(frame.columns) == list(AUDIT_COLUMNS)
    assert frame["target"].tolist() == ["partner.io", "stripe.com", "crm tools"]
    newest = frame.iloc[0]
    assert newest["at"] == pd.Timestamp(T0 + timedelta(hours=2))
    assert str(frame["at"].dt.tz) == "UTC"
    assert (newest["outcome"], newest["status"]) == ("refused_by_service", 409)
    assert newest["message"].startswith("Already contacted")
    assert newest["detail"] == "Link exchange with example.com"
    assert frame["status"].isna().tolist() == [False, True, True]
    assert frame["person"].tolist() == ["ana@company.com", "local", "ana@company.com"]


def test_filters_by_person_operation_outcome_and_days(store: HistoryStore) -> None:
    day = timedelta(days=1)
    store.audit.record(_event(T0 - 2 * day, person="bo@company.com", operation="watch", target="crm"))
    store.audit.record(_event(T0 - day, outcome="refused_by_role", role="viewer", person="vi@company.com"))
    store.audit.record(_event(T0, outcome="failed", message="The service did not answer in time"))
    store.audit.record(_event(T0.replace(hour=23, minute=59), operation="submit_site", target="shop.example"))
    store.audit.record(_event(T0 + day, operation="submit_site", target="blog.example"))

    assert store.audit.events(ACCOUNT, person="vi@company.com")["outcome"].tolist() == ["refused_by_role"]
    assert store.audit.events(ACCOUNT, operation="submit_site")["target"].tolist() == [
        "blog.example",
        "shop.example",
    ]
    assert store.audit.events(ACCOUNT, outcome="failed")["message"].tolist() == [
        "The service did not answer in time"
    ]
    # Days are whole UTC days, both ends included.
    on_the_day = store.audit.events(ACCOUNT, since=T0.date(), until=T0.date())
    assert on_the_day["target"].tolist() == ["shop.example", "running shoes"]
    assert len(store.audit.events(ACCOUNT, since=T0.date())) == 3
    assert len(store.audit.events(ACCOUNT, until=(T0 - day).date())) == 2
    both = store.audit.events(ACCOUNT, person="ana@company.com", operation="submit_site", since=T0.date())
    assert len(both) == 2
    assert store.audit.events(ACCOUNT, limit=2)["target"].tolist() == ["blog.example", "shop.example"]
    assert store.audit.people(ACCOUNT) == ["ana@company.com", "bo@company.com", "vi@company.com"]


def test_each_account_sees_only_its_own_events(store: HistoryStore) -> None:
    store.audit.record(_event(T0, target="ours"))
    store.audit.record(_event(T0, account=OTHER_ACCOUNT, person="eve@other.org", target="theirs"))
    assert store.audit.events(ACCOUNT)["target"].tolist() == ["ours"]
    assert store.audit.events(OTHER_ACCOUNT)["target"].tolist() == ["theirs"]
    assert store.audit.events(ACCOUNT, person="eve@other.org").empty
    assert store.audit.people(ACCOUNT) == ["ana@company.com"]
    assert store.audit.people("0000000000000000") == []


def test_long_text_is_trimmed_to_fit_and_an_unknown_outcome_is_refused(store: HistoryStore) -> None:
    store.audit.record(_event(T0, target="k" * 900, message="m" * 5000))
    row = store.audit.events(ACCOUNT).iloc[0]
    assert len(row["target"]) == 500 and row["target"].endswith("…")
    assert len(row["message"]) == 2000
    try:
        store.audit.record(_event(T0, outcome="deleted"))
    except ValueError as exc:
        assert "sent" in str(exc)
    else:
        raise AssertionError("an unknown outcome was recorded")
    assert len(store.audit.events(ACCOUNT)) == 1


def test_a_change_that_sent_nothing_or_changed_nothing_keeps_its_own_outcome(store: HistoryStore) -> None:
    store.audit.record(_event(T0, operation="watch", target="moz.com", outcome="done"))
    store.audit.record(
        _event(T0 + timedelta(minutes=1), operation="watch", target="moz.com", outcome="no_change")
    )
    rows = store.audit.events(ACCOUNT)
    assert rows[["target", "outcome"]].values.tolist() == [["moz.com", "no_change"], ["moz.com", "done"]]
    assert store.audit.events(ACCOUNT, outcome="no_change")["operation"].tolist() == ["watch"]


def test_the_store_has_no_way_to_change_or_remove_an_audit_row(store: HistoryStore) -> None:
    # The audit log appends and reads, nothing else; no other part of the store touches its rows.
    assert {name for name in dir(store.audit) if not name.startswith("_")} == {"record", "events", "people"}
    elsewhere = {
        f"{part}.{name}"
        for part, repository in vars(store).items()
        if repository is not store.audit and not part.startswith("_")
        for name in dir(repository)
        if not name.startswith("_") and "audit" in name
    }
    assert elsewhere == set()
    # Rows written earlier are still there, unchanged, after more are appended.
    store.audit.record(_event(T0, target="first"))
    before = store.audit.events(ACCOUNT)
    for n in range(5):
        store.audit.record(_event(T0 + timedelta(minutes=n + 1), target=f"later {n}"))
    after = store.audit.events(ACCOUNT)
    assert len(after) == 6
    pd.testing.assert_frame_equal(after.tail(1).reset_index(drop=True), before.reset_index(drop=True))
