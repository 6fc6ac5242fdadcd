"""The Activity page's Streamlit pieces: whose rows are shown, the filters, the table and its CSV.

Rows are read through the history store (``components.core.history.store.history_store``), one account at a
time. Who sees what is decided here from the current person's role, and the store is asked only for
the rows that person may see: admins every person's rows of the account, editors and viewers their own.
Nothing here changes or removes a row: the audit log is append-only.
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import TYPE_CHECKING, Any

import pandas as pd
import streamlit as st

from analysis.activity.frames import (
    activity_frame,
    column_widths,
    filter_activity,
    operation_choices,
    outcome_choices,
    shown_columns,
)
from analysis.text import escape_md
from components.core.auth.access import Person
from components.core.ui.tables import TWO_LINE_ROW_HEIGHT, table_with_export

if TYPE_CHECKING:
    from store import HistoryStore

PEOPLE_KEY = "activity_people"
OPERATIONS_KEY = "activity_operations"
OUTCOMES_KEY = "activity_outcomes"
DAYS_KEY = "activity_days"
#: The most rows the page reads at once (newest first); the CSV holds the same rows.
ROW_LIMIT = 5000
#: Each column's label, and how it is drawn (its width is set per table, see ``column_config``).
COLUMN_LABELS: dict[str, str] = {
    "at": "When (UTC)",
    "person": "Person",
    "role": "Role",
    "operation": "Change",
    "target": "On",
    "outcome": "Outcome",
    "status": "Status",
    "message": "Details",
}


def column_config(columns: list[str]) -> dict[str, Any]:
    """The table's column config: every column labelled (the CSV's headers too), the shown ones sized
    so the table fits the page (``column_widths``); the time to the minute, the CSV's to the second."""
    widths = column_widths(columns)
    config: dict[str, Any] = {}
    for name, label in COLUMN_LABELS.items():
        width = widths.get(name)
        if name == "at":
            config[name] = st.column_config.DatetimeColumn(label, format="YYYY-MM-DD HH:mm", width=width)
        elif name == "status":
            config[name] = st.column_config.NumberColumn(label, format="%d", width=width)
        else:
            config[name] = st.column_config.TextColumn(label, width=width)
    return config


def whose_rows(person: Person, everyone: bool) -> None:
    """One line saying whose changes the page lists."""
    if everyone:
        st.caption("Every person's changes in this account, newest first. The log cannot be edited.")
    else:
        st.caption(
            f"Your own changes ({escape_md(person.email)}) in this account, newest first. Admins see "
            "everyone's."
        )


def read_rows(store: HistoryStore, account: str, person: Person, everyone: bool) -> pd.DataFrame:
    """The rows this person may see, in plain words (an editor's or viewer's own only)."""
    rows = store.audit.events(account, person=None if everyone else person.email, limit=ROW_LIMIT)
    return activity_frame(rows)


def empty_state(everyone: bool) -> None:
    """What the page says before anything was changed: what will appear here."""
    who = "Every change anyone makes" if everyone else "Every change you make"
    st.info(
        f"**No activity yet.** {who} from this dashboard will be listed here: tracked keywords added, "
        "refreshed or removed, exchange proposals previewed and sent, sites submitted, badges verified, "
        "AI-visibility questions and runs, Search Console audits, watchlist changes, and alerts "
        "acknowledged or reopened and their rules. Each with when, who, on what, and what became of it: "
        "sent to the service or refused by it, done here (nothing is sent for the watchlist or alerts), "
        "no change (it was so already), or refused because only editors may change things.",
        icon=":material/history_edu:",
    )


def _days(picked: Any) -> tuple[date | None, date | None]:
    """The date input's range: empty means every day; one picked day (mid-choice) means from then on."""
    if isinstance(picked, date):
        return picked, picked
    days = tuple(picked or ())
    if not days:
        return None, None
    return days[0], days[1] if len(days) > 1 else None


def filters(frame: pd.DataFrame, people: list[str], *, everyone: bool) -> pd.DataFrame:
    """The filters (person for admins, change, outcome, days) and the rows that match them."""
    cols = st.columns(4 if everyone else 3)
    chosen_people: list[str] = []
    if everyone:
        chosen_people = cols[0].multiselect(
            "Person", people, key=PEOPLE_KEY, placeholder="Everyone", help="Whose changes to list."
        )
    rest = cols[1:] if everyone else cols
    operations = rest[0].multiselect(
        "Change", operation_choices(frame), key=OPERATIONS_KEY, placeholder="Every change"
    )
    outcomes = rest[1].multiselect("Outcome", outcome_choices(), key=OUTCOMES_KEY, placeholder="Any outcome")
    today = datetime.now(UTC).date()
    since, until = _days(
        rest[2].date_input(
            "Days (UTC)",
            value=[],
            max_value=today,
            key=DAYS_KEY,
            format="YYYY-MM-DD",
            help="A first and a last day, both included; empty lists every day.",
        )
    )
    return filter_activity(
        frame, people=chosen_people, operations=operations, outcomes=outcomes, since=since, until=until
    )


def activity_table(shown: pd.DataFrame, total: int, *, everyone: bool) -> None:
    """The matching rows with their CSV, or a line saying none match.

    The table shows what fits a laptop's page (``shown_columns``), the details over two lines; the
    "Download CSV" file has every column, the person's role and the full time included."""
    if shown.empty:
        st.info("No activity matches these filters.", icon=":material/filter_alt_off:")
        return
    noun = "change" if total == 1 else "changes"
    st.caption(f"{len(shown)} of {total} {noun}, newest first.")
    if total >= ROW_LIMIT:
        st.caption(f"Only the newest {ROW_LIMIT} are read; narrow the days to see older ones.")
    columns = shown_columns(shown, everyone=everyone)
    table_with_export(
        shown,
        what="activity",
        key="activity",
        column_config=column_config(columns),
        column_order=columns,
        row_height=TWO_LINE_ROW_HEIGHT,
        narrowed_to_fit=True,
    )
