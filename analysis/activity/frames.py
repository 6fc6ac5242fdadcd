"""Pure: the audit log's rows (``HistoryStore.audit.events``) → what the Activity page shows and filters.

The store keeps each write attempt under the client's operation name (``add_tracked_keyword``) and an
outcome code (``refused_by_role``); people read "Add tracked keyword" and "Refused: editors only".
The words live here, once, so the table, the filters and the CSV say the same thing. So does which
columns the page's table shows, and how wide each is (``shown_columns``, ``column_widths``): together they
fit a 1280 px laptop's page beside the sidebar. No Streamlit.
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import date

import pandas as pd

from schema.audit import AUDIT_COLUMNS

#: The client's write operations (and the store's watchlist changes, the reads that spend quota units,
#: and clicks that arrived for a control drawn disabled) in plain words.
OPERATION_WORDS: dict[str, str] = {
    "add_tracked_keyword": "Add tracked keyword",
    "refresh_tracked_keyword": "Refresh tracked keyword",
    "remove_tracked_keyword": "Remove tracked keyword",
    "preview_exchange": "Preview exchange proposal",
    "approve_exchange": "Send exchange proposal",
    "approve_edited_exchange": "Send edited exchange proposal",
    "submit_site": "Submit site",
    "verify": "Verify badge",
    "add_ai_prompt": "Add AI-visibility question",
    "remove_ai_prompt": "Remove AI-visibility question",
    "reset_ai_prompts": "Replace AI-visibility questions",
    "run_ai_visibility": "Run AI visibility",
    "run_gsc_audit": "Run Search Console audit",
    "watch": "Watch",
    "unwatch": "Stop watching",
    "tag_keyword": "Tag a keyword",
    "set_brand_terms": "Set brand terms",
    "comment_report": "Commented a report",
    "add_note": "Add a note",
    "remove_note": "Remove a note",
    "create_share_link": "Create a report share link",
    "open_share_link": "Open a report share link",
    "revoke_share_link": "Revoke a report share link",
    "create_feed": "Create a spreadsheet feed",
    "revoke_feed": "Revoke a spreadsheet feed",
    "set_report_schedule": "Set report schedule",
    "remove_report_schedule": "Remove report schedule",
    "approve_report": "Approve scheduled report",
    "build_report": "Build scheduled report",
    "send_report": "Send scheduled report",
    "acknowledge_alert": "Acknowledge alert",
    "reopen_alert": "Reopen alert",
    "change_alert_rule": "Change alert rule",
    "check_alerts": "Check alerts now",
    "bulk_dr": "Bulk DR check",
    "dr": "Check DR",
    "site_check": "Read site-check report",
    "disabled_control": "Click on a disabled control",
}
#: Each outcome code in plain words, in the order the filter offers them. "Sent" only for what reached
#: the service; the dashboard's own changes (watchlist, alerts, rules, Check now) are "Done", and one
#: that found nothing to change (watching what is watched already) is "No change".
OUTCOME_WORDS: dict[str, str] = {
    "sent": "Sent",
    "done": "Done",
    "no_change": "No change",
    "refused_by_service": "Refused by the service",
    "refused_by_role": "Refused: editors only",
    "failed": "Failed",
}
ROLE_WORDS: dict[str, str] = {"viewer": "Viewer", "editor": "Editor", "admin": "Admin"}
#: The columns of the page's table (and its CSV), in order.
COLUMNS: tuple[str, ...] = ("at", "person", "role", "operation", "target", "outcome", "status", "message")
#: How wide (pixels) the page's table is at most: a 1280 px laptop's page beside the sidebar (820 px),
#: less room for a vertical scroll bar. At wider pages the grid spreads what is left among the columns.
TABLE_WIDTH = 800
#: Each column's width (pixels) when shown; "Details" gets the rest of ``TABLE_WIDTH``, over two lines.
#: Text wraps in the table's rows, so "Send edited exchange proposal" and "Refused by the service" take
#: two lines rather than a wider column.
COLUMN_WIDTHS: dict[str, int] = {
    "at": 115,
    "person": 150,
    "operation": 120,
    "target": 110,
    "outcome": 115,
    "status": 55,
}
#: Below this the details would be too narrow to read; the table then scrolls sideways instead.
MIN_DETAILS_WIDTH = 120
#: The columns of the store's audit rows (what ``activity_frame`` reads).
STORE_COLUMNS: tuple[str, ...] = AUDIT_COLUMNS


def operation_words(operation: str) -> str:
    """``add_tracked_keyword`` → "Add tracked keyword" (an operation not listed still reads as words)."""
    known = OPERATION_WORDS.get(operation)
    if known:
        return known
    words = operation.replace("_", " ").strip()
    return words[:1].upper() + words[1:]


def outcome_words(outcome: str) -> str:
    return OUTCOME_WORDS.get(outcome) or operation_words(outcome)


def role_words(role: str | None) -> str:
    return ROLE_WORDS.get(role or "", role or "")


def _utc(values: pd.Series) -> pd.Series:
    """Timestamps as timezone-aware UTC (SQLite hands them back without a zone; they are UTC)."""
    stamps = pd.to_datetime(values, utc=False)
    if stamps.dt.tz is None:
        return stamps.dt.tz_localize("UTC")
    return stamps.dt.tz_convert("UTC")


def activity_frame(rows: pd.DataFrame) -> pd.DataFrame:
    """The audit rows as a person reads them: newest first, operation, outcome and role in words.

    ``message`` carries what the service said, else the write's own detail as the write path wrote it
    (a proposal's "Subject: …, from …", never its body; "for <site>" for a keyword or question).
    """
    if rows.empty:
        return pd.DataFrame({name: pd.Series(dtype="object") for name in COLUMNS}).assign(
            at=pd.Series(dtype="datetime64[ns, UTC]"), status=pd.Series(dtype="Int64")
        )
    frame = rows.reindex(columns=list(STORE_COLUMNS)).copy()
    frame["at"] = _utc(frame["at"])
    frame["operation"] = frame["operation"].astype(str).map(operation_words)
    frame["outcome"] = frame["outcome"].astype(str).map(outcome_words)
    frame["role"] = frame["role"].map(role_words)
    frame["status"] = pd.to_numeric(frame["status"], errors="coerce").astype("Int64")
    subject = frame["detail"].where(frame["detail"].notna() & (frame["detail"].astype(str) != ""))
    said = frame["message"].where(frame["message"].notna() & (frame["message"].astype(str) != ""))
    frame["message"] = said.combine_first(subject)
    frame = frame.sort_values("at", ascending=False, kind="stable").reset_index(drop=True)
    return frame[list(COLUMNS)]


def shown_columns(frame: pd.DataFrame, *, everyone: bool) -> list[str]:
    """The columns the page's table shows, in order; the CSV has every column of ``COLUMNS``.

    The role is in the CSV only. The person only when the rows are everyone's (an editor's or viewer's
    rows are all their own); the service's status only when a row has one.
    """
    hidden = {"role"}
    if not everyone:
        hidden.add("person")
    if "status" not in frame.columns or not frame["status"].notna().any():
        hidden.add("status")
    return [column for column in COLUMNS if column not in hidden]


def column_widths(columns: Collection[str]) -> dict[str, int]:
    """Each shown column's width (pixels): ``COLUMN_WIDTHS``, and the details the rest of ``TABLE_WIDTH``."""
    widths = {column: COLUMN_WIDTHS[column] for column in columns if column in COLUMN_WIDTHS}
    if "message" in columns:
        widths["message"] = max(MIN_DETAILS_WIDTH, TABLE_WIDTH - sum(widths.values()))
    return widths


def filter_activity(
    frame: pd.DataFrame,
    *,
    people: Collection[str] = (),
    operations: Collection[str] = (),
    outcomes: Collection[str] = (),
    since: date | None = None,
    until: date | None = None,
) -> pd.DataFrame:
    """The rows of ``activity_frame`` that match every filter given (an empty choice keeps all).

    ``operations`` and ``outcomes`` are the plain words the page shows; ``since`` and ``until`` are
    UTC days, both included.
    """
    keep = pd.Series(True, index=frame.index)
    if people:
        keep &= frame["person"].isin(list(people))
    if operations:
        keep &= frame["operation"].isin(list(operations))
    if outcomes:
        keep &= frame["outcome"].isin(list(outcomes))
    if since is not None or until is not None:
        days = frame["at"].dt.date
        if since is not None:
            keep &= days >= since
        if until is not None:
            keep &= days <= until
    return frame[keep].reset_index(drop=True)


def operation_choices(frame: pd.DataFrame) -> list[str]:
    """The operations in these rows, in the order of ``OPERATION_WORDS`` (others after, by name)."""
    present = set(frame["operation"].dropna())
    known = [words for words in OPERATION_WORDS.values() if words in present]
    return known + sorted(present - set(known))


def outcome_choices() -> list[str]:
    return list(OUTCOME_WORDS.values())


def date_bounds(frame: pd.DataFrame, today: date) -> tuple[date, date]:
    """The first and last UTC day the date filter offers: the oldest row's day through today."""
    if frame.empty:
        return today, today
    first = frame["at"].min().date()
    return min(first, today), today
