"""CSV that a spreadsheet opens without running anything: the one rule every CSV the app writes keeps
(the pages' downloads, the spreadsheet feeds, the commands' ``--csv``).

Keywords, domain titles, anchors and tags come from people and third parties: anyone with the API key
can track a keyword ``=HYPERLINK("http://…","click")``. A spreadsheet runs a cell as a formula when it
starts with =, +, -, @, a tab or a carriage return (or their full-width forms), so such a TEXT cell gets
an apostrophe in front, which spreadsheets read as "this is text". Numbers are never touched: -3 or
-0.5 in a numeric column stays a number a sheet can sum. Rows end with CRLF (RFC 4180), which makes the
writer quote a cell holding a bare carriage return: unquoted, a spreadsheet would start a new row there,
and the text after it could run as a formula.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pandas as pd

#: What spreadsheets treat as the start of a formula, including full-width (CJK input) forms.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "＝", "＋", "－", "＠")
#: Every CSV row ends so (RFC 4180); see the module's note on carriage returns.
ROW_END = "\r\n"


def defuse_cell(value: Any) -> Any:
    """The value, with an apostrophe in front when it is text a spreadsheet would evaluate; any other
    value (a number, a date, a missing value) as it is."""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


def defused_row(values: Iterable[Any]) -> list[Any]:
    """A row for ``csv.writer`` (whose rows end with CRLF by default): each text cell defused, numbers
    left numbers."""
    return [defuse_cell(value) for value in values]


def defused_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """A copy of ``frame`` with every text cell and column name defused; numeric columns untouched."""
    cleaned = frame.copy()
    for column in cleaned.columns:
        series = cleaned[column]
        if series.dtype == object or pd.api.types.is_string_dtype(series):
            cleaned[column] = series.map(defuse_cell, na_action="ignore")
    cleaned.columns = [defuse_cell(str(c)) for c in cleaned.columns]
    return cleaned


def csv_text(frame: pd.DataFrame, *, header: bool = True, float_format: str | None = None) -> str:
    """The frame as CSV for a spreadsheet: defused, CRLF rows, no index; ``float_format`` (e.g.
    ``"%.1f"``) writes decimals as the page shows them."""
    return defused_frame(frame).to_csv(
        index=False, header=header, lineterminator=ROW_END, float_format=float_format
    )
