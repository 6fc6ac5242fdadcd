"""When each watched keyword becomes winnable, for a page's table: per site and keyword watched for it, the
site's DR series, the top 10's median and lowest DR series, and their two projections (``project``),
from the history's frames; and the table a page shows of them, nearest first. Pure.

The numbers "now" are the last recorded ones (the site's last DR, the top 10's last day's median and
lowest without the site's own result), never a fitted value: the table says what was read, the
sentence what the lines say.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property

import pandas as pd

from analysis.opportunities.series import site_dr_series, top10_dr_by_keyword
from analysis.opportunities.weeks import Readings, readings, readings_by_column
from analysis.opportunities.winnable import Projection, Target, project
from analysis.opportunities.words import projection_dates, projection_words

#: Each target and the column of ``top10_dr_series`` it is fitted to.
TARGET_COLUMNS: dict[Target, str] = {"median": "median_dr", "lowest": "min_dr"}
#: The table's columns, in order.
OUTLOOK_COLUMNS = [
    "site",
    "keyword",
    "site_dr",
    "median_dr",
    "min_dr",
    "median_when",
    "median_dates",
    "lowest_when",
    "lowest_dates",
]
#: The DR columns (numbers; unknown when nothing was recorded).
TARGET_DRS = ("site_dr", "median_dr", "min_dr")
#: The order of the states in the table: the nearest first, those with nothing to say last.
_STATE_ORDER = {"within_reach": 0, "in_months": 1, "not_at_this_pace": 2, "too_uncertain": 3}
_LAST = len(_STATE_ORDER)
#: A keyword without a rated top 10 (as ``top10_dr_series`` gives it).
_NO_TOP10 = pd.DataFrame(
    {"median_dr": pd.Series(dtype="float64"), "min_dr": pd.Series(dtype="float64")},
    index=pd.DatetimeIndex([], name="day"),
)
#: The readings of a series without one.
_NO_READINGS = readings(pd.Series(dtype="float64"))


@dataclass(frozen=True, eq=False)  # its frames are compared by identity, never hashed
class Outlook:
    """One keyword watched for ``site``: the series the projections were fitted to, and the projections."""

    site: str
    keyword: str
    site_dr: pd.Series
    median: Projection
    lowest: Projection
    #: The DRs last recorded: the site's, and the top 10's median and lowest without the site ("now").
    last_drs: tuple[float | None, float | None, float | None]
    #: Where ``top10`` is read from (the site's keywords' series, ``top10_dr_by_keyword``'s).
    top10s: Mapping[str, pd.DataFrame] = field(repr=False)

    @cached_property
    def top10(self) -> pd.DataFrame:
        """The keyword's top-10 median and lowest DR by day, made when a chart or a list asks for it."""
        return self.top10s.get(self.keyword, _NO_TOP10)

    def projection(self, target: Target) -> Projection:
        return self.median if target == "median" else self.lowest

    def target_series(self, target: Target) -> pd.Series:
        return self.top10[TARGET_COLUMNS[target]]


def outlooks(
    domain_rows: pd.DataFrame, serp_rows: pd.DataFrame, pairs: Iterable[tuple[str, str]]
) -> list[Outlook]:
    """The outlook of each (site, keyword) pair: the site's DR from ``domain_rows`` (``domain_history``
    rows), the keyword's top 10 without the site from ``serp_rows`` (``serp_history`` rows)."""
    chosen = list(pairs)
    top10s = {site: top10_dr_by_keyword(serp_rows, site) for site in dict.fromkeys(s for s, _ in chosen)}
    return outlooks_of(domain_rows, top10s, chosen)


def outlooks_of(
    domain_rows: pd.DataFrame,
    top10s: Mapping[str, Mapping[str, pd.DataFrame]],
    pairs: Iterable[tuple[str, str]],
) -> list[Outlook]:
    """``outlooks`` from each site's keywords' top-10 DR series already made (``top10s``: site → what
    ``top10_dr_by_keyword`` gives without that site), as a store computes them where the rows are.

    Each site's DR series is read and fitted once for all its keywords, and its keywords' series are
    read in one pass (``readings_by_column``), not once a keyword and target: at 5,000 keywords that was most
    of a report's time."""
    chosen = list(pairs)
    sites = dict.fromkeys(site for site, _keyword in chosen)
    site_drs = {site: site_dr_series(domain_rows, site) for site in sites}
    site_ready = {site: readings(series) for site, series in site_drs.items()}
    by_column = {
        site: readings_by_column(top10s.get(site, {}), list(TARGET_COLUMNS.values())) for site in sites
    }
    top_ready: dict[tuple[str, Target], dict[str, Readings]] = {
        (site, target): by_column[site][column] for site in sites for target, column in TARGET_COLUMNS.items()
    }
    found: list[Outlook] = []
    for site, keyword in chosen:
        ready = {t: top_ready[site, t].get(keyword) or _NO_READINGS for t in TARGET_COLUMNS}
        median, lowest = (project(site_ready[site], ready[t], t) for t in TARGET_COLUMNS)
        last_drs = (site_ready[site].latest, ready["median"].latest, ready["lowest"].latest)
        found.append(Outlook(site, keyword, site_drs[site], median, lowest, last_drs, top10s.get(site, {})))
    return found


def _order(projection: Projection) -> tuple[int, float]:
    rank = _STATE_ORDER.get(projection.state, _LAST)
    months = projection.months if projection.state == "in_months" and projection.months is not None else 0.0
    return rank, months


def outlook_table(found: list[Outlook]) -> pd.DataFrame:
    """One row per outlook (``OUTLOOK_COLUMNS``): the DRs now, and for each target its sentence and its
    months as dates; "within reach now" and the nearest months against the median first, then against
    the lowest DR, then by keyword."""
    rows = [
        {
            "site": o.site,
            "keyword": o.keyword,
            "site_dr": o.last_drs[0],
            "median_dr": o.last_drs[1],
            "min_dr": o.last_drs[2],
            "median_when": projection_words(o.median),
            "median_dates": projection_dates(o.median),
            "lowest_when": projection_words(o.lowest),
            "lowest_dates": projection_dates(o.lowest),
        }
        for o in sorted(found, key=lambda o: (*_order(o.median), *_order(o.lowest), o.keyword, o.site))
    ]
    if not rows:
        return pd.DataFrame({name: pd.Series(dtype="object") for name in OUTLOOK_COLUMNS})
    table = pd.DataFrame(rows)
    numbers = {name: pd.to_numeric(table[name], errors="coerce").astype("float64") for name in TARGET_DRS}
    return table.assign(**numbers)[OUTLOOK_COLUMNS].reset_index(drop=True)


def state_counts(found: list[Outlook]) -> dict[str, int]:
    """How many projections (both targets) end in each state."""
    counts: dict[str, int] = {}
    for o in found:
        for projection in (o.median, o.lowest):
            counts[projection.state] = counts.get(projection.state, 0) + 1
    return counts
