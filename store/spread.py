"""The top 10s' DR spread as both of its reads make it: the median by row numbers (so SQLite, which has
no median, and PostgreSQL agree) and the frame its rows become. ``MarketSums.dr_spread`` sums it from
the top 10s on each read; ``store.rollups.dr_days`` keeps it per keyword and day as the top 10s are
written, and reads its series' days through the same ``day_stamps``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
from sqlalchemy import or_

from schema.history import SPREAD_COLUMNS


def middle_place(place: Any, count: Any) -> Any:
    """Whether a result ranked ``place`` of ``count`` by DR is the middle one, or one of the two middle
    ones when the count is even: the median is their mean, by row numbers, so SQLite (which has no
    median) and PostgreSQL agree."""
    return or_(place == (count + 1) // 2, place == (count + 2) // 2)


def day_stamps(days: Sequence[Any]) -> pd.Series:
    """Days read from the database (dates) as nanosecond stamps, through pandas: NumPy makes a
    ``datetime64`` of a ``date`` a second per million, and a year of 5,000 keywords is 1.8 million."""
    return pd.to_datetime(pd.Series(days, dtype="object")).astype("datetime64[ns]")


def spread_frame(rows: Sequence[Any]) -> pd.DataFrame:
    """(day, keyword, median, lowest and highest DR, how many rated) rows as ``SPREAD_COLUMNS``, the
    spread added: whichever read summed them (column by column: a year of 5,000 keywords is 1.8 million
    rows)."""
    days, keywords, medians, lowest, highest, rated = zip(*rows, strict=True) if rows else ((),) * 6
    frame = pd.DataFrame(
        {
            "day": day_stamps(days),
            "keyword": pd.Series(list(keywords), dtype=None if rows else "object"),  # text, as inferred
            "median_dr": np.asarray(medians, dtype="float64"),
            "min_dr": np.asarray(lowest, dtype="float64"),
            "max_dr": np.asarray(highest, dtype="float64"),
            "rated": np.asarray(rated, dtype="int64"),
        }
    )
    frame["spread"] = frame["max_dr"] - frame["min_dr"]
    return frame.loc[:, list(SPREAD_COLUMNS)]
