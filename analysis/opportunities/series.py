"""The series a projection fits, read from the history's frames: a site's DR by day (``domain_history``
rows) and a keyword's top-10 median and lowest DR by day (``serp_history`` rows). Pure.

The top 10's DR is taken without the site's own results: the site is measured against the domains it
has to pass, and its own DR among them would pull their median and lowest towards it (a site in the
top 10 would always be "within reach" of its own DR). The day's median and lowest are the market's
(``analysis.market.dr_spread``), so the Market page's DR spread chart and these series agree when the
site is not in the top 10. An unrated result is left out, never counted as 0.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

import numpy as np
import pandas as pd

from analysis.market import dr_spread, one_top10_per_keyword

#: The DRs of a keyword's top 10 by day that its projections are fitted to.
DR_COLUMNS = ("median_dr", "min_dr")


def site_dr_series(domain_rows: pd.DataFrame, site: str) -> pd.Series:
    """``site``'s recorded DR by day (days without a DR left out)."""
    rows = domain_rows.loc[domain_rows["domain"] == site].dropna(subset=["dr"])
    values = pd.Series(rows["dr"].astype("float64").to_numpy(), index=pd.to_datetime(rows["day"]).to_numpy())
    return values.sort_index().rename("dr")


def top10_dr_series(serp_rows: pd.DataFrame, keyword: str, site: str | None = None) -> pd.DataFrame:
    """``keyword``'s top 10 by day without ``site``'s own results: ``median_dr`` and ``min_dr``
    (columns), indexed by day."""
    rows = serp_rows.loc[serp_rows["keyword"] == keyword]
    if site is not None:
        rows = rows.loc[rows["domain"] != site]
    spread = dr_spread(one_top10_per_keyword(rows))
    if spread.empty:
        return pd.DataFrame({"median_dr": pd.Series(dtype="float64"), "min_dr": pd.Series(dtype="float64")})
    frame = spread.assign(day=pd.to_datetime(spread["day"])).set_index("day").sort_index()
    return frame[["median_dr", "min_dr"]].astype("float64")


def top10_dr_by_keyword(serp_rows: pd.DataFrame, site: str | None = None) -> Mapping[str, pd.DataFrame]:
    """``top10_dr_series`` of every keyword in ``serp_rows`` at once (one pass over the rows instead of one
    per keyword: the day's top 10 and its DRs are each keyword's own); a keyword without a rated top 10
    is absent."""
    rows = serp_rows if site is None else serp_rows.loc[serp_rows["domain"] != site]
    return drs_by_keyword(dr_spread(one_top10_per_keyword(rows)))


class KeywordDrs(Mapping[str, pd.DataFrame]):
    """Per keyword, its ``DR_COLUMNS`` indexed by day, as ``drs_by_keyword`` gives them: every keyword's
    days held in one sorted array, and a keyword's frame made only when it is asked for (and kept).

    A report projects every watched keyword from the arrays (``weeks.readings_by_column`` reads ``days``
    and ``drs`` directly) and shows the nearest 20: at 5,000 keywords, a frame made for each was seconds
    of its time."""

    def __init__(self, days: pd.DatetimeIndex, drs: np.ndarray, bounds: dict[str, tuple[int, int]]) -> None:
        #: Every keyword's days and DRs (one column each of ``DR_COLUMNS``), by keyword then day;
        #: ``bounds``: where each keyword's rows start and end.
        self.days, self.drs, self.bounds = days.rename("day"), drs, bounds
        self._made: dict[str, pd.DataFrame] = {}

    def __getitem__(self, keyword: str) -> pd.DataFrame:
        if keyword not in self._made:
            start, end = self.bounds[keyword]
            made = pd.DataFrame(self.drs[start:end], index=self.days[start:end], columns=list(DR_COLUMNS))
            self._made[keyword] = made
        return self._made[keyword]

    def __iter__(self) -> Iterator[str]:
        return iter(self.bounds)

    def __len__(self) -> int:
        return len(self.bounds)


def sorted_drs(keywords: Sequence[str], days: np.ndarray, drs: np.ndarray) -> KeywordDrs:
    """``KeywordDrs`` of rows already ordered by keyword, then day (each row's keyword, its day, its
    ``DR_COLUMNS``), as the kept sums are read (``store.rollups.dr_days.DrDays.series``): cut where the
    keyword changes, no frame made."""
    names = np.asarray(keywords, dtype=object)
    bounds = {str(names[start]): (start, end) for start, end in _runs(names)}
    return KeywordDrs(pd.DatetimeIndex(days.astype("datetime64[ns]")), drs, bounds)


def drs_by_keyword(spread: pd.DataFrame) -> Mapping[str, pd.DataFrame]:
    """A ``dr_spread`` frame (per day and keyword) as ``top10_dr_by_keyword`` gives it: per keyword, its
    ``median_dr`` and ``min_dr`` indexed by day (``KeywordDrs``). The one shape both paths end in: the
    rows read into memory, or the spread computed at the database (``services.market.site_top10_drs``)."""
    if spread.empty:
        return {}
    # Sorted once and cut into each keyword's days, rather than a group, an index and a copy a keyword.
    codes, keywords = pd.factorize(spread["keyword"])  # in order of first appearance, as groupby's
    days = pd.DatetimeIndex(pd.to_datetime(spread["day"]))
    order = np.lexsort((days.asi8, codes))
    values = spread[list(DR_COLUMNS)].astype("float64").to_numpy()[order]
    days, codes = days[order], codes[order]
    bounds = {str(keywords[codes[start]]): (start, end) for start, end in _runs(codes)}
    return KeywordDrs(days, values, bounds)


def _runs(keys: np.ndarray) -> list[tuple[int, int]]:
    """Where each run of equal ``keys`` starts and ends (each key's rows together already): a keyword's
    rows in both ways ``KeywordDrs`` are made."""
    if not len(keys):
        return []
    starts = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
    ends = np.r_[starts[1:], len(keys)]
    return list(zip(starts.tolist(), ends.tolist(), strict=True))
