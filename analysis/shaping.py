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
