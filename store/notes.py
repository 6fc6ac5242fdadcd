"""Notes on charts in the history database: what an editor wrote happened on a day (a release, a
migration, a campaign) or a Google update an editor added beside the shipped list.

Notes are kept per account and read by period; removing one deletes it (the audit log keeps who wrote
and who removed it). Text is plain: the app and the digest show it as characters, never as markup.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Literal

import pandas as pd
from sqlalchemy import Table, delete, insert, select

from store.engine import Connected
from store.models import LINK_LEN, SHORT_LEN, SUBJECT_LEN, ChartNoteRow
from store.rows import subject_name
from store.watchlist import check_account

NOTES: Table = ChartNoteRow.__table__
NOTE_COLUMNS = ("id", "day", "end_day", "kind", "text", "subject", "keyword_group", "link", "created_by")
NoteKind = Literal["note", "google_update"]
NOTE_KINDS: tuple[str, ...] = ("note", "google_update")
MAX_TEXT = 500


class BadNote(ValueError):
    """A note that cannot be kept; the message says why in plain words."""


@dataclass(frozen=True)
class Note:
    """A note before it is stored."""

    day: date
    text: str
    subject: str | None = None
    keyword_group: str | None = None
    kind: NoteKind = "note"
    end_day: date | None = None
    link: str | None = None

    def checked(self) -> Note:
        """The note as stored (text trimmed, subject folded); BadNote when it cannot be kept."""
        text = " ".join(self.text.split())
        if not text:
            raise BadNote("a note needs some text")
        if len(text) > MAX_TEXT:
            raise BadNote(f"a note is at most {MAX_TEXT} characters")
        if self.kind not in NOTE_KINDS:
            raise BadNote(f"a note's kind is one of {', '.join(NOTE_KINDS)}")
        if self.end_day is not None and self.end_day < self.day:
            raise BadNote("a note's last day cannot be before its first")
        subject = subject_name(self.subject) if self.subject else None
        group = subject_name(self.keyword_group) if self.keyword_group else None
        if (subject is not None and len(subject) > SUBJECT_LEN) or (
            group is not None and len(group) > SHORT_LEN
        ):
            raise BadNote("a note's subject or group is too long")
        link = (self.link or "").strip() or None
        if link is not None and (len(link) > LINK_LEN or not link.startswith(("https://", "http://"))):
            raise BadNote("a note's link is a web address starting with https://")
        return Note(self.day, text, subject, group, self.kind, self.end_day, link)


class ChartNotes(Connected):
    """Editors' notes on the charts (``HistoryStore.notes``)."""

    def add_note(self, account: str, note: Note, person: str) -> int:
        """Keep ``note`` for the account, written by ``person``; its id. BadNote when it cannot be kept."""
        kept = note.checked()
        row = {
            "account": check_account(account),
            "day": kept.day,
            "end_day": kept.end_day,
            "kind": kept.kind,
            "text": kept.text,
            "subject": kept.subject,
            "keyword_group": kept.keyword_group,
            "link": kept.link,
            "created_at": datetime.now(UTC),
            "created_by": person[:SUBJECT_LEN],
        }
        with self._writing() as conn:
            return int(conn.execute(insert(NOTES).values(row).returning(NOTES.c.id)).scalar_one())

    def remove_note(self, account: str, note_id: int) -> bool:
        """Delete one of the account's notes; True when there was one."""
        with self._writing() as conn:
            removed = conn.execute(
                delete(NOTES).where(NOTES.c.account == check_account(account), NOTES.c.id == note_id)
            )
        return bool(removed.rowcount)

    def entries(self, account: str, since: date | None = None, until: date | None = None) -> pd.DataFrame:
        """The account's notes whose days meet the period (both ends included), by day."""
        query = select(*(NOTES.c[name] for name in NOTE_COLUMNS)).where(
            NOTES.c.account == check_account(account)
        )
        if since is not None:
            query = query.where(
                (NOTES.c.end_day >= since) | ((NOTES.c.end_day.is_(None)) & (NOTES.c.day >= since))
            )
        if until is not None:
            query = query.where(NOTES.c.day <= until)
        with self._reading() as conn:
            rows = conn.execute(query.order_by(NOTES.c.day, NOTES.c.id)).all()
        frame = pd.DataFrame([tuple(row) for row in rows], columns=list(NOTE_COLUMNS))
        for name in ("day", "end_day"):
            frame[name] = pd.to_datetime(frame[name]).dt.date.astype("object")
        for name in ("end_day", "subject", "keyword_group", "link"):  # missing is None, as stored
            frame[name] = frame[name].astype("object").where(frame[name].notna(), None)
        return frame.astype({"id": "int64"}) if not frame.empty else frame
