"""Each keyword's latest rows of one site, read where they are (``HistoryStore.latest``): what a site's
opportunities take from its tracked keywords (``analysis.opportunities.opportunity_rows``: each keyword's
latest position and DRs, its latest search volume, else its latest impressions); and each keyword's first
row of a period, where a report's change over its period starts.

Reading every day of every keyword for that (``keyword_history``) read the whole history into memory:
1.8 million rows for a year of 5,000 keywords, to keep one to three a keyword. Here each keyword's
three days are found down the table's (account, site, keyword, day) index, a few probes a keyword
(``store.walks``), and only those rows are read: ``opportunity_rows`` of them is ``opportunity_rows`` of
every row (tested on SQLite and PostgreSQL).
"""

from __future__ import annotations

from datetime import date

import pandas as pd
from sqlalchemy import and_, func, select

from schema.history import KEYWORD_COLUMNS
from store.engine import Connected, tune_large_read
from store.queries import KEYWORDS, history_frame, keywords_within
from store.walks import latest_keyword_rows


class LatestRows(Connected):
    """Each keyword's latest rows of one site (``HistoryStore.latest``)."""

    def keyword_rows(self, account: str, site: str, until: date | None = None) -> pd.DataFrame:
        """``keyword_history``'s rows of ``site`` (a domain, or a site's slug for its tracked keywords)
        that are, for each keyword up to ``until`` (every day when None), its latest, its latest with a
        search volume and its latest with impressions; ``keyword_history``'s columns and order."""
        columns = [KEYWORDS.c[name] for name in KEYWORD_COLUMNS]
        with self._reading() as conn:
            tune_large_read(conn)  # compiling its many small probes (JIT) took seconds; running them a tenth
            rows = latest_keyword_rows(conn, account, site, columns, until)
        return history_frame(rows, KEYWORD_COLUMNS)

    def first_rows(self, account: str, site: str, since: date, until: date) -> pd.DataFrame:
        """``keyword_history``'s rows of ``site`` that are each keyword's first from ``since`` to ``until``
        (``keyword_history``'s columns and order): a month of 5,000 keywords is 5,000 rows of its
        150,000, found by their days (an index-only count) and read by key."""
        first = (
            select(KEYWORDS.c.keyword, func.min(KEYWORDS.c.day).label("day"))
            .where(*keywords_within(KEYWORDS, account, site, since, until))
            .group_by(KEYWORDS.c.keyword)
            .subquery()
        )
        query = (
            select(*(KEYWORDS.c[name] for name in KEYWORD_COLUMNS))
            .join(first, and_(KEYWORDS.c.keyword == first.c.keyword, KEYWORDS.c.day == first.c.day))
            .where(*keywords_within(KEYWORDS, account, site, since, until))
            .order_by(KEYWORDS.c.day, KEYWORDS.c.site, KEYWORDS.c.keyword)
        )
        with self._reading() as conn:
            return history_frame(conn.execute(query).all(), KEYWORD_COLUMNS)
