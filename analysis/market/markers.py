"""What the History and Market charts mark: editors' notes, Google's confirmed ranking updates, and
the days a keyword group's set of keywords changed. Pure (frames in, a markers frame out).

The shipped updates (``google_updates.csv`` beside this file: name, first and last day, and the
Search Status Dashboard, where Google confirms each) end with the last one known when this version
was made; editors add later ones as notes of the kind ``google_update``.

A group's figure moves without any ranking change when its keywords change (one watched, one dropped,
a failed read): a day whose keyword set differs from the day before by more than
``KEYWORD_SET_SHARE`` of the keywords is marked, so a jump there is not read as a market move.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable
from datetime import date
from functools import cache
from pathlib import Path

import pandas as pd

from analysis.wording import counted

GOOGLE_UPDATES_FILE = Path(__file__).with_name("google_updates.csv")
MARKER_COLUMNS = ("day", "end_day", "kind", "label", "text", "subject", "keyword_group", "link")
KEYWORD_SET_SHARE = 0.10
LABEL_LEN = 28


@cache
def google_updates() -> pd.DataFrame:
    """The shipped list of Google's confirmed ranking updates as markers."""
    with GOOGLE_UPDATES_FILE.open(encoding="utf-8") as handle:
        rows = [
            {
                "day": date.fromisoformat(row["start"]),
                "end_day": date.fromisoformat(row["end"]) if row["end"] else None,
                "kind": "google_update",
                "label": row["name"],
                "text": f"{row['name']} (Google)",
                "subject": None,
                "keyword_group": None,
                "link": row["source"] or None,
            }
            for row in csv.DictReader(handle)
        ]
    return pd.DataFrame(rows, columns=list(MARKER_COLUMNS))


def _short(text: str) -> str:
    return text if len(text) <= LABEL_LEN else text[: LABEL_LEN - 1].rstrip() + "…"


def note_markers(notes: pd.DataFrame) -> pd.DataFrame:
    """``HistoryStore.notes.entries`` rows as markers."""
    if notes.empty:
        return pd.DataFrame(columns=list(MARKER_COLUMNS))
    return pd.DataFrame(
        {
            "day": notes["day"],
            "end_day": notes["end_day"],
            "kind": notes["kind"],
            "label": notes["text"].map(_short),
            "text": notes["text"],
            "subject": notes["subject"],
            "keyword_group": notes["keyword_group"],
            "link": notes["link"],
        },
        columns=list(MARKER_COLUMNS),
    )


def keyword_set_markers(days: pd.DataFrame, group: str) -> pd.DataFrame:
    """Days on which the group's keywords (those with a top 10) differ from the day before's by more
    than ``KEYWORD_SET_SHARE`` of the larger set; ``days`` as ``MarketFigures.days`` (each day's
    keywords, and how many of them the day before had too)."""
    ordered = days.sort_values("day")
    rows = []
    for before, (day, after, kept) in zip(
        ordered["keywords"].tolist(),
        ordered[["day", "keywords", "kept"]].iloc[1:].itertuples(index=False),
        strict=False,
    ):
        added, dropped = int(after) - int(kept), int(before) - int(kept)
        if added + dropped > KEYWORD_SET_SHARE * max(before, after):
            words = f"{counted(added, 'keyword')} in, {dropped} out"
            rows.append(
                {
                    "day": pd.Timestamp(day).date(),
                    "end_day": None,
                    "kind": "keyword_set",
                    "label": "Keywords changed",
                    "text": f"The group's keywords changed ({words}): its figures moved for that reason too.",
                    "subject": None,
                    "keyword_group": group,
                    "link": None,
                }
            )
    return pd.DataFrame(rows, columns=list(MARKER_COLUMNS))


def every_marker(notes: pd.DataFrame, *extra: pd.DataFrame | None) -> pd.DataFrame:
    """Editors' notes (``HistoryStore.notes.entries`` rows), Google's shipped updates and ``extra``
    markers, as one markers frame."""
    frames = [frame for frame in (note_markers(notes), google_updates(), *extra) if frame is not None]
    return pd.concat([frame for frame in frames if not frame.empty] or frames[:1], ignore_index=True)


def meeting(markers: pd.DataFrame, since: date | None, until: date) -> pd.Series:
    """Which markers have a day in ``since``…``until`` (a span counts from its first to its last day)."""
    last = markers["end_day"].where(markers["end_day"].notna(), markers["day"])
    return markers["day"].map(lambda d: d <= until) & last.map(lambda d: since is None or d >= since)


def markers_for(
    markers: pd.DataFrame,
    since: date | None,
    until: date,
    subjects: Iterable[str] = (),
    group: str | None = None,
) -> pd.DataFrame:
    """The markers a chart of ``since``…``until`` shows: those without a subject or about one of
    ``subjects``, and without a group or of ``group`` (a History chart passes no group: it shows the
    notes that name none)."""
    if markers.empty:
        return markers
    keep = meeting(markers, since, until)
    wanted = set(subjects)
    keep &= markers["subject"].isna() | markers["subject"].isin(wanted)
    keep &= markers["keyword_group"].isna() | (markers["keyword_group"] == group)
    return markers[keep].reset_index(drop=True)
