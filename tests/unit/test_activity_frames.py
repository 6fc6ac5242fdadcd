"""The Activity page's rows in plain words: operations and outcomes as people say them, newest first,
and filters that keep exactly the rows asked for."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pandas as pd

from analysis.activity.frames import (
    COLUMN_WIDTHS,
    COLUMNS,
    MIN_DETAILS_WIDTH,
    OUTCOME_WORDS,
    TABLE_WIDTH,
    activity_frame,
    column_widths,
    date_bounds,
    filter_activity,
    operation_choices,
    outcome_choices,
    shown_columns,
)
from store.audit import AUDIT_OUTCOMES


def _rows() -> pd.DataFrame:
    """Audit rows as the store hands them back (SQLite: timestamps without a zone, in UTC)."""
    return pd.DataFrame(
        [
            ("2026-03-01 09:00:00", "ann@acme.com", "editor", "add_tracked_keyword", "web analytics", "sent",
             None, None, "for example-com"),
            ("2026-03-03 18:30:00", "bob@acme.com", "viewer", "remove_tracked_keyword", "crm",
             "refused_by_role", None, "Editors only", None),
            ("2026-03-02 12:00:00", "ann@acme.com", "editor", "approve_exchange", "partner.com",
             "refused_by_service", 409, "Already proposed.", "Swap links?"),
            ("2026-03-03 23:59:00", "cat@acme.com", "admin", "run_gsc_audit", "acme.com", "failed",
             None, "The service did not answer in time.", None),
            ("2026-03-02 08:00:00", "ann@acme.com", "editor", "approve_exchange", "other.com", "sent",
             None, None, "Subject: Hello there, from acme.com"),
        ],
        columns=["at", "person", "role", "operation", "target", "outcome", "status", "message", "detail"],
    ).assign(account="fp123")  # fmt: skip


def test_operations_outcomes_and_roles_read_as_plain_words() -> None:
    frame = activity_frame(_rows())
    assert "add_tracked_keyword" not in frame["operation"].tolist()
    assert set(frame["operation"]) == {
        "Add tracked keyword",
        "Remove tracked keyword",
        "Send exchange proposal",
        "Run Search Console audit",
    }
    assert set(frame["outcome"]) == {"Sent", "Refused: editors only", "Refused by the service", "Failed"}
    assert set(frame["role"]) == {"Editor", "Viewer", "Admin"}
    assert "account" not in frame.columns and "detail" not in frame.columns


def test_an_unknown_operation_still_reads_as_words() -> None:
    rows = _rows().head(1).assign(operation="add_alert_rule")
    assert activity_frame(rows)["operation"].tolist() == ["Add alert rule"]


def test_what_was_only_done_here_or_changed_nothing_never_reads_as_sent() -> None:
    rows = pd.concat(
        [
            _rows().head(1).assign(operation="watch", target="moz.com", outcome="no_change", detail=None),
            _rows().head(1).assign(operation="unwatch", target="moz.com", outcome="done", detail=None),
            _rows().head(1).assign(operation="reopen_alert", target="DR dropped · moz.com", outcome="done"),
        ],
        ignore_index=True,
    )
    frame = activity_frame(rows)
    assert frame[["operation", "outcome"]].values.tolist() == [
        ["Watch", "No change"],
        ["Stop watching", "Done"],
        ["Reopen alert", "Done"],
    ]
    assert filter_activity(frame, outcomes=["No change"])["operation"].tolist() == ["Watch"]
    assert set(OUTCOME_WORDS) == set(AUDIT_OUTCOMES)  # every outcome the store keeps has its words


def test_newest_first_in_utc() -> None:
    frame = activity_frame(_rows())
    stamps = frame["at"].tolist()
    assert stamps == sorted(stamps, reverse=True)
    assert stamps[0] == datetime(2026, 3, 3, 23, 59, tzinfo=UTC)
    assert str(frame["at"].dt.tz) == "UTC"


def test_the_services_refusal_keeps_status_and_message_and_a_proposal_its_subject() -> None:
    frame = activity_frame(_rows()).set_index("target")
    assert frame.loc["partner.com", "status"] == 409
    assert frame.loc["partner.com", "message"] == "Already proposed."  # what the service said comes first
    assert frame.loc["other.com", "message"] == "Subject: Hello there, from acme.com"
    # a keyword's detail names its site as written; it is not a proposal's subject
    assert frame.loc["web analytics", "message"] == "for example-com"


def test_filters_keep_exactly_the_rows_asked_for() -> None:
    frame = activity_frame(_rows())
    assert len(filter_activity(frame)) == 5
    ann = filter_activity(frame, people=["ann@acme.com"])
    assert set(ann["person"]) == {"ann@acme.com"} and len(ann) == 3
    sent = filter_activity(frame, outcomes=["Sent"])
    assert sorted(sent["target"]) == ["other.com", "web analytics"]
    proposals = filter_activity(
        frame, operations=["Send exchange proposal"], outcomes=["Refused by the service"]
    )
    assert proposals["target"].tolist() == ["partner.com"]
    day = filter_activity(frame, since=date(2026, 3, 2), until=date(2026, 3, 2))
    assert sorted(day["target"]) == ["other.com", "partner.com"]
    late = filter_activity(frame, since=date(2026, 3, 3))
    assert sorted(late["target"]) == ["acme.com", "crm"]  # 23:59 UTC still counts as that day
    assert filter_activity(frame, people=["nobody@acme.com"]).empty


def test_choices_and_date_bounds() -> None:
    frame = activity_frame(_rows())
    assert operation_choices(frame) == [  # in the order of the app's own pages, not of the rows
        "Add tracked keyword",
        "Remove tracked keyword",
        "Send exchange proposal",
        "Run Search Console audit",
    ]
    assert outcome_choices() == [
        "Sent",
        "Done",
        "No change",
        "Refused by the service",
        "Refused: editors only",
        "Failed",
    ]
    assert date_bounds(frame, date(2026, 3, 10)) == (date(2026, 3, 1), date(2026, 3, 10))
    empty = activity_frame(_rows().iloc[0:0])
    assert empty.empty and list(empty.columns)[:2] == ["at", "person"]
    assert date_bounds(empty, date(2026, 3, 10)) == (date(2026, 3, 10), date(2026, 3, 10))


def test_the_table_shows_what_fits_a_laptop_and_the_csv_keeps_the_rest() -> None:
    frame = activity_frame(_rows())
    everyone = shown_columns(frame, everyone=True)
    assert everyone == ["at", "person", "operation", "target", "outcome", "status", "message"]
    assert "role" not in everyone and set(COLUMNS) - set(everyone) == {"role"}  # the role: CSV only
    own = shown_columns(frame.head(2), everyone=False)  # an editor's own rows: no person, no status
    assert own == ["at", "operation", "target", "outcome", "message"]
    assert frame.head(2)["status"].isna().all()


def test_the_shown_columns_fit_the_table_width_and_the_details_get_the_rest() -> None:
    frame = activity_frame(_rows())
    for everyone in (True, False):
        columns = shown_columns(frame, everyone=everyone)
        widths = column_widths(columns)
        assert set(widths) == set(columns)
        assert sum(widths.values()) == TABLE_WIDTH
        assert widths["message"] >= MIN_DETAILS_WIDTH
    assert sum(COLUMN_WIDTHS.values()) + MIN_DETAILS_WIDTH <= TABLE_WIDTH  # even with every column shown
