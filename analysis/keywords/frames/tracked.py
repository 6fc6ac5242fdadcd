"""Tracked keywords of one site → a DataFrame of stored snapshots, the columns shown at first, and how
full the list is. Pure."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from analysis.keywords.frames.report import gap_words, present_columns
from client.models import TrackedKeywords

TRACKED_COLUMNS: dict[str, str] = {
    "keyword": "string",
    "user_position": "Int64",
    "position_change": "Int64",
    "gap": "Float64",
    "tier": "string",
    "median_dr": "Float64",
    "min_dr": "Float64",
    "user_dr": "Int64",
    "impressions": "Int64",
    "gsc_position": "Float64",
    "search_volume": "Int64",
    "cpc": "Float64",
    "prev_position": "Int64",
    "last_checked_at": "datetime64[ns, UTC]",
    "id": "string",
}

#: Shown when at least one keyword has a value (Search Console columns need it connected).
OPTIONAL_COLUMNS = ("position_change", "impressions", "gsc_position", "search_volume", "cpc")
#: The table's columns at first, in order. So that it fits a laptop screen, these wait in the table's
#: column menu (and the raw CSV): the tier (it follows from the gap, and the caption says how), the
#: lowest DR in the top 10 (Keyword research shows it with the whole top 10), your DR (said once
#: under the table), the previous position ("Moved" shows the change) and the service's id.
SHOWN_COLUMNS = (
    "keyword",
    "user_position",
    "position_change",
    "median_dr",
    "gap",
    "impressions",
    "gsc_position",
    "search_volume",
    "cpc",
    "last_checked_at",
)


def tracked_frame(listing: TrackedKeywords) -> pd.DataFrame:
    """The stored snapshots, one row per tracked keyword, in the service's order.

    ``position_change`` is positive when the site moved up (from position 12 to 9 is +3).
    """
    rows: list[dict[str, object]] = []
    for item in listing.keywords:
        s = item.snapshot
        now = s.user_position if s else None
        before = s.prev_position if s else None
        rows.append(
            {
                "keyword": item.keyword,
                "median_dr": s.median_dr if s else None,
                "min_dr": s.min_dr if s else None,
                "user_dr": s.user_dr if s else None,
                "gap": s.gap if s else None,
                "tier": s.tier if s else None,
                "search_volume": s.search_volume if s else None,
                "cpc": s.cpc if s else None,
                "user_position": now,
                "prev_position": before,
                "position_change": before - now if now is not None and before is not None else None,
                "impressions": item.impressions,
                "gsc_position": item.gsc_position,
                "last_checked_at": item.last_checked_at,
                "id": item.id,
            }
        )
    frame = pd.DataFrame(rows, columns=list(TRACKED_COLUMNS))
    frame["last_checked_at"] = pd.to_datetime(frame["last_checked_at"], utc=True)
    return frame.astype(TRACKED_COLUMNS)


def tracked_column_order(frame: pd.DataFrame) -> list[str]:
    """The columns the table shows at first: ``SHOWN_COLUMNS`` minus optional ones nobody has a value in."""
    return present_columns(frame[list(SHOWN_COLUMNS)], OPTIONAL_COLUMNS)


def gap_reading(frame: pd.DataFrame, domain: str) -> str:
    """How to read the Gap column, whose sign reads backwards bare; with the site's DR when every
    snapshot has the same one."""
    your_drs = frame["user_dr"].dropna().unique()
    dr = f" ({your_drs[0]})" if len(your_drs) == 1 else ""
    return (
        f"Gap is the median DR of the top 10 minus {domain}'s DR{dr}: "
        f"+9 means {gap_words(9)}, −21 means {gap_words(-21)}."
    )


@dataclass(frozen=True)
class Usage:
    """How full the site's tracked list is and how much of the check allowance is spent."""

    tracked: int
    limit: int | None
    checks_used: int | None
    checks_limit: int | None

    @property
    def at_limit(self) -> bool:
        return self.limit is not None and self.tracked >= self.limit

    @property
    def checks_left(self) -> int | None:
        if self.checks_limit is None or self.checks_used is None:
            return None
        return max(0, self.checks_limit - self.checks_used)

    @property
    def uncapped_checks_words(self) -> str | None:
        """The checks used on a plan without a monthly allowance (the service sends no limit).

        A missing limit means no cap, not none allowed: only the free plan has a monthly allowance.
        """
        if self.checks_limit is not None or self.checks_used is None:
            return None
        checks = "check" if self.checks_used == 1 else "checks"
        return (
            f"{self.checks_used} keyword {checks} used (adds and refreshes). "
            "Your plan has no monthly cap on keyword checks."
        )


def usage(listing: TrackedKeywords) -> Usage:
    q = listing.quota
    return Usage(
        tracked=len(listing.keywords),
        limit=listing.limit,
        checks_used=q.used if q else None,
        checks_limit=q.limit if q else None,
    )
