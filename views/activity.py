"""Activity: who changed what from this dashboard, when, and what became of it (the audit log).

Admins see every person's changes in the account, editors and viewers their own. The rows are read
through the history store; when it cannot be used the page says why, like the History page. There is
no way to edit or delete a row here.
"""

from __future__ import annotations

from components.activity.widgets import activity_table, empty_state, filters, read_rows, whose_rows
from components.core.auth import access
from components.core.cache.connection import current_connection
from components.core.history import store as history
from components.core.nav.pages import ACTIVITY, page_header
from components.history.widgets import guarded, unavailable_notice


def _page() -> None:
    conn = current_connection()
    person = access.current_person()
    everyone = access.sees_everyones_activity()
    store = history.history_store()
    if store is None or not conn.has_key:
        unavailable_notice()
        return
    whose_rows(person, everyone)
    frame = read_rows(store, conn.fingerprint, person, everyone)
    if frame.empty:
        empty_state(everyone)
        return
    people = store.audit.people(conn.fingerprint) if everyone else [person.email]
    shown = filters(frame, people, everyone=everyone)
    activity_table(shown, len(frame), everyone=everyone)


page_header(
    ACTIVITY,
    "Every change made from this dashboard: when, by whom, on what, and whether the service took it. "
    "Changes refused because only editors may make them are listed too.",
)
guarded(_page)()
