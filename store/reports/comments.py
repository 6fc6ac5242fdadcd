"""Editors' comments on a report: one per site and period, printed in the report and every copy sent."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import delete, select

from store.engine import Connected
from store.reports.period import Period
from store.reports.tables import ReportCommentRow
from store.watchlist import check_account

COMMENTS = ReportCommentRow.__table__
#: Long enough for a paragraph or two; a report is not a letter.
MAX_COMMENT = 2000


class BadComment(ValueError):
    """A comment that cannot be kept; the message says why."""


class ReportComments(Connected):
    """Read and write the comment of one site's report for one period (``HistoryStore.report_comments``)."""

    def report_comment(self, account: str, site: str, period: Period) -> str | None:
        query = select(COMMENTS.c.text).where(
            COMMENTS.c.account == check_account(account),
            COMMENTS.c.site == site,
            COMMENTS.c.period_start == period.start,
            COMMENTS.c.period_end == period.end,
        )
        with self._reading() as conn:
            return conn.execute(query).scalar_one_or_none()

    def set_report_comment(self, account: str, site: str, period: Period, text: str, person: str) -> bool:
        """Keep ``text`` as the comment (an empty text removes it); True when something changed."""
        text = text.strip()
        if len(text) > MAX_COMMENT:
            raise BadComment(f"a comment is at most {MAX_COMMENT} characters ({len(text)} given)")
        if text == (self.report_comment(account, site, period) or ""):
            return False
        key = (COMMENTS.c.account == check_account(account), COMMENTS.c.site == site)
        with self._writing() as conn:
            conn.execute(delete(COMMENTS).where(*key, COMMENTS.c.period_start == period.start))
            if text:
                conn.execute(
                    COMMENTS.insert().values(
                        account=account,
                        site=site,
                        period_start=period.start,
                        period_end=period.end,
                        text=text,
                        updated_by=person[:255],
                        updated_at=datetime.now(UTC),
                    )
                )
        return True
