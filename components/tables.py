"""Tables with a CSV download: every table in the app can leave it.

CSV cells that a spreadsheet would run as a formula (starting with =, +, -, @, tab or CR) are
prefixed with an apostrophe, because domain titles and anchors come from third parties.
"""

from __future__ import annotations

import re
from typing import Any

import pandas as pd
import streamlit as st

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _defuse(value: Any) -> Any:
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    return value


def safe_csv(frame: pd.DataFrame) -> bytes:
    """UTF-8 CSV (with BOM, so spreadsheets detect the encoding) with formula cells defused."""
    cleaned = frame.copy()
    for column in cleaned.columns:
        if cleaned[column].dtype == object or pd.api.types.is_string_dtype(cleaned[column]):
            cleaned[column] = cleaned[column].map(_defuse, na_action="ignore")
    cleaned.columns = [_defuse(str(c)) for c in cleaned.columns]
    return cleaned.to_csv(index=False).encode("utf-8-sig")


def csv_file_name(stem: str) -> str:
    """A file name made only of safe characters, whatever the stem (often a domain) holds."""
    safe = re.sub(r"[^A-Za-z0-9._-]+", "-", stem).strip("-.") or "export"
    return f"{safe[:80]}.csv"


def table_with_export(
    frame: pd.DataFrame,
    *,
    file_stem: str,
    key: str,
    column_config: dict[str, Any] | None = None,
    column_order: list[str] | None = None,
    label: str = "Download CSV",
    height: int | str = "auto",
) -> None:
    """A sortable dataframe and, under it, its CSV download (of every column, in frame order).

    Missing values show as a dash, not "None": an unknown signal is not a value.
    """
    st.dataframe(
        frame,
        hide_index=True,
        column_config=column_config,
        column_order=column_order,
        key=f"{key}_table",
        height=height,
        placeholder="—",
    )
    st.download_button(
        label,
        data=safe_csv(frame),
        file_name=csv_file_name(file_stem),
        mime="text/csv",
        key=f"{key}_csv",
        icon=":material/download:",
        on_click="ignore",
    )
