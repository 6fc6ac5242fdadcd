"""Tables with a CSV download: every table in the app leaves it through here. Also the one way a
0–100 score (DR, TrueDR, a signal's score) is drawn in a table column, and a site's ratings columns.

CSV cells that a spreadsheet would run as a formula (starting with =, +, -, @, a tab or a carriage
return, or their full-width forms) are prefixed with an apostrophe, because domain titles, anchors
and keywords come from third parties. Numeric columns are left untouched, so -3 stays a number.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date
from typing import Any

import pandas as pd
import streamlit as st
from streamlit.elements.lib.column_types import ColumnConfig

#: What spreadsheets treat as the start of a formula, including full-width (CJK input) forms.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "＝", "＋", "－", "＠")


def score_column(label: str, *, format: str = "%d", help: str | None = None) -> ColumnConfig:
    """A table column for a 0–100 score, drawn as a bar on the full 0–100 scale."""
    return st.column_config.ProgressColumn(label, min_value=0, max_value=100, format=format, help=help)


#: A site's ratings as every table of sites shows them (each page adds its own columns around them).
SITE_RATING_COLUMNS = {
    "dr": score_column("DR"),
    "true_dr": score_column("TrueDR"),
    "trust_score": st.column_config.NumberColumn("Trust", format="%d"),
    "traffic_validated": st.column_config.CheckboxColumn("Traffic validated"),
}


def defuse_cell(value: Any) -> Any:
    """The value, with an apostrophe in front when it is text a spreadsheet would evaluate."""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


def safe_csv(frame: pd.DataFrame) -> bytes:
    """UTF-8 CSV (with BOM, so spreadsheets detect the encoding) in the frame's column order."""
    cleaned = frame.copy()
    for column in cleaned.columns:
        series = cleaned[column]
        if series.dtype == object or pd.api.types.is_string_dtype(series):
            cleaned[column] = series.map(defuse_cell, na_action="ignore")
    cleaned.columns = [defuse_cell(str(c)) for c in cleaned.columns]
    # CRLF rows (RFC 4180) make the writer quote any cell holding a bare CR too: unquoted, a
    # spreadsheet would start a new row there, and text after the CR could run as a formula.
    return cleaned.to_csv(index=False, lineterminator="\r\n").encode("utf-8-sig")


def csv_file_name(what: str, subject: str | None = None, *, day: date | None = None) -> str:
    """``what_subject_YYYY-MM-DD.csv`` made only of safe characters, whatever the subject holds."""

    def clean(text: str) -> str:
        return re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-.")[:80]

    parts = [clean(what) or "export"]
    if subject and clean(subject):
        parts.append(clean(subject))
    parts.append((day or date.today()).isoformat())
    return "_".join(parts) + ".csv"


def csv_download(
    frame: pd.DataFrame | Callable[[], pd.DataFrame],
    *,
    what: str,
    subject: str | None = None,
    key: str,
    label: str = "Download CSV",
) -> None:
    """A download button whose CSV is built when clicked, not on every rerun."""

    def build() -> bytes:
        return safe_csv(frame() if callable(frame) else frame)

    st.download_button(
        label,
        data=build,
        file_name=csv_file_name(what, subject),
        mime="text/csv",
        key=f"{key}_csv",
        icon=":material/download:",
        on_click="ignore",
    )


def table_with_export(
    frame: pd.DataFrame,
    *,
    what: str,
    subject: str | None = None,
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
    csv_download(frame, what=what, subject=subject, key=key, label=label)
