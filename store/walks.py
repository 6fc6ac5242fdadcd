"""Reads that walk an index of the history one probe per key instead of reading every row of a period: a
"next key" recursive query (SQLite and PostgreSQL alike), each step the least key greater than the last.

For 5,000 keywords watched a year (18 million top-10 rows), a ``DISTINCT`` over the period reads all of
them; walking the unique index (account, site, keyword, day, position) reads a few index entries per
(site, keyword) pair, and one more to see whether the pair has a top 10 in the period. Used by
``store.market`` (``MarketSums.pairs``), ``store.rollups`` (the period's days with a top 10; each
keyword's latest values, ``latest_values``) and ``store.latest`` (each keyword's latest rows, for its
opportunities).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import Any, Literal

from sqlalchemy import Column, Connection, Date, Float, String, TextClause, bindparam, text

from store.watchlist import check_account, subject_name

#: Each (site, keyword) of the account's top 10s once, down the unique index: the next keyword of the same
#: site, else the first keyword of the next site (each an index probe); kept when it has a top 10 in the
#: period (one more probe).
_NEXT_PAIRS = """
WITH RECURSIVE pairs(site, keyword) AS (
    SELECT first.site, (
        SELECT MIN(keyword) FROM serp_results WHERE account = :account AND site = first.site
    )
    FROM (SELECT MIN(site) AS site FROM serp_results WHERE {where}) AS first
    WHERE first.site IS NOT NULL
    UNION ALL
    SELECT
        CASE WHEN ({next_keyword}) IS NOT NULL THEN pairs.site ELSE ({next_site}) END,
        COALESCE(({next_keyword}), (
            SELECT MIN(keyword) FROM serp_results WHERE account = :account AND site = ({next_site})
        ))
    FROM pairs WHERE pairs.site IS NOT NULL
)
SELECT pairs.site, pairs.keyword FROM pairs
WHERE pairs.site IS NOT NULL AND EXISTS (
    SELECT 1 FROM serp_results AS s
    WHERE s.account = :account AND s.site = pairs.site AND s.keyword = pairs.keyword
        AND s.day >= :since AND s.day <= :until
)
ORDER BY pairs.site, pairs.keyword
"""
_NEXT_KEYWORD = (
    "SELECT MIN(keyword) FROM serp_results "
    "WHERE account = :account AND site = pairs.site AND keyword > pairs.keyword"
)
_NEXT_SITE = "SELECT MIN(site) FROM serp_results WHERE {where} AND site > pairs.site"

#: The period's days with a top 10, one index probe a day.
_NEXT_DAYS = """
WITH RECURSIVE days(day) AS (
    SELECT MIN(day) FROM serp_results WHERE {where} AND day >= :since AND day <= :until
    UNION ALL
    SELECT (SELECT MIN(day) FROM serp_results WHERE {where} AND day > days.day AND day <= :until)
    FROM days WHERE days.day IS NOT NULL
)
SELECT day FROM days WHERE day IS NOT NULL
"""

#: Each keyword of the keyword rows in ``{where}`` once, one index probe each: the walk both reads start.
_NEXT_KEYWORDS = """
WITH RECURSIVE keywords(keyword) AS (
    SELECT MIN(keyword) FROM keyword_snapshots WHERE {where}
    UNION ALL
    SELECT (SELECT MIN(keyword) FROM keyword_snapshots WHERE {where} AND keyword > keywords.keyword)
    FROM keywords WHERE keywords.keyword IS NOT NULL
)"""
#: Each keyword of the account once (one index probe each), and its latest row with a value of each
#: column asked (``{values}``: ``_LATEST_OF`` of its day, site and value each).
_LATEST_VALUES = """
{keywords}
SELECT keywords.keyword, {values}
FROM keywords WHERE keywords.keyword IS NOT NULL
"""
_LATEST_OF = """(
    SELECT k.{pick} FROM keyword_snapshots AS k
    WHERE k.account = :account AND k.keyword = keywords.keyword AND k.{column} IS NOT NULL
    ORDER BY k.day DESC, k.site DESC LIMIT 1
) AS {column}_{alias}"""

#: The newest row of one keyword of the site up to :until, with a value in ``{where}`` when given.
_NEWEST_DAY = """(
        SELECT k.day FROM keyword_snapshots AS k
        WHERE k.account = :account AND k.site = :site AND k.keyword = keywords.keyword
            AND k.day <= :until{where}
        ORDER BY k.day DESC LIMIT 1
    )"""
#: Each keyword of one site once (one index probe each) and, up to :until, the days of its latest row,
#: of its latest row with a search volume and of its latest with impressions; then those rows (one to
#: three a keyword), down the (account, site, keyword, day) index.
_LATEST_ROWS = """
{keywords},
latest(keyword, day, volume_day, impressions_day) AS MATERIALIZED (
    SELECT keywords.keyword, {newest}, {newest_volume}, {newest_impressions}
    FROM keywords WHERE keywords.keyword IS NOT NULL
)
SELECT {columns} FROM latest JOIN keyword_snapshots AS k
    ON k.account = :account AND k.site = :site AND k.keyword = latest.keyword
    AND k.day IN (latest.day, latest.volume_day, latest.impressions_day)
ORDER BY k.day, k.site, k.keyword
"""


#: The keyword rows' columns whose latest value the market weighs keywords by.
LatestColumn = Literal["impressions", "search_volume"]


def _rows_of(site: str | None) -> str:
    """The rows a walk keeps to (of the top 10s or the keyword rows): the account's, of ``site`` when
    given."""
    return "account = :account" + ("" if site is None else " AND site = :site")


def _period(
    statement: str, account: str, site: str | None, since: date | None, until: date | None
) -> tuple[TextClause, dict[str, Any]]:
    """``statement`` with its period bound as dates, and its parameters (an open end the widest day;
    ``until`` only where the statement names it)."""
    params: dict[str, Any] = {"account": check_account(account)}
    if ":since" in statement:
        params["since"] = since or date(1, 1, 1)
    if ":until" in statement:
        params["until"] = until or date(9999, 12, 31)
    if site is not None:
        params["site"] = subject_name(site)
    dates = (bindparam(name, type_=Date) for name in ("since", "until") if name in params)
    return text(statement).bindparams(*dates), params


def period_days(
    conn: Connection, account: str, site: str | None, since: date | None, until: date | None
) -> list[date]:
    """The days with a top 10 from ``since`` to ``until`` (of ``site`` when given), in order."""
    query, params = _period(_NEXT_DAYS.format(where=_rows_of(site)), account, site, since, until)
    return [row.day for row in conn.execute(query.columns(day=Date), params)]


def period_pairs(
    conn: Connection, account: str, site: str | None, since: date | None, until: date | None
) -> list[tuple[str, str]]:
    """Each (site, keyword) with a top 10 from ``since`` to ``until`` (of ``site`` when given), by site
    and keyword."""
    where = _rows_of(site)
    statement = _NEXT_PAIRS.format(
        where=where, next_keyword=_NEXT_KEYWORD, next_site=_NEXT_SITE.format(where=where)
    )
    query, params = _period(statement, account, site, since, until)
    rows = conn.execute(query.columns(site=String, keyword=String), params)
    return [(str(row.site), str(row.keyword)) for row in rows]


def latest_value_rows(
    conn: Connection, account: str, columns: Sequence[LatestColumn]
) -> list[tuple[str, str, date, str, float]]:
    """Each keyword's latest row with a value of each of ``columns`` (any site's, newest day first, then
    the greater site): (keyword, column, day, site, value), keyword by keyword down the (account,
    keyword, day) index: one walk of the keywords for all the columns (on PostgreSQL each step probes
    every month's partition; a value's probe stops at the newest month that has one), and a few rows a
    keyword and column (revision 0016's partial indexes hold only the rows with a value)."""
    names = [{"impressions": "impressions", "search_volume": "search_volume"}[column] for column in columns]
    picks = {"day": Date, "site": String, "value": Float}
    values = ", ".join(
        _LATEST_OF.format(column=name, pick=name if alias == "value" else alias, alias=alias)
        for name in names
        for alias in picks
    )
    statement = _LATEST_VALUES.format(keywords=_NEXT_KEYWORDS.format(where=_rows_of(None)), values=values)
    query, params = _period(statement, account, None, None, None)
    typed = {f"{name}_{pick}": kind for name in names for pick, kind in picks.items()}
    rows = conn.execute(query.columns(keyword=String, **typed), params).all()
    return [
        (str(row.keyword), name, row._mapping[f"{name}_day"], str(row._mapping[f"{name}_site"]), float(value))
        for row in rows
        for name in names
        if (value := row._mapping[f"{name}_value"]) is not None
    ]


def latest_keyword_rows(
    conn: Connection, account: str, site: str, columns: Sequence[Column[Any]], until: date | None
) -> list[Any]:
    """``columns`` of each keyword of ``site``'s rows that are its latest up to ``until`` (any day when
    None), its latest with a search volume and its latest with impressions (one to three rows a
    keyword), by day, site and keyword: a few probes a keyword, never every day of the history."""
    statement = _LATEST_ROWS.format(
        keywords=_NEXT_KEYWORDS.format(where=_rows_of(site)),
        columns=", ".join(f"k.{column.name}" for column in columns),
        newest=_NEWEST_DAY.format(where=""),
        newest_volume=_NEWEST_DAY.format(where=" AND k.search_volume IS NOT NULL"),
        newest_impressions=_NEWEST_DAY.format(where=" AND k.impressions IS NOT NULL"),
    )
    query, params = _period(statement, account, site, None, until)
    return list(conn.execute(query.columns(*columns), params).all())
