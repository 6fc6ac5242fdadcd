"""Link-exchange writes, each sent once per user action (``components.core.writes``).

A preview is a dry run (nothing is sent, so no cached read changes); approving sends exactly the
previewed draft. Call them from widget callbacks or form submits only, never in the page body.
"""

from __future__ import annotations

from client.outreach import ExchangeDraft
from components.core.connection import Connection
from components.core.writes import WriteOutcome, write_once


def preview_exchange(conn: Connection, domain: str, target: str, subject: str, message: str) -> WriteOutcome:
    """A dry run: nothing is sent, so no read changes."""
    return write_once(conn, "preview_exchange", domain, target, subject, message, success="Preview ready.")


def approve_exchange(conn: Connection, draft: ExchangeDraft) -> WriteOutcome:
    to = draft.preview.to
    name = to.domain if to and to.domain else draft.target
    return write_once(conn, "approve_exchange", draft, success=f"Proposal sent to {name}.")
