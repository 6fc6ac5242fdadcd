"""The audit log's columns: the frame ``HistoryStore.audit.events`` hands out, in its fixed order. The
store reads rows of exactly these columns; the Activity page's frames (``analysis.activity.frames``)
shape them."""

AUDIT_COLUMNS = (
    "at",
    "person",
    "role",
    "account",
    "operation",
    "target",
    "outcome",
    "status",
    "message",
    "detail",
)
