"""Notes on charts in the history database (SQLite and PostgreSQL): kept as plain text, read by the
period their days meet, removed by id within their account only, refused in plain words."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from store import HistoryStore
from store.notes import BadNote, Note
from tests.store.samples import ACCOUNT

DAY = date(2026, 5, 4)


def test_a_note_is_kept_and_read_by_the_period_its_days_meet(store: HistoryStore) -> None:
    kept = store.notes.add_note(
        ACCOUNT, Note(DAY, "  Pricing page   relaunched ", subject="Example.com"), "ann@acme.com"
    )
    store.notes.add_note(
        ACCOUNT,
        Note(DAY - timedelta(days=20), "Update", kind="google_update", end_day=DAY - timedelta(days=2)),
        "ann@acme.com",
    )
    notes = store.notes.entries(ACCOUNT)
    assert notes["text"].tolist() == ["Update", "Pricing page relaunched"]
    assert notes["subject"].tolist() == [None, "example.com"]
    assert store.notes.entries(ACCOUNT, since=DAY - timedelta(days=5))["text"].tolist() == [
        "Update",
        "Pricing page relaunched",
    ]
    assert store.notes.entries(ACCOUNT, since=DAY - timedelta(days=1))["text"].tolist() == [
        "Pricing page relaunched"
    ]
    assert store.notes.entries(ACCOUNT, until=DAY - timedelta(days=1))["text"].tolist() == ["Update"]
    assert store.notes.remove_note("another-account", kept) is False
    assert store.notes.remove_note(ACCOUNT, kept) is True
    assert store.notes.entries(ACCOUNT)["text"].tolist() == ["Update"]


@pytest.mark.parametrize(
    ("note", "why"),
    [
        (Note(DAY, "   "), "needs some text"),
        (Note(DAY, "x" * 501), "at most 500"),
        (Note(DAY, "span", end_day=DAY - timedelta(days=1)), "cannot be before"),
        (Note(DAY, "link", link="javascript:alert(1)"), "web address"),
    ],
)
def test_a_note_that_cannot_be_kept_says_why(store: HistoryStore, note: Note, why: str) -> None:
    with pytest.raises(BadNote, match=why):
        store.notes.add_note(ACCOUNT, note, "ann@acme.com")
    assert store.notes.entries(ACCOUNT).empty
