"""Each keyword's latest rows of one site, read where they are (``HistoryStore.latest``): what a site's
opportunities take from its tracked keywords (``analysis.opportunities.opportunity_rows``: each keyword's
latest position and DRs, its latest search volume, else its latest impressions).

Reading every day of every keyword for that (``keyword_history``) read the whole history into memory:
1.8 million rows for a year of 5,000 keywords, to keep one to three a keyword. Here each keyword's
three days are found down the table's (account, site, keyword, day) index, a few probes a keyword
(``store.walks``), and only those rows are read: ``opportunity_rows`` of them is ``opportunity_rows`` of
every row (tested on SQLite and PostgreSQL).
"""

from __future__ import annotations

from datetime import date

import pandas as pd

from schema.history import KEYWORD_COLUMNS
from store.engine import Connected, tune_large_read
from store.queries import KEYWORDS, history_frame
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
