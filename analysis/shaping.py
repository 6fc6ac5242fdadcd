"""Small pure helpers every feature's frames share."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd


def typed_frame(rows: Sequence[Mapping[str, Any]], columns: Mapping[str, str]) -> pd.DataFrame:
    """Rows as a frame with exactly ``columns`` in that order, each of its nullable dtype.

    Nullable dtypes keep a missing signal missing (NA) instead of turning it into 0 or NaN-as-float.
    """
    return pd.DataFrame(list(rows), columns=list(columns)).astype(dict(columns))


def over_period(
    frame: pd.DataFrame, value: str, by: str | None = None, *, skip_missing: bool = True
) -> pd.DataFrame:
    """ "Change over a period", the one meaning the reports give it: each ``by`` group's ``value`` on the
    first recorded day of ``frame`` (the period's rows) and on the last, and the change between them
    (last − first). One row per group (one row in all without ``by``; none when nothing is recorded),
    columns ``by``, ``first_day``, ``first``, ``last_day``, ``last``, ``change``.

    A missing value is skipped (a read that failed is not a value), unless ``skip_missing`` is False: then
    a missing value is a recorded state (a keyword checked and not ranking), and a change to or from it
    is missing.
    """
    group = by or "_all"
    columns = [*([by] if by else []), "first_day", "first", "last_day", "last", "change"]
    rows = pd.DataFrame(
        {
            group: frame[by].to_numpy() if by else 0,
            "day": pd.to_datetime(frame["day"]).dt.date.to_numpy(),
            "value": pd.to_numeric(frame[value], errors="coerce").astype(float).to_numpy(),
        }
    )
    if skip_missing:
        rows = rows[rows["value"].notna()]
    if rows.empty:
        return pd.DataFrame(columns=columns)
    ordered = rows.sort_values([group, "day"], kind="stable").groupby(group, sort=True)
    first, last = ordered.head(1).set_index(group), ordered.tail(1).set_index(group)
    out = pd.DataFrame(
        {
            "first_day": first["day"],
            "first": first["value"],
            "last_day": last["day"],
            "last": last["value"],
            "change": last["value"] - first["value"],
        }
    )
    return out.reset_index(names=by).loc[:, columns] if by else out.reset_index(drop=True)
