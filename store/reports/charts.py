"""Report charts already drawn, kept for the whole deployment (``HistoryStore.report_charts``).

A chart is kept under the account and the digest of the figure and size it was drawn from
(``services.reports.drawings``), so the same chart is the same row whichever process drew it, and a
changed history makes a new digest rather than a stale hit. Rows older than ``KEEP_DAYS`` are forgotten
when new ones are kept: last month's report is read for some weeks; the month so far is drawn afresh
each day anyway.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import delete, select
from sqlalchemy.dialects import postgresql, sqlite

from store.engine import Connected
from store.reports.period import Period
from store.reports.tables import ReportChartRow
from store.watchlist import check_account

CHARTS = ReportChartRow.__table__
#: How long a drawn chart is kept after it was drawn.
KEEP_DAYS = 62


class ReportCharts(Connected):
    """Read and keep drawn report charts by digest."""

    def drawn(self, account: str, digest: str) -> str | None:
        """The SVG kept under ``digest`` for ``account``, or None."""
        mine = CHARTS.c.account == check_account(account)
        query = select(CHARTS.c.svg).where(mine, CHARTS.c.digest == digest)
        with self._reading() as conn:
            return conn.execute(query).scalar_one_or_none()

    def was_drawn(self, account: str, site: str, period: Period, since: datetime | None = None) -> bool:
        """Whether a chart of ``site``'s report for ``period`` is kept (drawn ``since`` then, if given)."""
        query = select(CHARTS.c.digest).where(
            CHARTS.c.account == check_account(account),
            CHARTS.c.site == site,
            CHARTS.c.period_start == period.start,
            *([CHARTS.c.drawn_at >= since] if since is not None else []),
        )
        with self._reading() as conn:
            return conn.execute(query.limit(1)).first() is not None

    def keep(
        self, account: str, site: str, period: Period, digest: str, svg: str, now: datetime | None = None
    ) -> None:
        """Keep ``svg``, drawn for ``site``'s report for ``period``, under ``digest`` (a row already
        there, from a process that drew it at the same moment, stays) and forget the account's charts
        drawn more than ``KEEP_DAYS`` ago."""
        drawn_at = now or datetime.now(UTC)
        row = {
            "account": check_account(account),
            "digest": digest,
            "site": site,
            "period_start": period.start,
            "svg": svg,
            "drawn_at": drawn_at,
        }
        with self._writing() as conn:
            dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
            new = dialect.insert(CHARTS).values(row)
            conn.execute(new.on_conflict_do_nothing(index_elements=["account", "digest"]))
            conn.execute(
                delete(CHARTS).where(
                    CHARTS.c.account == account, CHARTS.c.drawn_at < drawn_at - timedelta(days=KEEP_DAYS)
                )
            )
